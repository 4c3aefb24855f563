package pmieconf

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/pmie/lang"
)

var update = flag.Bool("update", false, "rewrite the .err files of testdata/pmieconf/bad")

// loadOne loads a single rules file into a fresh set.
func loadOne(name string, src []byte) (*Set, error) {
	s := newSet(name)
	return s, s.AddFile(name, src)
}

// TestBadRules checks the diagnostic for each rules file with a mistake.
func TestBadRules(t *testing.T) {
	files, err := filepath.Glob("../../testdata/pmieconf/bad/*.rules")
	if err != nil || len(files) == 0 {
		t.Fatal("no bad rules files", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".rules")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			_, lerr := loadOne(name+".rules", src)
			if lerr == nil {
				t.Fatal("no error")
			}
			if _, ok := lerr.(*lang.Diagnostic); !ok {
				t.Fatalf("error %q is not a diagnostic", lerr)
			}
			got := lerr.Error() + "\n"
			errFile := strings.TrimSuffix(f, ".rules") + ".err"
			if *update {
				os.WriteFile(errFile, []byte(got), 0o644)
				return
			}
			want, err := os.ReadFile(errFile)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestParseDetails(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // rule and variable names with values, or the error
	}{
		{"no header", "rule demo.x summary = \"x\";\n", ""},
		{"header with space", "# pmieconf-rules 1\nrule a.b summary = x;\n", "a.b=x"},
		{"header not first", "\n#pmieconf-rules 1\nrule a.b summary = x;\n", ""},
		{"other version", "#pmieconf-rules 2\nrule a.b summary = x;\n", ""},
		{"comment mid-line", "#pmieconf-rules 1\nrule a.b # note\n summary = x;\n", "a.b=x"},
		{"hash inside word", "#pmieconf-rules 1\nrule a.b summary = x#y;\n", "a.b=x#y"},
		{"quoted keyword", "#pmieconf-rules 1\nrule a.b \"summary\" = x;\n", "a.b=x"},
		{"semicolon string ends", "#pmieconf-rules 1\nrule a.b summary = x \";x\"\n", "a.b=x"},
		{"equals word", "#pmieconf-rules 1\nrule a.b summary \"=x\" y;\n", "a.b=y"},
		{"value semicolon", "#pmieconf-rules 1\nrule a.b summary = ;;\n", "a.b=;"},
		{"escapes", "#pmieconf-rules 1\nrule a.b summary = \"a\\\"b\\\\c\\n\";\n", `a.b=a"b\cn`},
		{"nul ends value", "#pmieconf-rules 1\nrule a.b summary = \"ab\x00cd\";\n", "a.b=ab"},
		{"name at end dropped", "#pmieconf-rules 1\nrule a.b summary = x;\nstring v", "a.b=x"},
		{"later default wins", "#pmieconf-rules 1\nrule a.b summary = x summary = y;\n", "a.b=y"},
		{"percent sign dropped", "#pmieconf-rules 1\nrule a.b summary = x;\npercent p default = 50%;\n", "a.b=x p=50"},
		{"percent cut at last sign", "#pmieconf-rules 1\nrule a.b summary = x;\npercent p default = 5%0;\n", "a.b=x p=5"},
		{"enabled word", "#pmieconf-rules 1\nrule a.b summary = x enabled = nope;\n", "a.b=x(off)"},
		{"global var", "#pmieconf-rules 1\nstring global.g default = v;\n", "global.g=v"},
		{"version on var ignored", "#pmieconf-rules 1\nrule a.b summary = x;\nstring v version = zz;\n", "a.b=x v=(null)"},
		{"bad byte separates", "#pmieconf-rules 1\nrule\xffa.b summary = x;\n", "a.b=x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := loadOne("t", []byte(tc.src))
			got := ""
			if err != nil {
				got = "error: " + err.Error()
			} else {
				got = describe(s)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// describe lists a set's rules and variables as name=value.
func describe(s *Set) string {
	var parts []string
	for _, v := range s.Globals().Vars {
		parts = append(parts, "global."+v.Name+"="+v.Text())
	}
	for _, r := range s.Rules[1:] {
		p := r.Name() + "=" + r.Self.Value
		if !r.Self.Enabled {
			p += "(off)"
		}
		parts = append(parts, p)
		for _, v := range r.Vars {
			parts = append(parts, v.Name+"="+v.Text())
		}
	}
	return strings.Join(parts, " ")
}

// TestErrorPosition checks that a diagnostic's column counts characters.
func TestErrorPosition(t *testing.T) {
	src := "#pmieconf-rules 1\nrule a.b summary = \"é\" enabled = x;\n"
	_, err := loadOne("t", []byte(src))
	e, ok := err.(*lang.Diagnostic)
	if !ok {
		t.Fatalf("got %v", err)
	}
	if e.Span.Start.Line != 2 || e.Span.Start.Col != 34 {
		t.Errorf("got %d:%d, want 2:34", e.Span.Start.Line, e.Span.Start.Col)
	}
}
