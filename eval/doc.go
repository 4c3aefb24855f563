// Package eval compiles pmie expressions to runtime trees over hosts x
// instances x samples and evaluates them exactly as pmie 6.0.3 does:
// three-valued truth, quantifiers and aggregates over hosts, instances and
// samples, automatic rate conversion of counters, canonical units, sample
// windows, rising and falling, rules and rulesets, and the bindings that
// %h %c %i and %v stand for in actions.
//
// The pipeline: lang parses a rule file; Compiler walks each statement's
// syntax tree and calls Builder, which builds a Rule's tree node by node
// the way pmie's parser actions build theirs (binding each metric to its
// source's metadata through Env, inheriting domains from the primary
// operand, choosing an evaluator for each node's shape, folding constants).
// Each Node keeps a ring buffer of its last samples; Rule.Eval evaluates
// the tree once, after the engine has delivered fetched values to the
// rule's Metrics. AppendValue, AppendAnnotated and AppendSatisfying print
// values as pmie -v, -V and -W do, and Members gives the same values as
// numbers and truths, by host and instance; actions go to a passed-in
// Actor, a shell action's values put into its text through a Quoter; an
// action allocates nothing (the Runtime reuses its Firing and buffers).
//
// Rules evaluated at the same times (a Group: one schedule of package
// rules) share their common sub-expressions (Regroup, share.go): each
// metric is fetched, converted and made a rate once, and each repeated
// sub-expression computed once a step, for every rule that has it, where
// the shared node's history is what each rule's own would have been (so
// never under a ruleset's later rules, and not between rules reading
// different hosts); the trees become a graph whose shared nodes remember
// the step they were computed at.
//
// Every problem found building a rule is a lang.Diagnostic at the node
// being compiled (diag.go, Builder.Report), carrying pmie's wording and
// line for it: lang.PCPPmieText prints pmie's messages from it, and its
// Error method our file:line:col form with the line and a caret.
//
// Every operator is a row of one table (op.go): pmie's name for it, the
// operator of lang's grammar it is made from, the types of its operands
// and its implementation (an evaluator chooser, and for aggregates and
// quantifiers a reduction). TestOperatorTable checks the table against
// lang.PmieOperators both ways and compiles a use of every operator, so an
// operator added to one and not the other fails the test.
//
// Where pmie's results depend on its data layout (the order quantifiers
// meet unknown members, buffers walked in storage order, a multi-host
// aggregate starting on the previous host's last value), eval keeps the
// same layout so that output is identical. Where pmie reads freed or
// uninitialised memory, eval gives an answer instead: unknown, or the
// quoted string.
//
// eval uses lang and pmapi. Scheduling, fetching, host connections and
// running actions belong to rules and actions.
package eval
