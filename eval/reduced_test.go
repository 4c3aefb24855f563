package eval

import (
	"testing"

	"github.com/gopcp/pmie/lang"
)

// TestReducedEarly checks which constructs pmie's parser reduces on
// reading their last token (so pmie reports their problems on that
// token's line) and which need the token after them.
func TestReducedEarly(t *testing.T) {
	for _, c := range []struct {
		text  string
		early bool
	}{
		{`(a.b > 1)`, true},
		{`a.b == "x"`, true},
		{`a.b @0..2`, true},
		{`a.b @1`, false}, // the scanner reads on for a ".."
		{`a.b * c.d @1`, false},
		{`a.b #x`, false},
		{`a.b`, false},
		{`true`, true},
		{`a.b > 1 && c.d == "x"`, true},
		{`a.b > 1 || (c.d > 2)`, true},
		{`a.b > 1 && c.d > 2`, false},
		{`a.b * c.d @0..1`, true},
		{`a.b / (c.d)`, true},
		{`a.b + c.d @0..1`, false},
		{`a.b > c.d @0..1`, false},
		{`some_inst (a.b > 1)`, true},
		{`sum_inst a.b @0..1`, true},
		{`! (a.b > 1)`, true},
		{`rising a.b == "x"`, true},
		{`match_inst "x" a.b == "y"`, true},
		{`a.b > 1 -> print "x"`, false},
		{`3 Kbyte`, false},
	} {
		f := lang.ParsePmie("t.pmie", c.text+";")
		if len(f.Stmts) != 1 || len(f.Diags) > 0 {
			t.Errorf("%s: does not parse: %v", c.text, f.Diags)
			continue
		}
		if early := reducedEarly(f.Stmts[0].X); early != c.early {
			t.Errorf("%s: reducedEarly %v; want %v", c.text, early, c.early)
		}
	}
}
