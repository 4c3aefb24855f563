// Package pmieconf reads pmieconf(5) rule templates, keeps a set of rules
// with their local changes, and writes pmie(1) configuration files from
// them, as PCP 6.0.3's pmieconf(1) does.
//
// It owns the rules-file language (ParseFile, with diagnostics that give
// file, line and column), the loaded rule set with values, defaults and
// the global variables (Load), the generated pmie file with its
// saved-state comment block (Set.Generate, Set.ReadSaved), and the
// commands of pmieconf's little language (Session), paged on a terminal
// as pmieconf pages them (Pager). It also carries templates of its own
// (templates/, embedded; BuiltinPath names them in a rules path) for the
// embedded collector's metrics, for machines without PCP's templates;
// cmd/pmieconf falls back to them. It does not know pmie's own grammar:
// the predicates it writes are text, checked by whoever runs pmie on
// them.
package pmieconf
