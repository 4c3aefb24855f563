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
	env := func(k string) string {
		switch k {
		case "PMIECONF_PATH":
			return "../../testdata/pmieconf/rules"
		case "PCP_TMP_DIR":
			return filepath.Join(dir, "tmp")
		}
		return os.Getenv(k)
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
