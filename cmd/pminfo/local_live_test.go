package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/realtest"
)

// These tests check pminfo -L (the embedded collector) against real
// pminfo talking to pmcd and its linux PMDA. They skip without pmcd
// unless PMIE_REQUIRE_PMCD=1, when they fail instead.

// runLocal runs our pminfo with -L and the given arguments.
func runLocal(t *testing.T, args ...string) string {
	t.Helper()
	var out, errw bytes.Buffer
	env := Env{
		Args:    append([]string{"pminfo", "-L"}, args...),
		Environ: os.Environ(),
		Stdout:  &out,
		Stderr:  &errw,
		Open:    openSource,
		Derived: newDerived,
		LocalTZ: localZone(),
	}
	if rc := run(env); rc != 0 || errw.Len() > 0 {
		t.Fatalf("pminfo -L %s: exit %d: %s", strings.Join(args, " "), rc, errw.String())
	}
	return out.String()
}

// sameLines counts the lines of real that ours has at the same place.
func sameLines(ours, real string) (same, total int) {
	o, r := strings.Split(ours, "\n"), strings.Split(real, "\n")
	for i := range r {
		if i < len(o) && o[i] == r[i] {
			same++
		}
	}
	return same, len(r)
}

// TestLiveLocalMatchesPMCD compares pminfo -L with real pminfo over every
// metric the collector serves: names, PMIDs, descriptors, help text and
// labels must be byte-identical, and so must the values of the discrete
// hinv.* and kernel.uname.* metrics.
func TestLiveLocalMatchesPMCD(t *testing.T) {
	realtest.Require(t, realtest.Pmcd)
	// libpcp lists a host context's derived metrics after pmcd's names
	// and a local context's among them, and leaves out failed ones only
	// for the host: compare without PCP's global derived metrics
	t.Setenv("PCP_DERIVED_CONFIG", "")
	names := strings.Fields(runLocal(t))
	if len(names) < 100 {
		t.Fatalf("pminfo -L lists only %d metrics", len(names))
	}
	var discrete []string
	for _, n := range names {
		if strings.HasPrefix(n, "hinv.") || strings.HasPrefix(n, "kernel.uname.") {
			discrete = append(discrete, n)
		}
	}
	for _, tc := range []struct {
		opts  []string
		names []string
	}{
		{nil, names},
		{[]string{"-m"}, names},
		{[]string{"-d"}, names},
		{[]string{"-d", "-m"}, names},
		{[]string{"-t", "-T"}, names},
		{[]string{"-l"}, names},
		{[]string{"-f"}, discrete},
	} {
		args := append(append([]string(nil), tc.opts...), tc.names...)
		ours, real := runLocal(t, args...), realtest.Pminfo(t, args...)
		same, total := sameLines(ours, real)
		t.Logf("pminfo -L %s (%d metrics): %d/%d lines identical", strings.Join(tc.opts, " "), len(tc.names), same, total)
		if ours != real {
			t.Errorf("pminfo -L %s differs from real pminfo %[1]s", strings.Join(tc.opts, " "))
		}
	}
}
