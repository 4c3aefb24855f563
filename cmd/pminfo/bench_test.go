package main

import (
	"io"
	"os"
	"testing"
	"time"
)

// BenchmarkArchiveFetch runs "pminfo -a ARCHIVE -f" on the benchmark
// archive ($PMIE_BENCH_ARCHIVE, default /tmp/pmie-bench; made by
// python3 ../shared/tools/mkarchive.py /tmp/pmie-bench 2000
// 200 64 50), with PCP's global derived metrics (derived) or without
// them (plain). scripts/bench-pminfo.sh times the command against real
// pminfo.
func BenchmarkArchiveFetch(b *testing.B) {
	name := os.Getenv("PMIE_BENCH_ARCHIVE")
	if name == "" {
		name = "/tmp/pmie-bench"
	}
	if _, err := os.Stat(name + ".meta"); err != nil {
		b.Skipf("no archive %s (see the comment for how to make it)", name)
	}
	for _, c := range []struct {
		name    string
		environ []string
	}{
		{"plain", []string{"PCP_DERIVED_CONFIG=", "TZ=UTC"}},
		{"derived", []string{"TZ=UTC"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				status := run(Env{
					Args:    []string{"pminfo", "-a", name, "-f"},
					Environ: c.environ,
					Stdout:  io.Discard,
					Stderr:  io.Discard,
					Open:    openSource,
					Derived: newDerived,
					LocalTZ: time.UTC,
				})
				if status != 0 {
					b.Fatalf("exit status %d", status)
				}
			}
		})
	}
}
