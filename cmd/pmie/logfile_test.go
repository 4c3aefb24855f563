package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogMadeAnew: -l makes its file anew, as pmOpenLog does: a symbolic
// link and a second name of a file are replaced, not written through
// (pmie 6.0.3 leaves the target and the other name as they were), while
// a device is written to as it is (pmie would unlink /dev/null).
func TestLogMadeAnew(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	link := filepath.Join(dir, "link")
	first := filepath.Join(dir, "first")
	second := filepath.Join(dir, "second")
	for _, f := range []string{target, first} {
		if err := os.WriteFile(f, []byte("keep\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(first, second); err != nil {
		t.Fatal(err)
	}
	args := []string{"-a", "testdata/archives/pmie/alpha", "-T", "+10sec", "-c", "testdata/pmie/logic.pmie"}
	for _, log := range []string{link, second, os.DevNull} {
		if code, _, errs := runPmie(t, append([]string{"-l", log}, args...)...); code != 0 {
			t.Fatalf("-l %s: exit %d: %s", log, code, errs)
		}
	}
	for _, f := range []string{target, first} {
		if b, _ := os.ReadFile(f); string(b) != "keep\n" {
			t.Errorf("%s was written through: %q", f, b)
		}
	}
	for _, f := range []string{link, second} {
		fi, err := os.Lstat(f)
		if err != nil || !fi.Mode().IsRegular() {
			t.Fatalf("%s: %v, %v: want a new regular file", f, fi, err)
		}
		if b, _ := os.ReadFile(f); !strings.Contains(string(b), "Log for pmie on") {
			t.Errorf("%s holds %q, not the log", f, b)
		}
	}
	if fi, err := os.Lstat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("%s is no longer a device: %v, %v", os.DevNull, fi, err)
	}
}

// TestRunAs: the user a daemon switches to is -U's, even empty (pmie
// then cannot find "the  user"), else $PCP_USER, else pcp when that is
// empty or unset, as pmie 6.0.3 does (checked with PCP_USER= and with a
// pcp.conf that has no PCP_USER: its log belongs to pcp).
func TestRunAs(t *testing.T) {
	for _, c := range []struct {
		s       settings
		env, as string
	}{
		{settings{user: true, userName: "daemon"}, "x", "daemon"},
		{settings{user: true}, "x", ""},
		{settings{}, "x", "x"},
		{settings{}, "", "pcp"},
	} {
		t.Setenv("PCP_USER", c.env)
		if got := c.s.runAs(); got != c.as {
			t.Errorf("%+v with PCP_USER=%q: runs as %q, want %q", c.s, c.env, got, c.as)
		}
	}
}

// TestStatsDirConfMissing: with a pcp.conf that cannot be read,
// $PCP_TMP_DIR is empty and the statistics files are in /pmie, where
// pmie 6.0.3 makes them (strace: mkdir("/pmie")); ours made pmie in the
// current directory.
func TestStatsDirConfMissing(t *testing.T) {
	t.Setenv("PCP_CONF", filepath.Join(t.TempDir(), "none"))
	t.Setenv("PCP_TMP_DIR", "") // restored after the test
	os.Unsetenv("PCP_TMP_DIR")
	if got := statsDir(); got != "/pmie" {
		t.Errorf("statistics in %q, want /pmie", got)
	}
}
