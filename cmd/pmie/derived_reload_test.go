package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/pmcdtest"
)

// TestDerivedReloadKeepsConnections redefines a derived metric under a
// running daemon fetching from a pmcd: the rules reading it get the new
// definition, while the host's connection is kept (the only connection
// the reload makes is the one its rules' metadata is read on) and the
// rule that does not read it loses no sample: its rate has a value at
// every evaluation after the reload, as before it.
func TestDerivedReloadKeepsConnections(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for seconds")
	}
	host := pmcdtest.Start(t, pmcdtest.Sample("derivedreload"))
	dir := t.TempDir()
	derived := filepath.Join(dir, "derived.conf")
	os.WriteFile(derived, []byte("my.ncpu = hinv.ncpu * 2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "rules.pmie"), []byte("delta = 0.2 sec;\ntwice = my.ncpu;\nswitches = kernel.all.pswitch;\n"), 0o644)
	yaml := filepath.Join(dir, "pmie.yaml")
	os.WriteFile(yaml, []byte("rule_files: [rules.pmie]\nderived_files: [derived.conf]\nmmv: false\n"), 0o644)
	p := startLive(t, "--yaml-config", yaml, "-h", host.Spec(), "-f", "-v")
	p.waitFor("values", 5*time.Second, func() bool {
		return strings.Contains(p.out.String(), "twice: 8\n") && strings.Contains(p.out.String(), "switches: 0\n")
	})
	before, _ := host.Stats()
	saveOver(t, derived, "my.ncpu = hinv.ncpu * 3\n")
	p.waitFor("the new definition", 3*time.Second, func() bool { return strings.Contains(p.out.String(), "twice: 12\n") })
	mark := len(p.out.String())
	time.Sleep(time.Second) // five evaluations more
	after, _ := host.Stats()
	out := p.out.String()
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d:\n%s", code, p.errs.String())
	}
	if !strings.Contains(p.errs.String(), "configuration reloaded: 2 rules (1 kept, 1 new, 1 removed)") {
		t.Errorf("the redefinition did not renew the rule reading it:\n%s", p.errs.String())
	}
	// from the last value before the reload on, every evaluation has values
	first := strings.LastIndex(out[:strings.Index(out, "twice: 12\n")], "switches: 0\n")
	if lost := strings.Count(out[first:], "switches: ?\n"); lost > 0 {
		t.Errorf("%d evaluations without values after the reload:\n%s", lost, out[first:])
	}
	if strings.Count(out[mark:], "switches: 0\n") < 3 {
		t.Errorf("too few evaluations after the reload:\n%s", out[mark:])
	}
	t.Logf("pmcd connections made by the reload: %d", after-before)
	if after-before != 1 {
		t.Errorf("the reload made %d connections to pmcd, want 1 (for the rules' metadata; the fetches' kept)", after-before)
	}
}
