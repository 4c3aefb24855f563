package derive

import (
	"fmt"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// benchContext is a pmapi.Context with a few metrics over one big instance
// domain whose counters grow on every fetch. Its Fetch allocates nothing
// once the result has room, so benchmarks measure derive alone.
type benchContext struct {
	names  []string
	descs  []pmapi.Desc
	insts  []pmapi.Instance
	now    pmapi.Time
	tick   uint64
	values [][]pmapi.Value
}

func newBenchContext(ninst int) *benchContext {
	indom := pmapi.NewInDom(60, 1)
	b := &benchContext{now: pmapi.TimeOf(1700000000, 0)}
	add := func(name string, t pmapi.Type, sem pmapi.Sem, u pmapi.Units) {
		b.names = append(b.names, name)
		b.descs = append(b.descs, pmapi.Desc{PMID: pmapi.NewPMID(60, 0, uint32(len(b.descs)+1)), Type: t, InDom: indom, Sem: sem, Units: u})
	}
	count := pmapi.Units{DimCount: 1}
	add("disk.read", pmapi.TypeU64, pmapi.SemCounter, count)
	add("disk.write", pmapi.TypeU64, pmapi.SemCounter, count)
	add("disk.read_bytes", pmapi.TypeU64, pmapi.SemCounter, pmapi.Units{DimSpace: 1, ScaleSpace: pmapi.SpaceKByte})
	add("disk.busy", pmapi.TypeU64, pmapi.SemCounter, pmapi.Units{DimTime: 1, ScaleTime: pmapi.TimeMSec})
	add("disk.util", pmapi.TypeDouble, pmapi.SemInstant, pmapi.Units{})
	add("disk.qlen", pmapi.TypeU32, pmapi.SemInstant, count)
	for i := 0; i < ninst; i++ {
		b.insts = append(b.insts, pmapi.Instance{ID: int32(i), Name: fmt.Sprintf("disk%d", i)})
	}
	b.values = make([][]pmapi.Value, len(b.descs))
	for m := range b.descs {
		b.values[m] = make([]pmapi.Value, ninst)
	}
	return b
}

func (b *benchContext) Source() pmapi.Source {
	return pmapi.Source{Kind: pmapi.SourceArchive, Name: "bench"}
}

func (b *benchContext) LookupName(name string) (pmapi.PMID, error) {
	for i, n := range b.names {
		if n == name {
			return b.descs[i].PMID, nil
		}
	}
	return pmapi.PMIDNull, pmapi.ErrName
}

func (b *benchContext) NameAll(id pmapi.PMID) ([]string, error) { return nil, pmapi.ErrPMID }

func (b *benchContext) Children(name string) ([]pmapi.Child, error) { return nil, pmapi.ErrName }

func (b *benchContext) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	for _, d := range b.descs {
		if d.PMID == id {
			return d, nil
		}
	}
	return pmapi.Desc{}, pmapi.ErrPMID
}

func (b *benchContext) InDom(pmapi.InDom) ([]pmapi.Instance, error) { return b.insts, nil }

func (b *benchContext) Text(uint32, pmapi.TextKind) (string, error) { return "", pmapi.ErrText }

func (b *benchContext) Labels(pmapi.LabelFlag, uint32) ([]pmapi.LabelSet, error) { return nil, nil }

func (b *benchContext) Close() error { return nil }

// Fetch moves time on by a second (and a few nanoseconds, so that every
// interval differs) and the counters with it.
func (b *benchContext) Fetch(ids []pmapi.PMID, r *pmapi.Result) error {
	b.tick++
	b.now += pmapi.Time(time.Second) + pmapi.Time(b.tick%7)
	r.Time = b.now
	if cap(r.Sets) < len(ids) {
		r.Sets = make([]pmapi.ValueSet, len(ids))
	}
	r.Sets = r.Sets[:len(ids)]
	for i, id := range ids {
		vs := &r.Sets[i]
		vs.PMID, vs.Err = id, nil
		m := int(id.Item()) - 1
		if id.Domain() != 60 || m < 0 || m >= len(b.descs) {
			vs.Err, vs.Values = pmapi.ErrPMID, vs.Values[:0]
			continue
		}
		vals := b.values[m]
		for j := range vals {
			k := uint64(j)
			switch b.descs[m].Type {
			case pmapi.TypeU64:
				vals[j] = pmapi.Value{Inst: int32(j), Atom: pmapi.U64(b.tick*(k%13+1)*uint64(m+1) + k)}
			case pmapi.TypeU32:
				vals[j] = pmapi.Value{Inst: int32(j), Atom: pmapi.U32(uint32(k % 17))}
			default:
				vals[j] = pmapi.Value{Inst: int32(j), Atom: pmapi.F64(float64(k%100) / 100)}
			}
		}
		vs.Values = append(vs.Values[:0], vals...)
	}
	return nil
}

// benchExprs are ten shapes of derived metric; the benchmark defines each
// ten times.
var benchExprs = []string{
	"rate(disk.read)",
	"delta(disk.read_bytes) / delta(disk.read)",
	"disk.read + disk.write",
	"100 * rate(disk.busy)",
	"disk.util > 0.5 ? disk.read : disk.write",
	"rescale(disk.read_bytes, \"Mbyte\")",
	"delta(disk.read) == 0 ? mkconst(0, type=double, semantics=instant, units=\"millisec/count\") : delta(disk.busy) / delta(disk.read)",
	"instant(disk.read) * 2",
	"matchinst(/disk[0-4]/, disk.util)",
	"disk.qlen * 2 + disk.qlen",
}

// BenchmarkFetch fetches 100 derived metrics over a 1,000-instance domain
// and reports the time per instance per node of the compiled trees.
func BenchmarkFetch(b *testing.B) {
	const ninst = 1000
	reg := NewRegistry()
	var names []string
	for i := 0; i < 100; i++ {
		name := fmt.Sprintf("bench.m%03d", i)
		if err := reg.Register(name, benchExprs[i%len(benchExprs)]); err != nil {
			b.Fatal(err)
		}
		names = append(names, name)
	}
	ctx, diags := Wrap(newBenchContext(ninst), reg)
	if len(diags) != 0 {
		b.Fatal(diags)
	}
	c, _ := Derived(ctx)
	ids := make([]pmapi.PMID, len(names))
	nodes := 0
	for i, n := range names {
		ids[i], _ = ctx.LookupName(n)
		if _, err := ctx.LookupDesc(ids[i]); err != nil {
			b.Fatal(err)
		}
		nodes += countNodes(c.byPMID[ids[i]].tree)
	}
	var r pmapi.Result
	for i := 0; i < 3; i++ { // reach steady state: history and buffers full
		if err := ctx.Fetch(ids, &r); err != nil {
			b.Fatal(err)
		}
	}
	for i, vs := range r.Sets {
		if vs.Err != nil || len(vs.Values) == 0 {
			b.Fatalf("%s: %v, %d values", names[i], vs.Err, len(vs.Values))
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		if err := ctx.Fetch(ids, &r); err != nil {
			b.Fatal(err)
		}
	}
	cpu = cpuTime() - cpu
	b.StopTimer()
	perFetch := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(perFetch/float64(ninst*nodes), "ns/inst/node")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(ninst*nodes), "cpu-ns/inst/node")
	b.ReportMetric(float64(nodes), "nodes")
}

// countNodes counts the nodes of a checked tree.
func countNodes(n *node) int {
	if n == nil {
		return 0
	}
	if n.ref != nil {
		return countNodes(n.ref)
	}
	return 1 + countNodes(n.x) + countNodes(n.y) + countNodes(n.z)
}
