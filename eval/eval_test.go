package eval

import (
	"testing"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

func TestCounterRate(t *testing.T) {
	w := newWorld(t)
	w.metric("h0", "alpha", "disk.read", pmapi.SemCounter, pmapi.TypeU64, countUnits, "sda", "sdb")
	r := w.add("rd", w.b.Fetch("disk.read", nil, nil, 0, 0))
	raw := w.add("raw", w.b.Unary(OpInstant, w.b.Fetch("disk.read", nil, nil, 0, 0)))
	steps := []struct {
		vals      map[string]float64
		rate, raw string
	}{
		{map[string]float64{"sda": 100, "sdb": 5}, "? ?", "100 5"},
		{map[string]float64{"sda": 200, "sdb": 5}, "10 0", "200 5"},
		{map[string]float64{"sda": 250, "sdb": 15}, "5 1", "250 15"},
		{map[string]float64{"sda": 240, "sdb": 25}, "? ?", "240 25"}, // negative rate: unknown
		{map[string]float64{"sda": 340}, "?", "340"},                 // instance set changed
		{map[string]float64{"sda": 440}, "10", "440"},
	}
	for i, s := range steps {
		w.step(float64(100+10*i), map[string]map[string]float64{"disk.read": s.vals})
		if got := show(r, 1); got != s.rate {
			t.Errorf("step %d: rate %q, want %q", i, got, s.rate)
		}
		if got := show(raw, 1); got != s.raw {
			t.Errorf("step %d: raw %q, want %q", i, got, s.raw)
		}
	}
	if got, want := show(r, 2), "\n    alpha: [sda] 10"; got != want {
		t.Errorf("-V: got %q want %q", got, want)
	}
}

func TestQuantifiersAndKleene(t *testing.T) {
	w := newWorld(t)
	w.metric("h0", "alpha", "load", pmapi.SemInstant, pmapi.TypeDouble, noUnits, "a", "b", "c")
	gt := func() *Node {
		return w.b.Rel(OpGt, w.b.Fetch("load", nil, nil, 0, 0), w.b.NumConst(1, noUnits))
	}
	some := w.add("some", w.b.Domain(OpSome, lang.DomInst, gt()))
	all := w.add("all", w.b.Domain(OpAll, lang.DomInst, gt()))
	pct := w.add("pct", w.b.Percent(50, lang.DomInst, gt()))
	cnt := w.add("cnt", w.b.Domain(OpCount, lang.DomInst, gt()))
	and := w.add("and", w.b.Binary(OpAnd, w.b.Domain(OpSome, lang.DomInst, gt()), w.b.BoolConst(False)))
	or := w.add("or", w.b.Binary(OpOr, w.b.Domain(OpSome, lang.DomInst, gt()), w.b.BoolConst(True)))
	cases := []struct {
		vals                    map[string]float64
		some, all, pct, cnt, an string
		or                      string
	}{
		{map[string]float64{"a": 2, "b": 0, "c": 0}, "true", "false", "false", "1", "false", "true"},
		{map[string]float64{"a": 2, "b": 2, "c": 0}, "true", "false", "true", "2", "false", "true"},
		{map[string]float64{"a": 2, "b": 2, "c": 2}, "true", "true", "true", "3", "false", "true"},
		{map[string]float64{"a": 0, "b": 0, "c": 0}, "false", "false", "false", "0", "false", "true"},
		{map[string]float64{}, "unknown", "unknown", "unknown", "?", "false", "true"},
	}
	for i, c := range cases {
		w.step(float64(i*10), map[string]map[string]float64{"load": c.vals})
		for _, chk := range []struct {
			r    *Rule
			want string
		}{{some, c.some}, {all, c.all}, {pct, c.pct}, {cnt, c.cnt}, {and, c.an}, {or, c.or}} {
			if got := show(chk.r, 1); got != chk.want {
				t.Errorf("case %d %s: got %q want %q", i, chk.r.Name, got, chk.want)
			}
		}
	}
}

func TestKleeneTables(t *testing.T) {
	vals := []Truth{True, False, Unknown}
	and := [3][3]Truth{{True, False, Unknown}, {False, False, False}, {Unknown, False, Unknown}}
	or := [3][3]Truth{{True, True, True}, {True, False, Unknown}, {True, Unknown, Unknown}}
	for i, a := range vals {
		for j, b := range vals {
			if got := And(a, b); got != and[i][j] {
				t.Errorf("%v && %v = %v, want %v", a, b, got, and[i][j])
			}
			if got := Or(a, b); got != or[i][j] {
				t.Errorf("%v || %v = %v, want %v", a, b, got, or[i][j])
			}
		}
	}
	if Not(Unknown) != Unknown || Not(True) != False || Not(False) != True {
		t.Error("Not is wrong")
	}
}

func TestAggregatesAndWindows(t *testing.T) {
	w := newWorld(t)
	w.metric("h0", "alpha", "q", pmapi.SemInstant, pmapi.TypeDouble, kbyteUnits, "a", "b")
	sum := w.add("sum", w.b.Domain(OpSum, lang.DomInst, w.b.Fetch("q", nil, nil, 0, 0)))
	avg := w.add("avg", w.b.Domain(OpAvg, lang.DomInst, w.b.Fetch("q", nil, nil, 0, 0)))
	mx := w.add("max", w.b.Domain(OpMax, lang.DomInst, w.b.Fetch("q", nil, nil, 0, 0)))
	mn := w.add("min", w.b.Domain(OpMin, lang.DomInst, w.b.Fetch("q", nil, nil, 0, 0)))
	hist := w.add("hist", w.b.Fetch("q", nil, []string{"b"}, 0, 2))
	late := w.add("late", w.b.Fetch("q", nil, []string{"a"}, 1, 2))
	avgs := w.add("avgs", w.b.Domain(OpAvg, lang.DomSample, w.b.Fetch("q", nil, []string{"a"}, 0, 2)))
	allS := w.add("alls", w.b.Domain(OpAll, lang.DomSample,
		w.b.Rel(OpGt, w.b.Fetch("q", nil, []string{"a"}, 0, 1), w.b.NumConst(1, kbyteUnits))))
	steps := []map[string]float64{{"a": 1, "b": 2}, {"a": 3, "b": 4}, {"a": 5, "b": 7}, {"a": 0.5, "b": 1}}
	want := [][]string{
		{"3072", "1536", "2048", "1024", "2048 ? ?", "? ?", "?", "unknown"},
		{"7168", "3584", "4096", "3072", "4096 2048 ?", "1024 ?", "?", "false"},
		{"12288", "6144", "7168", "5120", "7168 4096 2048", "3072 1024", "3072", "true"},
		{"1536", "768", "1024", "512", "1024 7168 4096", "5120 3072", "2901", "false"},
	}
	for i, s := range steps {
		w.step(float64(i*10), map[string]map[string]float64{"q": s})
		for j, r := range []*Rule{sum, avg, mx, mn, hist, late, avgs, allS} {
			if got := show(r, 1); got != want[i][j] {
				t.Errorf("step %d %s: got %q want %q", i, r.Name, got, want[i][j])
			}
		}
	}
	if got, want := show(mx, 3), "\n    alpha: [b] 1024"; got != want {
		t.Errorf("-W of max: %q want %q", got, want)
	}
	if got, want := show(mx, 2), "\n    alpha: [b] 1024"; got != want {
		t.Errorf("-V of max: %q want %q", got, want)
	}
}

// TestEvaluatorTable checks that every operator that is evaluated has an
// evaluator, and that those that are not have none.
func TestEvaluatorTable(t *testing.T) {
	notEvaluated := map[Op]bool{OpOther: true, OpArg: true, OpNop: true, OpVar: true}
	for op := Op(0); op < numOps; op++ {
		ok := ops[op].eval != nil
		if ok == notEvaluated[op] {
			t.Errorf("%v (%d): has evaluator %v", op, op, ok)
		}
	}
}
