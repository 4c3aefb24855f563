package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// registerAll does what libpcp's configuration loader does with the
// entries of cfg, with a minimal registry standing in for the derive
// package: it returns what libpcp prints on standard error.
func registerAll(cfg *DerivedConfig) string {
	var out strings.Builder
	p := &DerivedParser{Check: testChecker}
	defined := map[string]map[string]bool{}
	name := cfg.Src.Name
	for _, e := range cfg.Entries {
		switch e.Kind {
		case DerivedBad:
			out.WriteString(PCPConfigDiag(name, e.Diags[0]))
		case DerivedDef:
			if defined[e.Name] != nil {
				out.WriteString(PCPConfigSyntaxText(name, e.Line, e.Name, e.ExprText, e.ExprOffset(0), "Duplicate global derived metric name"))
				continue
			}
			if _, d := p.ParseEntry(cfg, e); d != nil {
				out.WriteString(cfg.PCPSyntaxError(e, d))
				continue
			}
			defined[e.Name] = map[string]bool{}
		case DerivedAttr:
			for _, d := range e.Diags {
				out.WriteString(PCPConfigDiag(name, d))
			}
			reason := ""
			switch attrs := defined[e.Name]; {
			case attrs == nil:
				reason = "cannot set attribute, derived metric (" + e.Name + ") not defined"
			case e.Attr != "oneline" && e.Attr != "helptext":
				reason = "attribute (" + e.Attr + ") is unknown for metric (" + e.Name + ")"
			case attrs[e.Attr]:
				reason = "duplicate value for attribute (" + e.Attr + ") of metric (" + e.Name + ")"
			default:
				attrs[e.Attr] = true
			}
			if reason != "" {
				d := &Diagnostic{Src: cfg.Src, Span: e.Span, PCP: PCPForm{Reason: reason, Line: e.Line, Echo: true}}
				out.WriteString(PCPConfigDiag(name, d))
			}
		}
	}
	return out.String()
}

// TestDerivedConfigAgainstLibpcp compares, for each configuration file in
// testdata/golden/lang/derive/config, what libpcp's loader printed
// (FILE.pcp, see the README there) with what the entries we read render to.
func TestDerivedConfigAgainstLibpcp(t *testing.T) {
	dir := filepath.Join("..", "testdata", "golden", "lang", "derive", "config")
	files, _ := filepath.Glob(filepath.Join(dir, "*.conf"))
	if len(files) == 0 {
		t.Fatal("no configuration files")
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(f, ".conf") + ".pcp")
		if err != nil {
			t.Fatal(err)
		}
		got := registerAll(ReadDerivedConfig(filepath.Base(f), string(text)))
		if got != string(want) {
			t.Errorf("%s:\nlibpcp:\n%s\nours:\n%s", f, want, got)
		}
	}
}
