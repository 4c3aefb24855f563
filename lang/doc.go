// Package lang owns the syntax of both languages this project reads:
// PCP derived-metric expressions (pmRegisterDerived(3)) and pmie rules
// (pmie(1)). It accepts and rejects exactly what PCP 6.0.3 does, and
// reports errors where and as PCP does.
//
// Entry points:
//
//   - ParseDerived and DerivedParser.Parse parse one derived-metric
//     expression; DerivedParser.Accept and AcceptEntry only decide whether
//     libpcp accepts it, leaving its tree to be made when first asked for
//     (Accepted.Tree); ReadDerivedConfig and ParseDerivedConfig read files
//     in the pmLoadDerivedConfig(3) format.
//   - ParsePmie parses a pmie rule file into statements (File, Stmt), with
//     pmie's macros, error recovery and statement numbering.
//
// Both produce one closed syntax tree (Node, Expr) whose nodes carry
// positions; shared constructs (numbers, strings, metric names,
// parentheses, unary and binary operators, instance matching) use the same
// node types in both languages. Dump shows a tree; FormatDerived,
// FormatPmie, FormatStmt and FormatFile print trees back as source.
//
// Errors are Diagnostics: Error renders file:line:col, the source line and
// a caret; PCPRegisterError, PCPConfigSyntaxText, PCPConfigDiag and
// PCPPmieText render the same diagnostics in PCP's own words, for output
// that must match PCP's.
//
// Each language has a hand-written scanner faithful to PCP's (its tokens
// decide what is legal).
//
// Derived-metric expressions then go through a checker that models
// libpcp's parser to decide legality and reproduce its error reports, and
// a participle v2 grammar (unexported structs, golden EBNF in
// testdata/golden/lang/grammar.ebnf) that gives accepted input its
// structure; operators are folded by precedence climbing. That structure
// depends only on the shape of the token list (the tokens' kinds, and the
// text of punctuation), so participle parses each shape once per process
// and the tree takes its values and positions from the tokens
// (derive_grammar.go).
//
// pmie rules are parsed once, by one hand-written parser (pmieParser),
// which builds the tree as it goes. pmie's rules are not a participle
// grammar, deliberately: what pmie accepts, what it prints for a bad
// statement, where its error recovery resumes (sometimes skipping the next
// statement) and which half-parsed statements it still registers all
// follow from its yacc parser's state at the failing token (which
// constructs are waiting for an operand of which type). Reproducing that
// needs a parser that has the same state, so the hand-written one models
// pmie's; participle can only say that it failed. With both, each
// statement was parsed twice, by two precedence tables that could
// disagree ("the checker accepted a statement the grammar does not").
// The golden EBNF's pmie part is written from the parser and the
// operator table (pmie_ebnf.go).
//
// pmie's operators are one table (PmieOperators: each operator's name,
// class, operand and result types, binding power and pmie's messages about
// it), which the scanner, the parser and the printer read; the
// evaluator's table of implementations is checked against it.
//
// lang knows nothing of metrics, units or evaluation: function calls parse
// generically, scale factors and mkconst parameters are recorded, not
// interpreted, and checks that need metadata (types, instance domains,
// units strings, regular expressions) belong to the derive and eval
// packages; the Checker hook lets derive run libpcp's parse-time checks in
// libpcp's order. lang imports nothing else from this module.
package lang
