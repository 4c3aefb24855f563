// Package derive is PCP's derived metrics (pmRegisterDerived(3)), checked
// and evaluated as libpcp 6.0.3 does.
//
// A Registry holds global definitions (Register, LoadConfig for files in
// the pmLoadDerivedConfig(3) format, LoadEnv for PCP_DERIVED_CONFIG and
// PCP's global directory). Wrap (or Layer, which leaves a metric that
// lacks an operand unparsed) layers them over any pmapi.Context: they
// join its namespace (Children, LookupName, NameAll), get descriptors
// (LookupDesc) and help text, and are evaluated in Fetch, which asks the
// underlying context for their operands. Context.Add defines per-context
// metrics (pmAddDerived).
//
// Expressions are parsed by lang. The checker (check.go, binary.go,
// funcs.go) builds a new typed tree from the syntax tree, giving each node
// the type, semantics, units and instance domain libpcp gives it, and the
// scale conversions it needs; every diagnostic is made in diag.go, and
// Diagnostic.PCP prints them in libpcp's words. Checked trees are compiled
// to closures (eval.go, binop.go, funcs.go) that keep their delta() and
// rate() history per context and allocate nothing in steady state.
//
// Beyond libpcp 6.0.3: an operand may be another derived metric (libpcp
// refuses these, or crashes), with a cycle reported as an error naming
// it; (expr)[inst] selects the instance by name as name[inst] does
// (libpcp runs an uninitialised regular expression); !x gives 0 or 1 in
// x's type (libpcp leaves 64-bit and floating point results undefined);
// and ?: with string operands gives the strings (libpcp loses their
// length).
//
// derive uses lang for syntax and pmapi for metadata and values; it does
// not know about pmie.
package derive
