//go:build linux

package local

import (
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// pmieMetrics are the metrics a typical pmie rule set samples each cycle.
var pmieMetrics = []string{
	"kernel.all.load", "kernel.all.cpu.user", "kernel.all.cpu.sys", "kernel.all.cpu.idle",
	"kernel.all.cpu.wait.total", "kernel.percpu.cpu.user", "kernel.percpu.cpu.sys",
	"kernel.all.pswitch", "kernel.all.runnable", "hinv.ncpu", "mem.util.free",
	"mem.util.available", "mem.physmem", "swap.pagesout", "disk.dev.total",
	"disk.dev.avactive", "disk.all.total", "network.interface.in.bytes",
	"network.interface.out.bytes", "network.interface.up", "filesys.full",
}

func idsOf(t testing.TB, c *Context, names []string) []pmapi.PMID {
	ids := make([]pmapi.PMID, len(names))
	for i, n := range names {
		id, err := c.LookupName(n)
		if err != nil {
			t.Fatal(n, err)
		}
		ids[i] = id
	}
	return ids
}

func benchFetch(b *testing.B, c *Context, names []string) {
	ids := idsOf(b, c, names)
	var r pmapi.Result
	c.Fetch(ids, &r)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := c.Fetch(ids, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFetchRules fetches what a typical rule set needs from the
// running system.
func BenchmarkFetchRules(b *testing.B) {
	c, err := Open(Options{})
	if err != nil {
		b.Skip(err)
	}
	defer c.Close()
	benchFetch(b, c, pmieMetrics)
}

// BenchmarkFetchAll fetches every metric from the running system.
func BenchmarkFetchAll(b *testing.B) {
	c, err := Open(Options{})
	if err != nil {
		b.Skip(err)
	}
	defer c.Close()
	benchFetch(b, c, allNames())
}

// BenchmarkFetchLoad fetches one metric from one small file.
func BenchmarkFetchLoad(b *testing.B) {
	c, err := Open(Options{})
	if err != nil {
		b.Skip(err)
	}
	defer c.Close()
	benchFetch(b, c, []string{"kernel.all.load"})
}

// TestFetchAllocatesNothing checks that once a context has seen its
// instances, fetching every metric again allocates nothing, so memory
// does not grow however long pmie runs.
func TestFetchAllocatesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(t *testing.T) *Context
	}{
		{"fixture", func(t *testing.T) *Context { return openFixture(t) }},
		{"live", func(t *testing.T) *Context {
			c, err := Open(Options{})
			if err != nil {
				t.Skip(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.open(t)
			ids := idsOf(t, c, allNames())
			var r pmapi.Result
			c.Fetch(ids, &r)
			c.Fetch(ids, &r)
			if n := testing.AllocsPerRun(20, func() { c.Fetch(ids, &r) }); n != 0 {
				t.Errorf("a fetch of every metric made %v allocations", n)
			}
		})
	}
}
