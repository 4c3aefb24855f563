package eval

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// FuzzRules compiles and evaluates arbitrary rule text over a few metrics:
// whatever the text, building, evaluating, printing and listing (pmie
// -d's l and v) must not panic.
// Seeds are the rule files of the goldens and of the semantic scripts.
func FuzzRules(f *testing.F) {
	for _, pat := range []string{"../testdata/pmie/*.pmie", "testdata/fuzz/seed/*.pmie"} {
		files, _ := filepath.Glob(pat)
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Add("x = some_inst (disk.dev.read > 1 count/sec) -> print \"%h %i %v\" & shell 5 min \"x\";")
	f.Add("ruleset a > 1 -> print \"a\" else max_inst b @0..3 > 2 -> syslog \"-p\" \"x\" unknown -> print \"u\" otherwise -> print \"o\";")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		stop := watchdog(10 * time.Second)
		defer stop()
		w := newWorld(t)
		w.metric("h0", "alpha", "a", pmapi.SemInstant, pmapi.TypeDouble, noUnits)
		w.metric("h0", "alpha", "b", pmapi.SemCounter, pmapi.TypeU64, countUnits, "x", "y", "z")
		w.metric("h0", "alpha", "disk.dev.read", pmapi.SemCounter, pmapi.TypeU32, countUnits, "sda", "sdb")
		w.metric("h0", "alpha", "s", pmapi.SemDiscrete, pmapi.TypeString, noUnits)
		w.b.Prepare = func(op Op, args []string) Prepared { return Prepared{Args: args} }
		file := lang.ParsePmie("fuzz", text)
		c := &Compiler{B: w.b, Prog: &w.prog, Delta: 10, Clock: w.rt.Clock}
		for _, st := range file.Stmts {
			c.Statement(st)
		}
		for i := 0; i < 4; i++ {
			vals := map[string]map[string]float64{
				"a": {"": float64(i)}, "b": {"x": float64(10 * i), "y": float64(i * i)},
			}
			if i != 2 {
				vals["disk.dev.read"] = map[string]float64{"sda": float64(100 * i), "sdb": 7}
			}
			w.step(float64(100+10*i), vals)
			for _, r := range w.prog.Rules {
				show(r, 1)
				show(r, 2)
				show(r, 3)
				r.Root.Syntax()
				r.Listing()
				r.BindingListing()
			}
		}
	})
}

// watchdog panics, with every goroutine's stack, if it is not stopped in
// time: the fuzzer keeps an input that hangs as it keeps one that panics.
func watchdog(d time.Duration) (stop func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-time.After(d):
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			panic("input takes too long:\n" + string(buf[:n]))
		}
	}()
	return func() { close(done) }
}
