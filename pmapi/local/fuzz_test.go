//go:build linux

package local

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// fuzzSource feeds arbitrary content to one file's parser, twice (so
// instances are found again), then computes every metric: no input may
// make the collector panic.
func fuzzSource(f *testing.F, file string, parse func(c *Context, b []byte)) {
	seed, err := os.ReadFile(filepath.Join(fixtureRoot, file))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte{})
	f.Add(seed[:len(seed)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		c := openFixture(t)
		parse(c, b)
		parse(c, b)
		var vs pmapi.ValueSet
		for i := range space().metrics {
			vs.Values = vs.Values[:0]
			c.fill(&space().metrics[i], &vs)
		}
	})
}

func FuzzStat(f *testing.F) {
	fuzzSource(f, "proc/stat", func(c *Context, b []byte) { c.stat.parse(b) })
}

func FuzzMeminfo(f *testing.F) {
	fuzzSource(f, "proc/meminfo", func(c *Context, b []byte) { c.mem.parse(b) })
}

func FuzzLoadavg(f *testing.F) {
	fuzzSource(f, "proc/loadavg", func(c *Context, b []byte) { c.load.parse(b) })
}

func FuzzUptime(f *testing.F) {
	fuzzSource(f, "proc/uptime", func(c *Context, b []byte) { c.up.parse(b) })
}

func FuzzVmstat(f *testing.F) {
	fuzzSource(f, "proc/vmstat", func(c *Context, b []byte) { c.vm.parse(b) })
}

func FuzzDiskstats(f *testing.F) {
	fuzzSource(f, "proc/diskstats", func(c *Context, b []byte) { c.disk.parse(b) })
}

func FuzzNetDev(f *testing.F) {
	fuzzSource(f, "proc/net/dev", func(c *Context, b []byte) {
		c.net.parse(b)
		c.net.refreshSys(srcNetMTU | srcNetSpeed | srcNetFlags)
	})
}

func FuzzMounts(f *testing.F) {
	fuzzSource(f, "proc/self/mounts", func(c *Context, b []byte) { c.fs.parse(b) })
}

// FuzzDirents feeds arbitrary bytes as getdents64 records.
func FuzzDirents(f *testing.F) {
	f.Add([]byte{})
	rec := make([]byte, 24)
	rec[16] = 24
	copy(rec[19:], "42\x00")
	f.Add(rec)
	f.Fuzz(func(t *testing.T, b []byte) {
		if n := countDigitNames(b); int(n) > len(b)/20 {
			t.Errorf("%d names in %d bytes", n, len(b))
		}
	})
}
