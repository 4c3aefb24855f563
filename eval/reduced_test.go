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
		text        string
		early, peek bool
	}{
		{`(a.b > 1)`, true, false},
		{`a.b == "x"`, true, false},
		{`a.b @0..2`, true, true},
		{`a.b @1`, false, false}, // the scanner reads on for a ".."
		{`a.b * c.d @1`, false, false},
		{`a.b #x`, false, false},
		{`a.b`, false, false},
		{`true`, true, true},
		{`a.b > 1 && c.d == "x"`, true, false},
		{`a.b > 1 || (c.d > 2)`, true, false},
		{`a.b > 1 && c.d > 2`, false, false},
		{`a.b * c.d @0..1`, true, true},
		{`a.b / (c.d)`, true, false},
		{`a.b + c.d @0..1`, false, false},
		{`a.b > c.d @0..1`, false, false},
		{`some_inst (a.b > 1)`, true, false},
		{`sum_inst a.b @0..1`, true, true},
		{`! (a.b > 1)`, true, false},
		{`rising a.b == "x"`, true, false},
		{`match_inst "x" a.b == "y"`, true, false},
		{`a.b > 1 -> print "x"`, false, false},
		{`3 Kbyte`, false, false},
	} {
		f := lang.ParsePmie("t.pmie", c.text+";")
		if len(f.Stmts) != 1 || len(f.Diags) > 0 {
			t.Errorf("%s: does not parse: %v", c.text, f.Diags)
			continue
		}
		early, peek := reducedEarly(f.Stmts[0].X)
		if early != c.early || (early && peek != c.peek) {
			t.Errorf("%s: reducedEarly %v, %v; want %v, %v", c.text, early, peek, c.early, c.peek)
		}
	}
}
