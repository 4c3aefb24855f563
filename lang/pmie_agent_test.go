package lang

import "testing"

// TestPmieAgentUnnamed checks pmie's complaint, under -x, about every
// statement without a name its parser completes: at the ";" (and the
// blanks after it), at a stray token, after an error at the nothing its
// recovery completes, and, where it recovered from a rule's missing
// condition, at the ";" itself. The messages are real pmie 6.0.3's (-x -C
// on each text).
func TestPmieAgentUnnamed(t *testing.T) {
	const tail = "\n\n;\n\nx\n=\n1\n;\n"
	for _, c := range []struct{ text, want string }{
		{"delta = 1;\na.b > 1;\ny = 2;\n", "pmie: syntax error - near line 3 of file t.pmie\nexpressions must be named in agent mode\n"},
		{"named = a.b;\n", ""},
		{"a.b > 1 bogon\n;\n", "pmie: syntax error - near line 2 of file t.pmie\nexpressions must be named in agent mode\n" +
			"pmie: syntax error - near line 2 of file t.pmie\n"},
		{"-> print \"x\"" + tail, "pmie: syntax error - near line 1 of file t.pmie\nlogical expression expected to precede ->\n" +
			"pmie: syntax error - near line 3 of file t.pmie\nexpressions must be named in agent mode\n"},
		{"& print \"x\"" + tail, "pmie: syntax error - near line 1 of file t.pmie\naction expected to precede &\n" +
			"pmie: syntax error - near line 5 of file t.pmie\nexpressions must be named in agent mode\n"},
		{"a.b > 1 ->" + tail, "pmie: syntax error - near line 5 of file t.pmie\naction expected to follow ->\n" +
			"pmie: syntax error - near line 8 of file t.pmie\nexpressions must be named in agent mode\n"},
	} {
		if got := PCPPmieText("t.pmie", ParsePmieWith("t.pmie", c.text, PmieOptions{Agent: true}).Diags); got != c.want {
			t.Errorf("%q:\n%s\nwant\n%s", c.text, got, c.want)
		}
		for _, d := range ParsePmie("t.pmie", c.text).Diags {
			if d.PCP.Reason == "expressions must be named in agent mode" {
				t.Errorf("%q: complained about without -x", c.text)
			}
		}
	}
}
