package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/pmcdtest"
)

// TestRawShellSurvivesReload checks that --raw-shell-values holds for
// rules a reload brings in, as for those read at start-up: a shell
// action's %i goes in unquoted (the instance "1 minute" splits into two
// words) before and after the reload; without the option it is quoted,
// before and after.
func TestRawShellSurvivesReload(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for seconds")
	}
	host := pmcdtest.Start(t, pmcdtest.Sample("rawshell"))
	setLoad(host, 2, 0.5) // only "1 minute" is above 1
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--raw-shell-values"}, "[1][minute]"},
		{nil, "[1 minute]"},
	} {
		dir := t.TempDir()
		rule := func(name string) string {
			return name + " = some_inst (kernel.all.load > 1) -> shell 10 min \"printf '[%s]' %i > " +
				filepath.Join(dir, name) + "\";\n"
		}
		rulesFile := filepath.Join(dir, "rules.pmie")
		os.WriteFile(rulesFile, []byte("delta = 0.2 sec;\n"+rule("before")), 0o644)
		yaml := filepath.Join(dir, "pmie.yaml")
		os.WriteFile(yaml, []byte("rule_files: [rules.pmie]\nmmv: false\n"), 0o644)
		p := startLive(t, append(c.args, "--yaml-config", yaml, "-h", host.Spec(), "-f")...)
		wrote := func(name string) func() bool {
			return func() bool { b, _ := os.ReadFile(filepath.Join(dir, name)); return len(b) > 0 }
		}
		p.waitFor("the first rule's shell action", 5*time.Second, wrote("before"))
		saveOver(t, rulesFile, "delta = 0.2 sec;\n"+rule("before")+rule("after"))
		p.waitFor("the reloaded rule's shell action", 5*time.Second, wrote("after"))
		for _, name := range []string{"before", "after"} {
			if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != c.want {
				t.Errorf("%q: %s's action got %%i as %s, want %s", c.args, name, b, c.want)
			}
		}
		if code := p.stop(); code != 0 {
			t.Errorf("%q: exit %d:\n%s", c.args, code, p.errs.String())
		}
		if !strings.Contains(p.errs.String(), "configuration reloaded: 2 rules (1 kept, 1 new, 0 removed)") {
			t.Errorf("%q: no reload logged:\n%s", c.args, p.errs.String())
		}
	}
}
