package lang

import (
	"fmt"
	"strings"
)

// pmieEBNF describes the grammar pmieParser implements, with the operators
// and their typing taken from the operator table, for the golden copy of
// the grammars (testdata/golden/lang/grammar.ebnf): a change to the table
// shows up there as a diff, and a change to the parser's structure must be
// written here by hand.
func pmieEBNF() string {
	var b strings.Builder
	words := func(c OperatorClass, suffix string) string {
		var alts []string
		for _, op := range pmieOperators {
			if op.Class == c && (op.Name != "%" || suffix == "") {
				alts = append(alts, fmt.Sprintf("%q", op.Name+suffix))
			}
		}
		return strings.Join(alts, " | ")
	}
	b.WriteString(`Statement = ((<name> | <quoted>) "=")? Expr .
Expr = Operand (Infix Operand)* .
Operand = Prefix* Primary .
Prefix = PrefixOp | DomainOp Domain | (<number> "%_" Domain) | (MatchOp <string>) .
`)
	fmt.Fprintf(&b, "Infix = %s .\n", words(Infix, ""))
	fmt.Fprintf(&b, "PrefixOp = %s .\n", words(Prefix, ""))
	fmt.Fprintf(&b, "DomainOp = %s | %s .\n", words(Quantifier, "_"), words(Aggregate, "_"))
	b.WriteString(`Domain = "_host" | "_inst" | "_sample" .
`)
	fmt.Fprintf(&b, "MatchOp = %s .\n", words(Matching, ""))
	b.WriteString(`Primary = ("(" Expr ")") | Ruleset | Action | Fetch | Number | <var> | <string> | "true" | "false" .
Ruleset = "ruleset" Expr ("else" Expr)* ("unknown" "->" Expr)? ("otherwise" "->" Expr)? .
`)
	fmt.Fprintf(&b, "Action = (%s) Number? <string>+ .\n", words(ActionWord, ""))
	b.WriteString(`Fetch = (<name> | <quoted>) (":" Ident)* ("#" Ident)* ("@" <number> (".." <number>)?)? .
Ident = <name> | <quoted> .
Number = <number> Unit* .
Unit = "/"? <unit> ("^" <number>)? .

// Operators fold by binding power and type (pmieShift): each applies only
// where its operands have its types, so a prefix operator's operand
// extends as far as it must to have its type.
// operator, class, binding power: left operand, operand -> result
`)
	for _, op := range pmieOperators {
		left := ""
		if op.Class == Infix {
			left = typeNames(op.Left) + ", "
		}
		fmt.Fprintf(&b, "// %-14q %-10s %2d: %s%s -> %s\n", op.Name, className[op.Class], op.prec, left, typeNames(op.Operand), typeNames(op.Result))
	}
	return b.String()
}

var className = map[OperatorClass]string{Infix: "infix", Prefix: "prefix", Matching: "matching",
	Aggregate: "aggregate", Quantifier: "quantifier", ActionWord: "action"}

// typeNames names the types in t.
func typeNames(t Type) string {
	var out []string
	for i, n := range []string{"arith", "bool", "string", "action", "rule", "ruleset"} {
		if t&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, "|")
}
