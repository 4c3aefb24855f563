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
//	/usr/bin/python3 /work/shared/tools/mkarchive.py /tmp/big 2000 200 64 50
//
// (about 36 MB: 2000 records of 907 values each, 10 s apart). Set
// $PMIE_BENCH_ARCHIVE to use another; they skip if it is absent.

func benchArchive(b *testing.B) string {
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
	for _, n := range a.volNums {
		v, _ := a.volume(n)
		volBytes += int64(len(v.f.data))
	}
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
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Mallocs-mallocs)/float64(records), "allocs/record")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(records), "ns/record")
	b.ReportMetric(float64(values)/float64(records), "values/record")
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
	var volBytes int64
	for _, n := range a.volNums {
		v, _ := a.volume(n)
		volBytes += int64(len(v.f.data))
	}
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
		r.vi, r.ri = 0, 0
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
// pmie -t 10 would.
func BenchmarkInterpFetch(b *testing.B) {
	name := benchArchive(b)
	var fetches int
	for range b.N {
		c, err := Open(name)
		if err != nil {
			b.Fatal(err)
		}
		var ids []pmapi.PMID
		pmapi.Traverse(c, "", func(n string) error {
			id, err := c.LookupName(n)
			if err == nil {
				ids = append(ids, id)
			}
			return nil
		})
		start, _ := c.Bounds()
		c.SetMode(pmapi.ModeInterp, start, 10*time.Second)
		var r pmapi.Result
		for {
			err := c.Fetch(ids, &r)
			if err == pmapi.ErrEOL {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			fetches++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
	b.ReportMetric(float64(fetches)/float64(b.N), "fetches/run")
}
