package archive

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// The benchmarks read a large archive made by
//
//	python3 ../shared/tools/mkarchive.py /tmp/big 2000 200 64 50
//
// (about 36 MB: 2000 records of 907 values each, 10 s apart). Set
// $PMIE_BENCH_ARCHIVE to use another; they skip if it is absent.

func benchArchive(b testing.TB) string {
	name := os.Getenv("PMIE_BENCH_ARCHIVE")
	if name == "" {
		name = "/tmp/big"
	}
	if _, ok := findFile(name + ".meta"); !ok {
		b.Skipf("no archive %s (see bench_test.go for how to make it)", name)
	}
	return name
}

// BenchmarkDecode opens the archive and decodes every value of every
// record with the forward Reader. Throughput is of data volume bytes.
func BenchmarkDecode(b *testing.B) {
	name := benchArchive(b)
	var volBytes int64
	a, err := OpenArchive(name)
	if err != nil {
		b.Fatal(err)
	}
	volBytes = volumeBytes(b, a)
	a.Close()
	b.SetBytes(volBytes)
	var records, values int
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs := ms.Mallocs
	b.ResetTimer()
	for range b.N {
		a, err := OpenArchive(name)
		if err != nil {
			b.Fatal(err)
		}
		r := a.Records()
		for r.Next() {
			records++
			for _, s := range r.Record().Sets {
				values += len(s.Values)
			}
		}
		if r.Err() != nil {
			b.Fatal(r.Err())
		}
		a.Close()
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Mallocs-mallocs)/float64(records), "allocs/record")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(records), "ns/record")
	b.ReportMetric(float64(values)/float64(records), "values/record")
}

// volumeBytes is the length of the archive's data volumes.
func volumeBytes(b *testing.B, a *Archive) int64 {
	var n int64
	for _, v := range a.vols {
		l, err := v.length()
		if err != nil {
			b.Fatal(err)
		}
		n += l
	}
	return n
}

// BenchmarkDecodeRecords is BenchmarkDecode without opening the archive:
// the steady state of the Reader, whose allocations per record should
// be none.
func BenchmarkDecodeRecords(b *testing.B) {
	name := benchArchive(b)
	a, err := OpenArchive(name)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	volBytes := volumeBytes(b, a)
	r := a.Records()
	for r.Next() { // check every record once, and grow the buffers
	}
	b.SetBytes(volBytes)
	var records int
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs := ms.Mallocs
	b.ResetTimer()
	for range b.N {
		r.vi, r.off = 0, 0
		for r.Next() {
			records++
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Mallocs-mallocs)/float64(records), "allocs/record")
}

// BenchmarkInterpFetch opens the archive as a context and fetches every
// metric, interpolated, at 10 s steps from its start to its end, as
// pmie -t 10 would: with the fast path for regular archives (fast) and
// with libpcp's algorithm alone (libpcp).
func BenchmarkInterpFetch(b *testing.B) {
	name := benchArchive(b)
	for _, path := range []struct {
		name string
		off  bool
	}{{"fast", false}, {"libpcp", true}} {
		b.Run(path.name, func(b *testing.B) {
			defer func(old bool) { noFastPath = old }(noFastPath)
			noFastPath = path.off
			var fetches int
			for range b.N {
				fetches += interpAll(b, name, nil)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(fetches), "µs/fetch")
			b.ReportMetric(float64(fetches)/float64(b.N), "fetches/run")
		})
	}
}

// interpAll opens the archive name as a context and fetches every
// metric, interpolated, at 10 s steps from its start to its end,
// calling after (if not nil) after each fetch. It returns the number of
// fetches.
func interpAll(tb testing.TB, name string, after func()) int {
	c, err := Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	ids := allPMIDs(c)
	start, _ := c.Bounds()
	c.SetMode(pmapi.ModeInterp, start, 10*time.Second)
	var r pmapi.Result
	fetches := 0
	for {
		err := c.Fetch(ids, &r)
		if err == pmapi.ErrEOL {
			return fetches
		}
		if err != nil {
			tb.Fatal(err)
		}
		fetches++
		if after != nil {
			after()
		}
	}
}

// BenchmarkInterpHeap is BenchmarkInterpFetch watching the heap (see
// interpHeap). None of its figures should grow with the archive.
func BenchmarkInterpHeap(b *testing.B) {
	name := benchArchive(b)
	var h heapUse
	for range b.N {
		h.add(interpHeap(b, name))
	}
	b.ReportMetric(float64(h.peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(h.live)/(1<<20), "live-heap-MB")
	b.ReportMetric(float64(h.total)/float64(h.fetches), "B-alloc/fetch")
}

// TestInterpHeapBounded checks that interpolating across the benchmark
// archive (36 MB of data) never has more than a few MB of heap in use.
func TestInterpHeapBounded(t *testing.T) {
	name := benchArchive(t)
	h := interpHeap(t, name)
	t.Logf("peak heap %.2f MB, live %.2f MB, %.0f bytes allocated per fetch", float64(h.peak)/(1<<20), float64(h.live)/(1<<20), float64(h.total)/float64(h.fetches))
	if h.peak > 4<<20 {
		t.Errorf("peak heap in use %.1f MB, want at most 4 MB", float64(h.peak)/(1<<20))
	}
}

// heapUse is what interpHeap measures, in bytes.
type heapUse struct {
	peak    uint64 // most heap in use at any fetch
	live    uint64 // live heap after the run
	total   uint64 // bytes allocated
	fetches int
}

func (h *heapUse) add(o heapUse) {
	h.peak, h.live = max(h.peak, o.peak), max(h.live, o.live)
	h.total += o.total
	h.fetches += o.fetches
}

// interpHeap runs interpAll, sampling the heap after every fetch. It
// reports the most heap in use at any fetch and the live heap after the
// run (after a collection, with the context closed), less what was in
// use before the context was opened, and the bytes allocated.
func interpHeap(tb testing.TB, name string) heapUse {
	var h heapUse
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	inuse0, live0, alloc0 := ms.HeapInuse, ms.HeapAlloc, ms.TotalAlloc
	h.fetches = interpAll(tb, name, func() {
		runtime.ReadMemStats(&ms)
		h.peak = max(h.peak, ms.HeapInuse-min(inuse0, ms.HeapInuse))
	})
	h.total = ms.TotalAlloc - alloc0
	runtime.GC()
	runtime.ReadMemStats(&ms)
	h.live = ms.HeapAlloc - min(live0, ms.HeapAlloc)
	return h
}

// allPMIDs lists the PMIDs of every name in the context's namespace.
func allPMIDs(c *Context) []pmapi.PMID {
	var ids []pmapi.PMID
	pmapi.Traverse(c, "", func(n string) error {
		if id, err := c.LookupName(n); err == nil {
			ids = append(ids, id)
		}
		return nil
	})
	return ids
}
