package eval

import (
	"fmt"
	"testing"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// benchWorld is a world with one counter and one instant metric over n
// instances, and a value set for each ready to deliver.
type benchWorld struct {
	*world
	n       int
	ctr     pmapi.ValueSet
	instant pmapi.ValueSet
	step    float64
}

func newBenchWorld(_ testing.TB, n int) *benchWorld {
	w := newWorld(&testing.T{})
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("inst%04d", i)
	}
	w.metric("h0", "alpha", "c", pmapi.SemCounter, pmapi.TypeU64, countUnits, names...)
	w.metric("h0", "alpha", "g", pmapi.SemInstant, pmapi.TypeDouble, kbyteUnits, names...)
	bw := &benchWorld{world: w, n: n}
	src := w.sources["h0"]
	bw.ctr.PMID = src.metrics["c"].desc.PMID
	bw.instant.PMID = src.metrics["g"].desc.PMID
	for i := 0; i < n; i++ {
		bw.ctr.Values = append(bw.ctr.Values, pmapi.Value{Inst: int32(i), Atom: pmapi.U64(uint64(i))})
		bw.instant.Values = append(bw.instant.Values, pmapi.Value{Inst: int32(i), Atom: pmapi.F64(float64(i))})
	}
	return bw
}

// deliver hands every metric of the program its values for the next step.
func (bw *benchWorld) deliver() {
	bw.step += 10
	for i := range bw.ctr.Values {
		bw.ctr.Values[i].Atom = pmapi.U64(uint64(bw.step) * uint64(i+1))
	}
	for _, r := range bw.prog.Rules {
		for _, m := range r.Metrics {
			switch m.Name {
			case "c":
				m.Deliver(&bw.ctr, nil, bw.step)
			case "g":
				m.Deliver(&bw.instant, nil, bw.step)
			}
		}
	}
}

// once delivers the next step's values and evaluates every rule.
func (bw *benchWorld) once() {
	bw.deliver()
	for _, r := range bw.prog.Rules {
		r.Eval(bw.rt)
	}
}

// run evaluates the program b.N times and reports the cost per instance.
func (bw *benchWorld) run(b *testing.B) {
	for i := 0; i < 3; i++ {
		bw.once()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bw.once()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(bw.n), "ns/inst")
}

const benchInstances = 1000

// BenchmarkFetchRate is a counter's fetch node with rate conversion.
func BenchmarkFetchRate(b *testing.B) {
	bw := newBenchWorld(b, benchInstances)
	bw.add("r", bw.b.Fetch("c", nil, nil, 0, 0))
	bw.run(b)
}

// BenchmarkFetchInstant is an instant metric's fetch node (scaled).
func BenchmarkFetchInstant(b *testing.B) {
	bw := newBenchWorld(b, benchInstances)
	bw.add("g", bw.b.Fetch("g", nil, nil, 0, 0))
	bw.run(b)
}

// BenchmarkCompare is a fetch compared with a constant.
func BenchmarkCompare(b *testing.B) {
	bw := newBenchWorld(b, benchInstances)
	bw.add("cmp", bw.b.Rel(OpGt, bw.b.Fetch("g", nil, nil, 0, 0), bw.b.NumConst(1, kbyteUnits)))
	bw.run(b)
}

// BenchmarkSomeInst is a quantifier over a comparison.
func BenchmarkSomeInst(b *testing.B) {
	bw := newBenchWorld(b, benchInstances)
	bw.add("some", bw.b.Domain(OpSome, lang.DomInst,
		bw.b.Rel(OpGt, bw.b.Fetch("c", nil, nil, 0, 0), bw.b.NumConst(5, perSec))))
	bw.run(b)
}

// BenchmarkSumInst is an aggregate of an arithmetic expression.
func BenchmarkSumInst(b *testing.B) {
	bw := newBenchWorld(b, benchInstances)
	bw.add("sum", bw.b.Domain(OpSum, lang.DomInst,
		bw.b.Binary(OpDiv, bw.b.Fetch("g", nil, nil, 0, 0), bw.b.Fetch("c", nil, nil, 0, 0))))
	bw.run(b)
}

// BenchmarkSampleWindow is an aggregate over a ten-sample window.
func BenchmarkSampleWindow(b *testing.B) {
	bw := newBenchWorld(b, benchInstances)
	bw.add("avg", bw.b.Domain(OpAvg, lang.DomSample, bw.b.Fetch("g", nil, nil, 0, 9)))
	bw.run(b)
}

