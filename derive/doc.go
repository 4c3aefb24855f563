// Package derive is PCP's derived metrics: the checker that gives each node
// of a parsed expression its type, semantics, units and instance domain with
// libpcp's rules and diagnostics, the compiled evaluator with its delta and
// rate state, and a pmapi.Context wrapper that adds registered derived
// metrics to any source's namespace, metadata and fetches.
//
// derive uses lang for syntax and pmapi for metadata and values; it does
// not know about pmie.
package derive
