package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/pmie/internal/goldenfile"
	"github.com/gopcp/pmie/internal/pmieconf"
)

var pmieBuild struct {
	once      sync.Once
	dir, path string
	err       error
}

// pmieBinary builds cmd/pmie once for the package's tests, which it
// skips under -short.
func pmieBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds cmd/pmie")
	}
	b := &pmieBuild
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "pmieconf-test"); b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "pmie")
		build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", b.path, "../pmie")
		if out, err := build.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("building pmie: %v\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// TestMain removes what the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if pmieBuild.dir != "" {
		os.RemoveAll(pmieBuild.dir)
	}
	os.Exit(code)
}

// TestPmieAccepts generates pmie files, with every rule and action on,
// and checks that our pmie -C accepts them: no syntax errors.
func TestPmieAccepts(t *testing.T) {
	pmie := pmieBinary(t)
	dir := t.TempDir()
	paths := map[string]string{"test": "../../testdata/pmieconf/rules", "builtin": pmieconf.BuiltinPath}
	if _, err := os.Stat("/var/lib/pcp/config/pmieconf"); err == nil {
		paths["installed"] = "/var/lib/pcp/config/pmieconf"
	}
	for name, rules := range paths {
		for _, changes := range [][]string{
			nil,
			{"enable all", "modify all print_action yes", "modify all shell_action yes",
				"modify all alarm_action yes", "modify all user_action yes",
				"modify all email_action yes", "modify all pcplog_action yes",
				"modify all hosts localhost"},
		} {
			file := filepath.Join(dir, name+".pmie")
			os.Remove(file)
			getenv := func(string) (string, bool) { return "", false }
			for _, c := range changes {
				if name == "installed" && strings.Contains(c, "hosts") {
					// PCP's mssql.stolen_node_memory puts $hosts$
					// after a sample window, which pmie (PCP's too)
					// rejects.
					continue
				}
				args := append([]string{"-r", rules, "-f", file}, goldenfile.Words(c, nil)...)
				// Not every set has every action; those changes fail.
				runCase(args, "", getenv)
			}
			if _, errs, code := runCase([]string{"-r", rules, "-f", file, "-F"}, "", getenv); code != 0 {
				t.Fatalf("%s: pmieconf -F: %s", name, errs)
			}
			out, err := exec.Command(pmie, "-C", file).CombinedOutput()
			if err != nil {
				t.Errorf("%s %v: pmie -C: %v\n%s", name, changes, err, out)
			}
			if strings.Contains(string(out), "syntax error") {
				t.Errorf("%s %v: pmie -C:\n%s", name, changes, out)
			}
		}
	}
}
