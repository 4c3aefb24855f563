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
// something of, using up an expr_N name.
func TestPmieDroppedAnon(t *testing.T) {
	for _, c := range []struct {
		text string
		anon bool
	}{
		{`a.b > 0 && nomatch_inst "x$" a.b > 0;`, true},
		{`a.b > 0 || "a$b" == "c";`, false},
		{`r = a.b > 0 && nomatch_inst "x$" a.b > 0;`, false},
		{`nomatch_inst "x$" a.b > 0;`, false},
		{`a.b + > 0;`, false},
		{`true -> print i;`, true},
		{`1 > 0 -> print "x" & print i;`, true},
		{`x = true -> print i;`, false},
	} {
		f := ParsePmie("t.pmie", c.text)
		anon := false
		for _, d := range f.Dropped {
			anon = anon || d.Anon
		}
		if anon != c.anon || len(f.Stmts) != 0 {
			t.Errorf("%s: anon %v with %d kept, want %v with none", c.text, anon, len(f.Stmts), c.anon)
		}
	}
}
