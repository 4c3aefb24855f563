package eval

import (
	"testing"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

func TestRulesAndBindings(t *testing.T) {
	w := newWorld(t)
	w.metric("h0", "alpha", "busy", pmapi.SemInstant, pmapi.TypeDouble, noUnits, "sda", "sdb", "sdc")
	busy := func() *Node {
		return w.b.Rel(OpGt, w.b.Fetch("busy", nil, nil, 0, 0), w.b.NumConst(10, noUnits))
	}
	w.add("", w.b.Rule(w.b.Domain(OpSome, lang.DomInst, busy()),
		w.b.Action(OpPrint, []string{"busy on %h:", " %i=%v"}, nil)))
	w.add("", w.b.Rule(w.b.Edge(OpRise, w.b.Domain(OpSome, lang.DomInst, busy())),
		w.b.Action(OpPrint, []string{"rose"}, nil)))
	w.add("", w.b.Rule(w.b.Domain(OpSome, lang.DomInst,
		w.b.Binary(OpMatch, busy(), w.b.StrConst("^sd[ab]$"))),
		w.b.Action(OpPrint, []string{"matched %i"}, w.b.NumConst(25, pmapi.Units{DimTime: 1, ScaleTime: pmapi.TimeSec}))))
	rs := w.add("rs", w.b.Ruleset([]*Node{
		w.b.Rule(w.b.Rel(OpGt, w.b.Domain(OpCount, lang.DomInst, busy()), w.b.NumConst(1, noUnits)),
			w.b.Action(OpPrint, []string{"many %v"}, nil)),
		w.b.Rule(w.b.Rel(OpGt, w.b.Domain(OpCount, lang.DomInst, busy()), w.b.NumConst(0, noUnits)),
			w.b.Action(OpPrint, []string{"one"}, nil)),
	}, w.b.Action(OpPrint, []string{"unknown"}, nil), w.b.Action(OpPrint, []string{"none on %h"}, nil)))

	steps := []struct {
		vals  map[string]float64
		fired string
		rs    string
	}{
		{map[string]float64{"sda": 20, "sdb": 5, "sdc": 30},
			"print: busy on alpha:busy on alpha: sda=20 sdc=30\nprint: matched sda\nprint: many 2", "true"},
		{map[string]float64{}, "print: unknown", "unknown"},
		{map[string]float64{"sda": 1, "sdb": 50, "sdc": 3},
			"print: busy on alpha: sdb=50\nprint: one", "true"},
		{map[string]float64{"sda": 1, "sdb": 2, "sdc": 3},
			"print: none on <%h undefined>", "true"},
		{map[string]float64{"sda": 11, "sdb": 2, "sdc": 3},
			"print: busy on alpha: sda=11\nprint: rose\nprint: matched sda\nprint: one", "true"},
	}
	for i, s := range steps {
		w.step(float64(100+10*i), map[string]map[string]float64{"busy": s.vals})
		if got := w.takeFired(); got != s.fired {
			t.Errorf("step %d fired:\n%s\nwant:\n%s", i, got, s.fired)
		}
		if got := show(rs, 1); got != s.rs {
			t.Errorf("step %d ruleset %q want %q", i, got, s.rs)
		}
	}
	if got, want := show(w.prog.Rules[0], 3), "\n    alpha: [sda] 11"; got != want {
		t.Errorf("-W: %q want %q", got, want)
	}
}
