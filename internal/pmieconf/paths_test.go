package pmieconf

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gopcp/pmie/internal/pmiestats"
)

// TestPmieProcesses writes pmie statistics files as pmie does and checks
// which are taken for running pmies using a configuration file.
func TestPmieProcesses(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc")
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "pmie")
	os.Mkdir(dir, 0o755)
	stats := func(name, config string, size int) {
		b := make([]byte, size)
		copy(b, config)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	me := strconv.Itoa(os.Getpid())
	stats(me, "/etc/pmie.conf", pmiestats.Size)
	stats("999999999", "/etc/pmie.conf", pmiestats.Size) // no such process
	stats("1", "/etc/other.conf", pmiestats.Size)        // another file
	pids, err := PmieProcesses(tmp, "/etc/pmie.conf")
	if err != nil || len(pids) != 1 || pids[0] != me {
		t.Errorf("got %v, %v; want [%s]", pids, err, me)
	}
	stats(me, "/etc/pmie.conf", pmiestats.Size-4) // not pmie's size
	if pids, _ := PmieProcesses(tmp, "/etc/pmie.conf"); len(pids) != 0 {
		t.Errorf("got %v for a file of the wrong size", pids)
	}
	if pids, err := PmieProcesses(filepath.Join(tmp, "none"), "/etc/pmie.conf"); len(pids) != 0 || err != nil {
		t.Errorf("got %v, %v with no directory", pids, err)
	}
}

// TestRealpath checks the path glibc's realpath leaves when a component
// is missing.
func TestRealpath(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
	os.Symlink("file", filepath.Join(dir, "link"))
	tests := []struct {
		in, want string
		missing  bool
	}{
		{dir + "/file", dir + "/file", false},
		{dir + "/link", dir + "/file", false},
		{dir + "/./x/../file", dir + "/x", true},
		{dir + "/new.pmie", dir + "/new.pmie", true},
		{dir + "/sub/new.pmie", dir + "/sub", true},
	}
	for _, tc := range tests {
		got, err := Realpath(tc.in)
		if got != tc.want || (err != nil) != tc.missing {
			t.Errorf("Realpath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
