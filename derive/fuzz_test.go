package derive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// The fuzz targets parse, check and evaluate derived metrics over the
// golden archive. A panic, or an internal error caught in place of one,
// fails them. They are seeded from the goldens' expressions and
// configuration files; crashers found are kept in testdata/fuzz.

// exercise checks and evaluates every derived metric of reg.
func exercise(t *testing.T, rp *replay, reg *Registry) {
	ctx, diags := Wrap(rp, reg)
	for _, d := range diags {
		if d.Kind == KindInternal {
			t.Fatal(d.Msg)
		}
		_ = d.PCP()
		_ = d.Error()
	}
	start, _ := rp.Bounds()
	for _, name := range reg.Names() {
		id, err := ctx.LookupName(name)
		if err != nil {
			continue
		}
		if _, err := ctx.LookupDesc(id); err != nil {
			continue
		}
		rp.SetMode(pmapi.ModeForw, start, 0)
		var r pmapi.Result
		for i := 0; i < 8; i++ {
			if err := ctx.Fetch([]pmapi.PMID{id}, &r); err != nil {
				if strings.Contains(err.Error(), "internal error") {
					t.Fatal(err)
				}
				break
			}
		}
	}
}

func seedExpressions(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "exprs", "*.txt"))
	for _, file := range files {
		raw, _ := os.ReadFile(file)
		for _, line := range strings.Split(string(raw), "\n") {
			line, _, _ = strings.Cut(line, "##")
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				if _, expr, ok := strings.Cut(line, " = "); ok && !strings.Contains(line[:strings.Index(line, " = ")], "(") {
					line = expr
				}
				f.Add(line)
			}
		}
	}
}

func FuzzExpression(f *testing.F) {
	seedExpressions(f)
	rp := loadReplay(f, goldenArchive)
	f.Fuzz(func(t *testing.T, expr string) {
		reg := NewRegistry()
		if err := reg.Register("fz.a", expr); err != nil {
			_ = err.(Diagnostic).PCP()
			return
		}
		// the same expression used by another derived metric
		reg.Register("fz.b", "fz.a")
		exercise(t, rp, reg)
	})
}

func FuzzConfig(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "config", "*.conf"))
	for _, file := range files {
		raw, _ := os.ReadFile(file)
		f.Add(string(raw))
	}
	f.Add("a = b + 1\nb = a * 2\nc = a\n")
	rp := loadReplay(f, goldenArchive)
	f.Fuzz(func(t *testing.T, text string) {
		reg := NewRegistry()
		var diags []Diagnostic
		reg.loadText("fuzz.conf", text, &diags)
		for _, d := range diags {
			_ = d.PCP()
		}
		exercise(t, rp, reg)
	})
}
