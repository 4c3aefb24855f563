package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRulesFileError checks how a mistake in a rules file is reported:
// our diagnostic, after the program's name, and exit status 1.
func TestRulesFileError(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "bad")
	os.WriteFile(rules, []byte("#pmieconf-rules 1\nrule demo.x\n\tenabled = maybe;\n"), 0o644)
	_, errs, code := runCase([]string{"-r", rules, "-f", filepath.Join(dir, "x.pmie"), "list", "all"}, "", os.LookupEnv)
	want := "pmieconf: " + rules + ":3:12: error: enabled should be yes or no, not \"maybe\"\n" +
		"\tenabled = maybe;\n\t          ^\n"
	if code != 1 || errs != want {
		t.Errorf("got status %d and\n%s\nwant status 1 and\n%s", code, errs, want)
	}
}
