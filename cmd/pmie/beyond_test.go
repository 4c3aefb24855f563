package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the repository root, from this package's directory.
var repoRoot, _ = filepath.Abs("../..")

// runPmie runs pmie in the repository root with args, returning its
// status, output and messages.
func runPmie(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	var out, errs bytes.Buffer
	code := run(context.Background(), nil, args, strings.NewReader(""), &out, &errs)
	return code, out.String(), errs.String()
}

// TestCheckUnits checks --check-units: comparisons of values of different
// dimensions are reported with both sides' units, and make the status 1.
func TestCheckUnits(t *testing.T) {
	code, _, errs := runPmie(t, "--check-units", "-a", "testdata/archives/pmie/alpha", "-c", "testdata/pmie/basics.pmie")
	want := "pmie: warning - rule plurals compares hinv.ncpu (none) with 3 (sec)\n"
	if code != 1 || !strings.Contains(errs, want) {
		t.Errorf("status %d, messages:\n%s\nwant %q", code, errs, want)
	}
	if strings.Count(errs, "compares") != 1 {
		t.Errorf("expected one mismatch:\n%s", errs)
	}
	code, _, errs = runPmie(t, "--check-units", "-a", "testdata/archives/pmie/alpha", "-c", "testdata/pmie/logic.pmie")
	if code != 0 || strings.Contains(errs, "compares") {
		t.Errorf("logic.pmie: status %d, messages:\n%s", code, errs)
	}
}

// TestDerivedInstance checks derived metrics that select an instance,
// including (expr)[inst], which real pmie 6.0.3 dies on.
func TestDerivedInstance(t *testing.T) {
	t.Setenv("PCP_DERIVED_CONFIG", "testdata/pmie/derived/select.conf")
	code, out, errs := runPmie(t, "-z", "-a", "testdata/archives/pmie/alpha",
		"-c", "testdata/pmie/derived/select.pmie", "-V", "-T", "20sec")
	if code != 0 {
		t.Fatalf("status %d: %s", code, errs)
	}
	for _, want := range []string{
		"sda (Tue Nov 14 22:13:25 2023): \n    alpha: [sda] 4\n",
		"sdb2 (Tue Nov 14 22:13:25 2023): \n    alpha: [sdb] 10.8\n",
		"print Tue Nov 14 22:13:35 2023: sdb busy sdb 21.2\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in output:\n%s", want, out)
		}
	}
}

// TestEarlyArchivesClosed: archives opened among the options are closed
// when pmie stops before using them (a later archive that will not open,
// a usage error), as an in-process run must leave no files open.
func TestEarlyArchivesClosed(t *testing.T) {
	t.Chdir(repoRoot)
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd")
		}
		return len(ents)
	}
	before := fds()
	for _, args := range [][]string{
		{"-a", "testdata/archives/pmie/alpha", "-a", "nosuch", "-c", "testdata/pmie/options.pmie"},
		{"-a", "testdata/archives/pmie/alpha", "-y", "-c", "testdata/pmie/options.pmie"},
		{"-a", "testdata/archives/pmie/alpha", "-C", "-c", "testdata/pmie/options.pmie"},
	} {
		run(context.Background(), nil, args, strings.NewReader(""), io.Discard, io.Discard)
		if after := fds(); after != before {
			t.Errorf("pmie %s: %d files open after, %d before", strings.Join(args, " "), after, before)
		}
	}
}
