package lang

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// readCases reads the hand-written expressions of cases.txt.
func readCases(t testing.TB) []string {
	t.Helper()
	f, err := os.Open(goldenPath("derive", "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" || line[0] == '#':
		case line[0] == '"':
			var s string
			if err := json.Unmarshal([]byte(line), &s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		default:
			out = append(out, line)
		}
	}
	return out
}

// TestDerivedGolden records, for every hand-written case, our tree (and
// its printed form) or our rendering of the error, in ast.golden.
func TestDerivedGolden(t *testing.T) {
	var b strings.Builder
	for _, expr := range readCases(t) {
		b.WriteString("=== " + strings.ReplaceAll(expr, "\n", `\n`) + "\n")
		x, d := (&DerivedParser{Check: testChecker}).Parse(expr)
		if d != nil {
			b.WriteString(d.Error() + "\n")
			continue
		}
		b.WriteString(Dump(x))
		b.WriteString("--- " + FormatDerived(x) + "\n")
	}
	checkGolden(t, goldenPath("derive", "ast.golden"), b.String())
}

var spanRE = regexp.MustCompile(` \d+:\d+-\d+:\d+`)

// shape is Dump without positions.
func shape(n Node) string { return spanRE.ReplaceAllString(Dump(n), "") }

// TestFormatDerivedRoundTrip prints every accepted expression libpcp was
// asked about and parses it again: the tree must not change.
func TestFormatDerivedRoundTrip(t *testing.T) {
	n := 0
	for _, c := range readPCPCases(t) {
		x, d := new(DerivedParser).Parse(c.Expr)
		if d != nil {
			continue
		}
		n++
		out := FormatDerived(x)
		y, d := new(DerivedParser).Parse(out)
		if d != nil {
			t.Errorf("%q printed as %q, which does not parse:\n%v", c.Expr, out, d)
			continue
		}
		if a, b := shape(x), shape(y); a != b {
			t.Errorf("%q printed as %q changes the tree:\n%s\n%s", c.Expr, out, a, b)
		}
	}
	if n < 500 {
		t.Fatalf("only %d expressions round-tripped", n)
	}
}
