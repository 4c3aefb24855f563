// Package pcplive helps tests that compare our code with real PCP running
// on the same machine: they skip when pmcd or pminfo is missing, unless
// PMIE_REQUIRE_PMCD=1 (as in CI), when they fail instead.
package pcplive

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Require skips t (or with PMIE_REQUIRE_PMCD=1 fails it) unless real
// pminfo is installed and the local pmcd answers.
func Require(t testing.TB) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("pminfo"); err != nil {
		why = "pminfo not installed"
	} else if out, err := exec.Command("pminfo", "-f", "pmcd.version").CombinedOutput(); err != nil {
		why = "pmcd not answering: " + strings.TrimSpace(string(out))
	}
	if why == "" {
		return
	}
	if os.Getenv("PMIE_REQUIRE_PMCD") == "1" {
		t.Fatal("PMIE_REQUIRE_PMCD=1 but " + why)
	}
	t.Skip(why)
}

// Pminfo runs real pminfo and returns what it prints, failing t if it
// fails.
func Pminfo(t testing.TB, args ...string) string {
	t.Helper()
	out, err := exec.Command("pminfo", args...).Output()
	if err != nil {
		t.Fatalf("pminfo %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}
