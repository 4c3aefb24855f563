package lang

import (
	"strings"
	"testing"
)

// TestGrammarEBNF keeps a golden copy of the grammars' EBNF, so every
// grammar change shows up as a diff (go test -update rewrites it).
func TestGrammarEBNF(t *testing.T) {
	var b strings.Builder
	b.WriteString("// Derived-metric expressions (pmRegisterDerived(3)).\n")
	b.WriteString("// Generated from lang's participle grammar; do not edit.\n\n")
	b.WriteString(derivedParser().String() + "\n\n")
	b.WriteString("// pmie statements (pmie(1)), over tokens after macro expansion.\n")
	b.WriteString("// Generated from lang's pmie parser (pmie_ebnf.go) and operator table; do not edit.\n\n")
	b.WriteString(pmieEBNF())
	checkGolden(t, goldenPath("grammar.ebnf"), b.String())
}
