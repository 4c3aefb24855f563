package lang

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/realtest"
)

// FuzzParseDerived: the parser never panics (a recovered panic shows as an
// internal error), and what it accepts prints and parses back to the same
// tree.
func FuzzParseDerived(f *testing.F) {
	for _, s := range readCases(f) {
		f.Add(s)
	}
	for i, c := range readPCPCases(f) {
		if i%5 == 0 {
			f.Add(c.Expr)
		}
	}
	f.Fuzz(func(t *testing.T, expr string) {
		x, d := (&DerivedParser{Check: testChecker}).Parse(expr)
		if d != nil {
			if strings.HasPrefix(d.Msg, "internal error") {
				t.Fatalf("%q: %v", expr, d)
			}
			_ = d.Error()
			_ = PCPRegisterError("f", expr, d)
			return
		}
		out := FormatDerived(x)
		y, d := new(DerivedParser).Parse(out)
		if d != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", expr, out, d)
		}
		if a, b := shape(x), shape(y); a != b {
			t.Fatalf("%q printed as %q changes the tree:\n%s\n%s", expr, out, a, b)
		}
	})
}

// FuzzDerivedConfig: reading and parsing any configuration file is safe.
func FuzzDerivedConfig(f *testing.F) {
	for _, name := range []string{"basic", "attrs", "more"} {
		f.Add(readFile(f, goldenPath("derive", "config", name+".conf")))
	}
	f.Fuzz(func(t *testing.T, text string) {
		cfg, ds := ParseDerivedConfig("fuzz.conf", text, testChecker)
		for _, d := range ds {
			if strings.HasPrefix(d.Msg, "internal error") {
				t.Fatalf("%q: %v", text, d)
			}
		}
		_ = registerAll(cfg)
	})
}

// FuzzParsePmie: the pmie parser never panics, renders its diagnostics
// both ways, and what it keeps prints and parses back the same; parsed
// as -x parses (PmieOptions.Agent), it keeps the same statements and only
// adds complaints about unnamed ones.
func FuzzParsePmie(f *testing.F) {
	files, _ := filepath.Glob(goldenPath("pmie", "cases", "*.pmie"))
	corpus, _ := filepath.Glob(filepath.Join(realtest.CorpusDir(), "rules", "*.pmie"))
	for _, p := range append(files, corpus...) {
		f.Add(readFile(f, p))
	}
	for i, c := range readPmieCases(f) {
		if i%10 == 0 {
			f.Add(c.Text)
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		file := ParsePmie("fuzz.pmie", text)
		for _, d := range file.Diags {
			if strings.HasPrefix(d.Msg, "internal error") {
				t.Fatalf("%q: %v", text, d)
			}
			_ = d.Error()
		}
		_ = PCPPmieText("fuzz.pmie", file.Diags)
		if len(file.Stmts) > 0 && !macroTrouble(file, text) && !quoteAfterSlash.MatchString(text) {
			pmieRoundTrip(t, text, file)
		}
		agent := ParsePmieWith("fuzz.pmie", text, PmieOptions{Agent: true})
		if len(agent.Stmts) != len(file.Stmts) || len(agent.Dropped) != len(file.Dropped) {
			t.Fatalf("%q: -x keeps %d statements (drops %d), not %d (%d)", text,
				len(agent.Stmts), len(agent.Dropped), len(file.Stmts), len(file.Dropped))
		}
		extra := 0
		for _, d := range agent.Diags {
			if d.PCP.Reason == "expressions must be named in agent mode" {
				extra++
			}
		}
		if len(agent.Diags) != len(file.Diags)+extra {
			t.Fatalf("%q: -x makes %d diagnostics, %d of them about unnamed statements; without, %d",
				text, len(agent.Diags), extra, len(file.Diags))
		}
	})
}

// macroTrouble reports whether a file uses macros in ways that printing
// cannot reproduce: a string macro expanded as text may have held part of
// a token, a macro may have been redefined after its use, an empty
// string macro in quotes makes an empty name (which no text reads back
// as: pmie takes the character after an opening quote whatever it is),
// and a quoted name cut short by the end of the file holds what pmie's
// scanner reads there.
// A macro defined by a statement pmie completed and then dropped (for a
// stray token after it) is not printed either, nor is one that a
// statement dropped for an error defined before it failed (text is the
// file's).
func macroTrouble(f *File, text string) bool {
	for _, d := range f.Dropped {
		if d.Start >= 0 && d.Start <= len(text) && assignment.MatchString(text[d.Start:]) {
			return true
		}
	}
	kept := map[string]int{} // macros the statements printed define
	for _, s := range f.Stmts {
		if strings.Contains(Dump(s), " from $") || hasEmptyName(s) || (!s.Anonymous && s.Name == "") {
			// (a statement named '', which a macro holding a quote can
			// make of "'$q = ...", prints as an unnamed one)
			return true
		}
		if s.Kind == StmtMacro || s.Kind == StmtDelta {
			kept[s.Name]++
		}
	}
	for name, def := range f.Macros {
		// (a macro defined last by a statement dropped for an error has
		// that definition, which no statement printed gives it)
		if kept[name] != 1 || !slices.Contains(f.Stmts, def) {
			return true
		}
	}
	return len(kept) != len(f.Macros)
}

// quoteAfterSlash is a quote after "/", which pmie's scanner reads
// otherwise than a quoted name elsewhere ("0 / '0'" has no metric, "0 /
// ' '" no operand after the "/"): such a name printed does not read back.
var quoteAfterSlash = regexp.MustCompile(`/\s*'`)

// assignment is the start of a statement that names what it defines.
var assignment = regexp.MustCompile(`^\s*[A-Za-z_][A-Za-z0-9_.]*\s*=`)

// hasEmptyName reports whether a metric or qualifier under n has an empty
// name.
func hasEmptyName(n Node) bool {
	kind, detail, kids := describeNode(n)
	if (kind == "Metric" && detail == "") || (strings.HasPrefix(kind, "Qualifier") && detail == `""`) {
		return true
	}
	if (kind == "Metric" || strings.HasPrefix(kind, "Qualifier")) && (strings.Contains(detail, "\xff") || strings.Contains(detail, `\xff`)) {
		// a quoted name that ran into the end of the file holds the
		// byte pmie's scanner reads there, up to its longest token:
		// no text reads back as that either
		return true
	}
	if kind == "Metric" && detail[0] >= '0' && detail[0] <= '9' {
		// a quoted name that is a number ('0') reads back as a name or
		// not depending on what comes before it (pmie's scanner reads
		// "0 / '0'" with no metric)
		return true
	}
	for _, k := range kids {
		if hasEmptyName(k) {
			return true
		}
	}
	return false
}
