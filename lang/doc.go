// Package lang owns the syntax of both languages this project reads:
// PCP derived-metric expressions (pmRegisterDerived(3)) and pmie rules
// (pmie(1)). It holds one participle v2 grammar with an entry point for
// each, the closed, exported AST with source positions, a printer, and
// syntax diagnostics (file:line:col with a caret, plus PCP's own wording).
//
// lang knows nothing of metrics, units or evaluation: function calls parse
// generically, and semantic checks belong to derive and eval. It imports
// nothing else from this module.
package lang
