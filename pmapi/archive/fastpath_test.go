package archive

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// TestFastPath checks that interpolation's fast path (uniform.go) gives
// exactly what libpcp's algorithm gives, over the test archives: stepping
// forwards from several starts by several intervals, fetching every
// metric or a few, changing direction and profile between, in random
// scripts. It also checks that the fast path is taken.
func TestFastPath(t *testing.T) {
	defer func(old bool) { noFastPath = old }(noFastPath)
	starts := []string{"-1", "0", "0.3", "1", "2.5", "@0"}
	deltas := []string{"0.1", "0.25", "0.5", "1", "1.5", "2", "3.7", "5", "7", "10", "13"}
	fast := 0
	open := func(name string) *Context {
		t.Helper()
		var paths []string
		for n := range strings.SplitSeq(name, ",") {
			paths = append(paths, archivesDir+"/"+n)
		}
		c, err := Open(strings.Join(paths, ","))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	run := func(name string, do func(c *Context) string) {
		t.Helper()
		var out [2]string
		for i, off := range []bool{true, false} {
			noFastPath = off
			c := open(name)
			out[i] = do(c)
			if !off {
				fast += c.interp.fast
			}
			c.Close()
		}
		if out[0] != out[1] {
			_, _, diff := compare(out[0], out[1])
			t.Errorf("%s: the fast path differs from libpcp's: %s", name, diff)
		}
	}
	for _, name := range []string{"linux-v2", "linux-v3", "linux-xz", "mark", "multivol", "procs", "synth-v2", "synth-v3", "sparse", "set", "linux-v2,linux-v3,mark,multivol",
		"pmie/alpha", "pmie/beta", "pmie/gamma"} {
		for _, start := range starts {
			for _, delta := range deltas {
				if start == "@0" {
					continue
				}
				run(name, func(c *Context) string { return dumpFetch(c, 1, start, delta, 40, nil) })
			}
		}
		// each metric alone, which the fast path serves more often
		c := open(name)
		names := allNames(c)
		c.Close()
		for _, metric := range names {
			for _, delta := range []string{"1", "7", "13"} {
				run(name, func(c *Context) string { return dumpFetch(c, 1, "0.3", delta, 25, []string{metric}) })
				run(name, func(c *Context) string { return dumpFetch(c, 1, "0", delta, 25, []string{metric}) })
			}
		}
		// a profile that leaves out instances of a domain, set once, as
		// pmie sets it, then many fetches stepping forwards
		for _, metric := range names {
			c := open(name)
			id, _ := c.LookupName(metric)
			d, _ := c.LookupDesc(id)
			insts, _ := c.InDomArchive(d.InDom)
			c.Close()
			if d.InDom == pmapi.InDomNull || len(insts) < 2 {
				continue
			}
			for _, keep := range []int{0, len(insts) - 1} {
				prof := fmt.Sprintf("+%d.%d:%d", d.InDom.Domain(), d.InDom.Serial(), insts[keep].ID)
				script := prof + "\ninterp 0 1\nfetch 30\ninterp 0.3 7\nfetch 20 " + metric + "\n"
				run(name, func(c *Context) string { return dumpScript(c, script) })
			}
		}
		rng := rand.New(rand.NewSource(int64(len(name))))
		for range 10 {
			c := open(name)
			script := randomScript(rng, c)
			c.Close()
			// more of the same fetches in a row, which the fast path serves
			script = strings.ReplaceAll(script, "fetch 1", "fetch 7")
			run(name, func(c *Context) string { return dumpScript(c, script) })
		}
	}
	if fast == 0 {
		t.Error("the fast path was never taken")
	}
	t.Logf("%d fetches took the fast path", fast)
}
