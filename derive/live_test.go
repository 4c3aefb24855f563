package derive

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// TestLivePMCD compares derived metrics over a live pmcd context with real
// pminfo -h localhost: in a host context libpcp lists derived metrics
// after pmcd's names and leaves out those that fail. It skips when pmcd or
// pminfo is missing, unless PMIE_REQUIRE_PMCD=1.
func TestLivePMCD(t *testing.T) {
	skip := t.Skipf
	if os.Getenv("PMIE_REQUIRE_PMCD") == "1" {
		skip = t.Fatalf
	}
	path, err := exec.LookPath("pminfo")
	if err != nil {
		skip("no pminfo: %v", err)
	}
	x, err := pmcd.Dial("localhost", pmcd.Config{ConnectTimeout: 2 * time.Second})
	if err != nil {
		skip("no pmcd on localhost: %v", err)
	}
	defer x.Close()
	conf := filepath.Join(t.TempDir(), "live.conf")
	os.WriteFile(conf, []byte(strings.Join([]string{
		"kernel.all.load_x2 = kernel.all.load * 2",
		"live.ncpu = hinv.ncpu",
		"live.sub.pmem = rescale(hinv.physmem, \"Gbyte\")",
		"kernel.bad = kernel.all.pswitch * kernel.all.pswitch",
		"live.missing = no.such.metric + 1",
		"hinv.ncpu = 42",
		"",
	}, "\n")), 0o644)
	names := []string{"kernel.all", "live", "hinv.ncpu", "kernel.bad"}

	var want, wantErr bytes.Buffer
	cmd := exec.Command(path, append([]string{"-h", "localhost", "-d"}, names...)...)
	cmd.Stdout, cmd.Stderr = &want, &wantErr
	cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG="+conf)
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("pminfo: %v\n%s", err, wantErr.String())
		}
	}

	reg := NewRegistry()
	var stderr strings.Builder
	stderr.WriteString(PCPReport(reg.LoadEnvFrom(func(k string) (string, bool) {
		if k == "PCP_DERIVED_CONFIG" {
			return conf, true
		}
		return "", false
	})))
	ctx, _ := Wrap(x, reg)
	c, _ := Derived(ctx)
	c.OnBind(func(ds []Diagnostic) { stderr.WriteString(PCPReport(ds)) })
	var stdout strings.Builder
	var all []string
	for _, name := range names {
		var found []string
		err := pmapi.Traverse(ctx, name, func(n string) error { found = append(found, n); return nil })
		if err == nil && len(found) == 0 {
			err = pmapi.ErrName
		}
		if err != nil {
			stderr.WriteString("Error: " + name + ": " + err.Error() + "\n")
		}
		all = append(all, found...)
	}
	for _, n := range all {
		out, _ := pminfoDesc(ctx, n)
		stdout.WriteString(out)
	}
	if stdout.String() != want.String() {
		t.Errorf("stdout:\n got: %q\nwant: %q", stdout.String(), want.String())
	}
	if stderr.String() != wantErr.String() {
		t.Errorf("stderr:\n got: %q\nwant: %q", stderr.String(), wantErr.String())
	}
}