// BenchmarkWindowQuantifiers are the benchmark rules' quantifiers over
// sample windows of comparisons: all over three samples, 75% over four,
// and some over all instances of each.
func BenchmarkWindowQuantifiers(b *testing.B) {
	bw := newBenchWorld(b, benchInstances)
	bw.add("all", bw.b.Domain(OpSome, lang.DomInst, bw.b.Domain(OpAll, lang.DomSample,
		bw.b.Rel(OpGt, bw.b.Fetch("c", nil, nil, 0, 2), bw.b.NumConst(5, perSec)))))
	bw.add("pcnt", bw.b.Domain(OpSome, lang.DomInst, bw.b.Percent(75, lang.DomSample,
		bw.b.Rel(OpGt, bw.b.Fetch("g", nil, nil, 0, 3), bw.b.NumConst(benchInstances/2, kbyteUnits)))))
	bw.run(b)
}

// BenchmarkRuleBindings is a rule whose action expands %i and %v for the
// instances that make it true (half of them).
func BenchmarkRuleBindings(b *testing.B) {
	bw := newBenchWorld(b, benchInstances)
	bw.rt.Act = func(*Firing) Truth { return True }
	bw.add("", bw.b.Rule(bw.b.Domain(OpSome, lang.DomInst,
		bw.b.Rel(OpGt, bw.b.Fetch("g", nil, nil, 0, 0), bw.b.NumConst(benchInstances/2, kbyteUnits))),
		bw.b.Action(OpPrint, []string{"busy:", " %i=%v"}, nil)))
	bw.run(b)
}

// TestActionsAllocateNothing checks that rules firing actions, print and
// shell (through a Quoter), expanding %i and %v for many instances, and
// the reporting of their values allocate nothing once running.
func TestActionsAllocateNothing(t *testing.T) {
	bw := newBenchWorld(t, 100)
	var got int
	bw.rt.Act = func(f *Firing) Truth { got += len(f.Text); return True }
	bw.b.Prepare = func(op Op, args []string) Prepared {
		if op == OpShell {
			return Prepared{Args: args, Quoter: passQuoter{}}
		}
		return Prepared{Args: args}
	}
	for _, op := range []Op{OpPrint, OpShell} {
		bw.add("", bw.b.Rule(bw.b.Domain(OpSome, lang.DomInst,
			bw.b.Rel(OpGt, bw.b.Fetch("g", nil, nil, 0, 0), bw.b.NumConst(50, kbyteUnits))),
			bw.b.Action(op, []string{"busy:", " %h:%i=%v"}, nil)))
	}
	var line []byte
	step := func() {
		bw.once()
		for _, r := range bw.prog.Rules {
			line = r.Root.AppendValue(line[:0])
			line = r.Root.AppendSatisfying(line)
		}
	}
	for i := 0; i < 3; i++ {
		step()
	}
	if got == 0 {
		t.Fatal("no action fired")
	}
	if n := testing.AllocsPerRun(20, step); n != 0 {
		t.Errorf("%v allocations a step, want none", n)
	}
}

// BenchmarkAnnotated is formatting a set as -V prints it.
func BenchmarkAnnotated(b *testing.B) {
	bw := newBenchWorld(b, benchInstances)
	r := bw.add("g", bw.b.Fetch("g", nil, nil, 0, 0))
	bw.deliver()
	r.Eval(bw.rt)
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = r.Root.AppendAnnotated(buf[:0])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchInstances, "ns/inst")
}

// passQuoter puts values in as they are, through the Quoter path.
type passQuoter struct{}

func (passQuoter) Begin()                            {}
func (passQuoter) Literal(b []byte, s string) []byte { return append(b, s...) }
func (passQuoter) Value(b, v []byte) ([]byte, error) { return append(b, v...), nil }
func (passQuoter) Opaque() string                    { return "" }

// BenchmarkShellBindings is BenchmarkRuleBindings for a shell action,
// whose values go in through a Quoter (one that quotes nothing, so that
// only the expansion is measured: actions.BenchmarkShellQuote measures
// sh(1) quoting).
func BenchmarkShellBindings(b *testing.B) {
	bw := newBenchWorld(b, benchInstances)
	bw.rt.Act = func(*Firing) Truth { return True }
	bw.b.Prepare = func(op Op, args []string) Prepared { return Prepared{Args: args, Quoter: passQuoter{}} }
	bw.add("", bw.b.Rule(bw.b.Domain(OpSome, lang.DomInst,
		bw.b.Rel(OpGt, bw.b.Fetch("g", nil, nil, 0, 0), bw.b.NumConst(benchInstances/2, kbyteUnits))),
		bw.b.Action(OpShell, []string{"busy:", " %i=%v"}, nil)))
	bw.run(b)
}

// BenchmarkNumberFormat is formatting numbers as -v prints them: rates
// of every size, most with a fraction.
func BenchmarkNumberFormat(b *testing.B) {
	vals := make([]float64, 1000)
	for i := range vals {
		vals[i] = float64(i*i*7919%100003) / 7.3
	}
	var buf []byte
	for b.Loop() {
		buf = buf[:0]
		for _, v := range vals {
			buf = appendNumber(buf, v)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(vals)), "ns/value")
}
