package fetchgroup

import (
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
)

// benchGroup is a group over the procs archive, interpolating back and
// forth over its 6 seconds: two rates and a value of ~115 instances each,
// a discrete item, an instant item rescaled, and the timestamp.
func benchGroup(b *testing.B) *Group {
	ctx, err := archive.Open("../../testdata/archives/procs")
	if err != nil {
		b.Fatal(err)
	}
	g := New(ctx)
	start, _ := ctx.Bounds()
	if err := g.SetMode(pmapi.ModeInterp, start.Add(300*time.Millisecond), 500*time.Millisecond); err != nil {
		b.Fatal(err)
	}
	g.ExtendTimestamp()
	for _, it := range []struct{ metric, inst, scale string }{
		{"proc.nprocs", "", "instant"},
		{"proc.psinfo.ppid", "023146", ""},
	} {
		if _, err := g.ExtendItem(it.metric, it.inst, it.scale, pmapi.TypeDouble); err != nil {
			b.Fatal(it.metric, err)
		}
	}
	for _, it := range []struct{ metric, scale string }{
		{"proc.psinfo.minflt", ""},
		{"proc.psinfo.minflt", "count/min"},
		{"proc.psinfo.nice", "instant"},
	} {
		if _, err := g.ExtendInDom(it.metric, it.scale, pmapi.TypeDouble, 200); err != nil {
			b.Fatal(it.metric, err)
		}
	}
	return g
}

// BenchmarkFetch is one Group.Fetch: the archive's interpolated fetch
// and the conversion of every value. At the archive's end it goes back
// to the start (outside the timing).
func BenchmarkFetch(b *testing.B) {
	g := benchGroup(b)
	defer g.Close()
	start, _ := g.Context().(pmapi.Seeker).Bounds()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := g.Fetch(); err != nil {
			b.StopTimer()
			if err := g.SetMode(pmapi.ModeInterp, start.Add(300*time.Millisecond), 500*time.Millisecond); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	}
}
