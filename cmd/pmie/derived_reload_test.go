package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/internal/realtest"
)

// TestDerivedReloadKeepsConnections redefines a derived metric under a
// running daemon fetching from a pmcd (a stand-in, whose connections are
// counted, and the real one): the rule reading it gets the new
// definition, while the host's connection is kept (the only connection
// the reload makes is the one its rules' metadata is read on), the rule
// reading another derived metric, unchanged, is kept, and the rule that
// reads none loses no sample: its rate has a value at every evaluation
// after the reload, as before it. (Evaluations are
// half a second apart: a fetch slower than that has no values, reload or
// not, and a loaded machine makes some so.)
func TestDerivedReloadKeepsConnections(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for seconds")
	}
	t.Run("stand-in", func(t *testing.T) {
		host := pmcdtest.Start(t, pmcdtest.Sample("derivedreload"))
		before := 0
		derivedReload(t, host.Spec(), func() { before, _ = host.Stats() }, func() {
			after, _ := host.Stats()
			t.Logf("pmcd connections made by the reload: %d", after-before)
			if after-before != 1 {
				t.Errorf("the reload made %d connections to pmcd, want 1 (for the rules' metadata; the fetches' kept)", after-before)
			}
		})
	})
	t.Run("pmcd", func(t *testing.T) {
		realtest.Require(t, realtest.Pmcd)
		derivedReload(t, "localhost", func() {}, func() {})
	})
}

// derivedReload runs pmie on host and redefines my.ncpu, calling before
// and after around the reload.
func derivedReload(t *testing.T, host string, before, after func()) {
	dir := t.TempDir()
	derived := filepath.Join(dir, "derived.conf")
	os.WriteFile(derived, []byte("my.ncpu = hinv.ncpu * 2\nmy.plus = hinv.ncpu + 1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "rules.pmie"), []byte("delta = 0.5 sec;\nncpu = hinv.ncpu;\ntwice = my.ncpu;\n"+
		"plus = my.plus;\nswitches = kernel.all.pswitch;\n"), 0o644)
	yaml := filepath.Join(dir, "pmie.yaml")
	os.WriteFile(yaml, []byte("rule_files: [rules.pmie]\nderived_files: [derived.conf]\nmmv: false\n"), 0o644)
	p := startLive(t, "--yaml-config", yaml, "-h", host, "-f", "-v")
	ncpu := regexp.MustCompile(`(?m)^ncpu: (\d+)\n`)
	valued := regexp.MustCompile(`(?m)^switches: [\d.]+\n`)
	p.waitFor("values", 5*time.Second, func() bool {
		return ncpu.MatchString(p.out.String()) && valued.MatchString(p.out.String())
	})
	n := 0
	fmt.Sscan(ncpu.FindStringSubmatch(p.out.String())[1], &n)
	if !strings.Contains(p.out.String(), fmt.Sprintf("twice: %d\n", 2*n)) {
		t.Fatalf("no twice: %d in\n%s", 2*n, p.out.String())
	}
	before()
	saveOver(t, derived, "my.ncpu = hinv.ncpu * 3\nmy.plus = hinv.ncpu + 1\n")
	thrice := fmt.Sprintf("twice: %d\n", 3*n)
	p.waitFor("the new definition", 5*time.Second, func() bool { return strings.Contains(p.out.String(), thrice) })
	mark := len(p.out.String())
	time.Sleep(1600 * time.Millisecond) // three evaluations more
	after()
	out := p.out.String()
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d:\n%s", code, p.errs.String())
	}
	if !strings.Contains(p.errs.String(), "configuration reloaded: 4 rules (3 kept, 1 new, 1 removed)") {
		t.Errorf("the redefinition did not renew the rule reading it (only):\n%s", p.errs.String())
	}
	if plus := fmt.Sprintf("plus: %d\n", n+1); strings.Count(out[mark:], plus) < 2 {
		t.Errorf("no %q after the reload:\n%s", plus, out[mark:])
	}
	// from the last value before the reload on, every evaluation has values
	last := valued.FindAllStringIndex(out[:strings.Index(out, thrice)], -1)
	from := last[len(last)-1][0]
	if lost := strings.Count(out[from:], "switches: ?\n"); lost > 0 {
		t.Errorf("%d evaluations without values after the reload:\n%s", lost, out[from:])
	}
	if n := len(valued.FindAllString(out[mark:], -1)); n < 2 {
		t.Errorf("%d evaluations after the reload:\n%s", n, out[mark:])
	}
}
