package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFiles checks files that are not regular: -f naming a device
// or a FIFO is read as far as its size, 0, as pmieconf reads it (it read
// /dev/zero without end), and a FIFO among pmie's statistics files is
// passed over (it blocked there). Real pmieconf prints the status for both.
func TestSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "tmp", "pmie"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "tmp", "pmie", "1"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(k string) (string, bool) {
		switch k {
		case "PMIECONF_PATH":
			return "../../testdata/pmieconf/rules", true
		case "PCP_TMP_DIR":
			return filepath.Join(dir, "tmp"), true
		}
		return os.LookupEnv(k)
	}
	for _, file := range []string{"/dev/zero", fifo, filepath.Join(dir, "new.pmie")} {
		done := make(chan struct{})
		var out, errs string
		var code int
		go func() {
			out, errs, code = runCase([]string{"-f", file, "status"}, "", env)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("-f %s status: still running after 20 s", file)
		}
		if code != 0 || !strings.Contains(out, "pmie configuration file:  "+file) || !strings.Contains(out, "(none found)") {
			t.Errorf("-f %s status: exit %d\n%s%s", file, code, out, errs)
		}
	}
}

// TestGeneratedZone checks that the date a made file records is in the
// zone of $TZ when that is a POSIX rule, as ctime(3) gives it (Go's own
// reading of $TZ knows only zoneinfo names, and gave UTC).
func TestGeneratedZone(t *testing.T) {
	file := filepath.Join(t.TempDir(), "config.pmie")
	env := func(k string) (string, bool) {
		switch k {
		case "PMIECONF_PATH":
			return "../../testdata/pmieconf/rules", true
		case "TZ":
			return "JST-9", true
		}
		return os.LookupEnv(k)
	}
	before := time.Now().UTC().Add(9 * time.Hour).Format("Mon Jan _2 15:04")
	if _, errs, code := runCase([]string{"-f", file, "-F"}, "", env); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	after := time.Now().UTC().Add(9 * time.Hour).Format("Mon Jan _2 15:04")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := dateLine.FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("no date line in:\n%s", b)
	}
	if got := m[0][len(m[1]):]; !strings.HasPrefix(got, before) && !strings.HasPrefix(got, after) {
		t.Errorf("generated on %q, want JST (%s)", got, before)
	}
}
