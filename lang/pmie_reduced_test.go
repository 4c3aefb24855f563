package lang

import "testing"

// TestPmieReducedBeforeError checks that a statement pmie's parser
// completes before a stray token after it is kept in Dropped.Reduced (pmie
// registers it: an unnamed one uses up an expr_N name) unless the
// statement's last reduction keeps it anyway.
func TestPmieReducedBeforeError(t *testing.T) {
	for _, c := range []struct {
		text    string
		reduced []string // names of Dropped.Reduced
		kept    int      // statements kept
	}{
		{`a.b > 0 -> print "x" &&;`, []string{"expr_1"}, 0},
		{`r = a.b > 0 -> print "x" &&;`, []string{"r"}, 0},
		{`a.b > 0 -> print "x" &&; a.b > 1;`, []string{"expr_1"}, 1},
		{`r = a.b > 0 -> print "x" ) ;`, nil, 1},
		{`a.b > 0 -> print "x";`, nil, 1},
		{`a.b + > 0;`, nil, 0},
	} {
		f := ParsePmie("t.pmie", c.text)
		var got []string
		for _, d := range f.Dropped {
			for _, st := range d.Reduced {
				got = append(got, st.Name)
			}
		}
		if len(got) != len(c.reduced) || len(f.Stmts) != c.kept {
			t.Errorf("%s: reduced %v, %d kept; want %v, %d", c.text, got, len(f.Stmts), c.reduced, c.kept)
			continue
		}
		for i := range got {
			if got[i] != c.reduced[i] {
				t.Errorf("%s: reduced %v, want %v", c.text, got, c.reduced)
			}
		}
	}
}

// TestPmieDroppedAnon checks which dropped statements pmie built
// something of, using up an expr_N name, and whether it still did when
// building the constructs and metrics it completed before the error made
// nothing (a metric not found, say): unmade.
func TestPmieDroppedAnon(t *testing.T) {
	for _, c := range []struct {
		text         string
		anon, unmade bool
	}{
		{`a.b > 0 && nomatch_inst "x$" a.b > 0;`, true, false},
		{`a.b > 0 || "a$b" == "c";`, false, false},
		{`r = a.b > 0 && nomatch_inst "x$" a.b > 0;`, false, false},
		{`nomatch_inst "x$" a.b > 0;`, false, false},
		{`a.b + > 0;`, false, false},
		{`true -> print i;`, true, true},
		{`1 > 0 -> print "x" & print i;`, true, true},
		{`x = true -> print i;`, false, false},
		// a ruleset is its first rule, built whole before the error
		{`ruleset a.b > 0 -> print "a" else c.d > 0 -> print sec "b";`, true, false},
		// the condition of a rule whose action failed
		{`a.b > 0 -> shell sum_inst "x";`, true, false},
		{`(a.b / c.d) < 10 -> shell sum_inst "x";`, true, false},
	} {
		f := ParsePmie("t.pmie", c.text)
		anon, unmade := false, false
		for _, d := range f.Dropped {
			anon = anon || d.Anon != nil
			unmade = unmade || d.Anon.Eval(func(Expr) bool { return false })
		}
		if anon != c.anon || unmade != c.unmade || len(f.Stmts) != 0 {
			t.Errorf("%s: anon %v (%v unmade) with %d kept, want %v (%v) with none", c.text, anon, unmade, len(f.Stmts), c.anon, c.unmade)
		}
	}
}
