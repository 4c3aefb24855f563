package eval

import (
	"fmt"
	"testing"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// TestMembers checks the values Members gives against what -v and -V
// print of the same nodes.
func TestMembers(t *testing.T) {
	w := newWorld(t)
	w.metric("h0", "alpha", "load", pmapi.SemInstant, pmapi.TypeDouble, pmapi.Units{}, "a", "b")
	w.metric("h0", "alpha", "n", pmapi.SemInstant, pmapi.TypeDouble, pmapi.Units{})
	file := lang.ParsePmie("members", `
v = load;
hot = load > 1;
some = some_inst (load > 1);
win = n @0..1;
`)
	c := &Compiler{B: w.b, Prog: &w.prog, Delta: 10, Clock: w.rt.Clock}
	for _, st := range file.Stmts {
		c.Statement(st)
	}
	if len(w.diags) > 0 || len(file.Diags) > 0 {
		t.Fatal(w.diags, file.Diags)
	}
	show := func(name string) string {
		r := w.prog.Lookup(name)
		var out string
		for _, m := range r.Root.Members() {
			out += fmt.Sprintf("[%s %s %v %v:", m.Host, m.Inst, m.HasHost, m.HasInst)
			for _, s := range m.Samples {
				switch {
				case !s.Known:
					out += " ?"
				case r.Root.IsTruth():
					out += " " + s.Truth.String()
				case s.Str != "":
					out += " " + s.Str
				default:
					out += fmt.Sprintf(" %g", s.Num)
				}
			}
			out += "]"
		}
		return out
	}
	w.step(100, map[string]map[string]float64{"load": {"a": 2, "b": 0.5}, "n": {"": 7}})
	w.step(110, map[string]map[string]float64{"load": {"a": 0.25}, "n": {"": 8}})
	for name, want := range map[string]string{
		// b has no value: pmie drops it from the instances
		"v":    "[alpha a true true: 0.25]",
		"hot":  "[alpha a true true: false]",
		"some": "[alpha  true false: false]",
		"win":  "[alpha  true false: 8 7]",
	} {
		if got := show(name); got != want {
			t.Errorf("%s: got %s, want %s (-V: %s)", name, got, want, w.prog.Lookup(name).Root.AppendAnnotated(nil))
		}
	}
}
