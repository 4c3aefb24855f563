package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/realtest"
)

const archiveName = "../../testdata/archives/collector"

func runVmstat(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errs strings.Builder
	code := run(args, &out, &errs, time.Sleep)
	return out.String(), errs.String(), code
}

// TestArchiveGoldens reads the test archive and compares the table with
// the one libpcp's fetchgroups give (testdata/golden/vmstat/gen.py):
// at the archive's own interval and at one that interpolates between its
// samples.
func TestArchiveGoldens(t *testing.T) {
	for _, interval := range []string{"1m", "45s"} {
		want, err := os.ReadFile("../../testdata/golden/vmstat/collector-" + interval + ".out")
		if err != nil {
			t.Fatal(err)
		}
		out, errs, code := runVmstat(t, "-a", archiveName, "-t", interval)
		if code != 0 || errs != "" {
			t.Fatalf("-t %s: exit %d: %s", interval, code, errs)
		}
		if out != string(want) {
			t.Errorf("-t %s: got\n%s\nwant\n%s", interval, out, want)
		}
	}
}

// TestSamples checks that -s stops after that many lines.
func TestSamples(t *testing.T) {
	out, _, code := runVmstat(t, "-a", archiveName, "-t", "1m", "-s", "3")
	if lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); code != 0 || len(lines) != 4 {
		t.Fatalf("exit %d, %d lines, want a header and 3:\n%s", code, len(lines), out)
	}
}

func TestBadUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-a", "x", "-h", "y"}, "-a and -h cannot be used together"},
		{[]string{"-t", "0s"}, "-t must be positive"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-t", "soon"}, "invalid value"},
		{[]string{"-a", "/nonexistent/archive"}, "vmstat:"},
	} {
		_, errs, code := runVmstat(t, c.args...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want an error saying %q", c.args, code, errs, c.want)
		}
	}
}

// row is a line of the table with every value known.
var row = regexp.MustCompile(`^\d\d:\d\d:\d\d( +\d+){17}$`)

// TestLive reads two lines from the embedded collector and from pmcd:
// every value of a live machine is known.
func TestLive(t *testing.T) {
	t.Run("embedded", func(t *testing.T) {
		if _, err := os.Stat("/proc/stat"); err != nil {
			t.Skip("no /proc here for the embedded collector")
		}
		checkLive(t, "-L")
	})
	t.Run("pmcd", func(t *testing.T) {
		realtest.Require(t, realtest.Pmcd)
		checkLive(t, "-h", "localhost")
	})
}

func checkLive(t *testing.T, src ...string) {
	t.Helper()
	out, errs, code := runVmstat(t, append(src, "-t", "200ms", "-s", "2")...)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("%v: exit %d, %s\n%s", src, code, errs, out)
	}
	for _, l := range lines[1:] {
		if !row.MatchString(l) {
			t.Errorf("%v: line %q has unknown or odd values", src, l)
		}
	}
}
