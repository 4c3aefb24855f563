package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/realtest"
)

// plainShape renders a tree without positions, macro notes and
// parentheses, for comparing trees that were printed and parsed again.
func plainShape(n Node) string {
	var b strings.Builder
	var walk func(n Node, depth int)
	walk = func(n Node, depth int) {
		if p, ok := n.(*Paren); ok {
			walk(p.X, depth)
			return
		}
		kind, detail, kids := describeNode(n)
		// quoting a name is not significant (the printer quotes what
		// needs it)
		kind = strings.TrimSuffix(kind, " quoted")
		b.WriteString(strings.Repeat("  ", depth) + kind + " " + detail + "\n")
		for _, k := range kids {
			walk(k, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// pmieRoundTrip prints the statements of a parsed file and parses them
// again; the statements must come back the same.
func pmieRoundTrip(t testing.TB, name string, f *File) {
	t.Helper()
	out := FormatFile(f)
	g := ParsePmie(name+" (printed)", out)
	if len(g.Diags) > 0 || len(g.Stmts) != len(f.Stmts) {
		t.Fatalf("%s printed as\n%s\ndoes not parse back (%d of %d statements):\n%v", name, out, len(g.Stmts), len(f.Stmts), g.Diags)
	}
	for i := range f.Stmts {
		a, b := f.Stmts[i], g.Stmts[i]
		// expr_N names can differ: the original may have had statements
		// that used up names and were dropped
		sameName := a.Anonymous == b.Anonymous && (a.Anonymous || a.Name == b.Name)
		if !sameName || a.Kind != b.Kind || plainShape(a.X) != plainShape(b.X) {
			t.Fatalf("%s: statement %d printed as %q changes:\n%s\n%s", name, i, FormatStmt(a), plainShape(a), plainShape(b))
		}
	}
}

// TestPmieGolden records, for each hand-written rule file in
// testdata/golden/lang/pmie/cases, the statements we keep (tree and
// printed form) and our diagnostics, in NAME.golden.
func TestPmieGolden(t *testing.T) {
	files, _ := filepath.Glob(goldenPath("pmie", "cases", "*.pmie"))
	if len(files) == 0 {
		t.Fatal("no rule files")
	}
	for _, path := range files {
		name := filepath.Base(path)
		f := ParsePmie(name, readFile(t, path))
		var b strings.Builder
		for _, s := range f.Stmts {
			b.WriteString(Dump(s))
			b.WriteString("--- " + FormatStmt(s) + "\n")
		}
		b.WriteString("=== diagnostics\n")
		for _, d := range f.Diags {
			b.WriteString(d.Error() + "\n")
		}
		b.WriteString("=== as pmie prints them\n")
		b.WriteString(PCPPmieText(name, f.Diags))
		checkGolden(t, strings.TrimSuffix(path, ".pmie")+".golden", b.String())
		pmieRoundTrip(t, name, f)
	}
}

// TestPmieCorpus parses the shared corpus rule files, when they are there:
// no diagnostics, and printing round-trips.
func TestPmieCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(realtest.Corpus(t, "rules"), "*.pmie"))
	if len(files) == 0 {
		t.Skip("no rule files in the shared corpus")
	}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f := ParsePmie(filepath.Base(path), string(b))
		if len(f.Diags) > 0 || len(f.Stmts) == 0 {
			t.Errorf("%s: %d statements, diagnostics: %v", path, len(f.Stmts), f.Diags)
		}
		pmieRoundTrip(t, path, f)
	}
}

// TestPmieRoundTrip prints and re-parses every rule file pmie was given.
func TestPmieRoundTrip(t *testing.T) {
	n := 0
	for _, c := range readPmieCases(t) {
		f := ParsePmie("t.pmie", c.Text)
		if len(f.Stmts) > 0 {
			n++
			pmieRoundTrip(t, c.Text, f)
		}
	}
	if n < 1000 {
		t.Fatalf("only %d files round-tripped", n)
	}
}
