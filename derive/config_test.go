package derive

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// pminfoRun does what one command line of config/cases.txt does with real
// pminfo: it loads derived metrics as libpcp would (PCP_DERIVED_CONFIG or
// the global directory first, then each -c), and prints the names asked
// for with -m, -d, -t and -T.
func pminfoRun(t *testing.T, line, archive string) (string, string) {
	words := strings.Fields(line)
	env := map[string]string{"PCP_DERIVED_CONFIG": ""}
	for words[0] != "pminfo" {
		w := words[0]
		words = words[1:]
		if w == "UNSET" {
			delete(env, "PCP_DERIVED_CONFIG")
			continue
		}
		k, v, _ := strings.Cut(w, "=")
		env[k] = v
	}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	var stdout, stderr strings.Builder
	reg := NewRegistry()
	stderr.WriteString(PCPReport(reg.LoadEnvFrom(getenv)))
	var flags string
	var names []string
	for i := 1; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-a":
			i++
		case w == "-c":
			i++
			_, diags, err := reg.LoadConfig(words[i])
			stderr.WriteString(PCPReport(diags))
			if err != nil {
				fmt.Fprintf(&stderr, "pminfo: derived configuration(s) error: %v\n", err)
			}
		case strings.HasPrefix(w, "-"):
			flags += w[1:]
		default:
			names = append(names, w)
		}
	}
	wrapped, _ := Wrap(loadReplay(t, archive), reg)
	c, _ := Derived(wrapped)
	c.OnBind(func(ds []Diagnostic) { stderr.WriteString(PCPReport(ds)) })
	has := func(f string) bool { return strings.Contains(flags, f) }
	for _, name := range names {
		var all []string
		err := pmapi.Traverse(wrapped, name, func(n string) error { all = append(all, n); return nil })
		if err == nil && len(all) == 0 {
			err = pmapi.ErrName
		}
		if err != nil {
			fmt.Fprintf(&stderr, "Error: %s: %v\n", name, err)
			continue
		}
		for _, n := range all {
			stdout.WriteString(pminfoReport(wrapped, n, has))
		}
	}
	return stdout.String(), stderr.String()
}

// pminfoReport is what pminfo prints for one metric with the flags -m,
// -d, -t and -T.
func pminfoReport(ctx pmapi.Context, name string, has func(string) bool) string {
	var b strings.Builder
	id, err := ctx.LookupName(name)
	if err != nil {
		return fmt.Sprintf("%s: pmLookupName: %v\n", name, err)
	}
	var d pmapi.Desc
	if has("d") {
		if d, err = ctx.LookupDesc(id); err != nil {
			return fmt.Sprintf("%s: pmLookupDesc: %v\n", name, err)
		}
	}
	if has("d") || has("T") {
		b.WriteString("\n")
	}
	b.WriteString(name)
	if has("m") {
		fmt.Fprintf(&b, " PMID: %v", id)
	}
	if has("t") {
		if text, err := ctx.Text(uint32(id), pmapi.TextOneLine|pmapi.TextPMID); err == nil {
			fmt.Fprintf(&b, " [%s]", text)
		} else {
			fmt.Fprintf(&b, " One-line Help: Error: %v", err)
		}
	}
	b.WriteString("\n")
	if has("d") {
		b.WriteString(describe(d))
	}
	if has("T") {
		if text, err := ctx.Text(uint32(id), pmapi.TextHelp|pmapi.TextPMID); err == nil {
			fmt.Fprintf(&b, "Help:\n%s\n", strings.TrimRight(text, "\n"))
		} else {
			fmt.Fprintf(&b, "Full Help: Error: %v\n", err)
		}
	}
	return b.String()
}

func TestGoldenConfig(t *testing.T) {
	archive, err := filepath.Abs("../testdata/derive/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	entries := readGolden(t, filepath.Join(goldenDir, "config.golden"))
	t.Chdir(filepath.Join(goldenDir, "config"))
	var total tally
	for _, e := range entries {
		line := e.name
		if e.expr != "" {
			line += " = " + e.expr
		}
		stdout, stderr := pminfoRun(t, line, archive)
		want := map[string]string{}
		for _, s := range e.sections {
			want[s.title] = s.text
		}
		if !total.check(stdout == want["stdout"]) {
			t.Errorf("%s: stdout:\n got: %q\nwant: %q", line, stdout, want["stdout"])
		}
		if !total.check(stderr == want["stderr"]) {
			t.Errorf("%s: stderr:\n got: %q\nwant: %q", line, stderr, want["stderr"])
		}
	}
	t.Logf("%d command lines, %d of %d outputs agree", len(entries), total.ok, total.all)
}
