//go:build linux

package local

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// copyFixture copies the fixture tree somewhere the test may change it.
func copyFixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(fixtureRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(fixtureRoot, path)
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, to)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func instNames(t *testing.T, c *Context, indom uint32) string {
	t.Helper()
	insts, err := c.InDom(pmapi.NewInDom(60, indom))
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, in := range insts {
		parts = append(parts, strconv.Itoa(int(in.ID))+":"+in.Name)
	}
	return strings.Join(parts, " ")
}

// TestInstancesComeAndGo checks that devices keep their instance numbers
// as others come and go, that a device that goes away drops out of its
// instance domain, and that one coming back gets its old number.
func TestInstancesComeAndGo(t *testing.T) {
	root := copyFixture(t)
	c, err := Open(Options{Root: root, Hostname: "fixture", Hertz: 100, Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	write := func(path, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, path), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(indom uint32, want string) {
		t.Helper()
		if got := instNames(t, c, indom); got != want {
			t.Errorf("instances of 60.%d = %s, want %s", indom, got, want)
		}
	}
	netHead := "Inter-|   Receive\n face |bytes\n"
	netLine := func(name string) string { return "  " + name + ": 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n" }

	check(3, "0:lo 1:ifb0 2:eth0 3:docker0")
	write("proc/net/dev", netHead+netLine("lo")+netLine("eth0")+netLine("wlan0")+netLine("docker0"))
	check(3, "0:lo 2:eth0 3:docker0 4:wlan0")
	write("proc/net/dev", netHead+netLine("ifb0")+netLine("lo")+netLine("eth0"))
	check(3, "0:lo 1:ifb0 2:eth0")

	diskLine := func(name string) string { return "   8       0 " + name + " 1 2 3 4 5 6 7 8 9 10 11\n" }
	check(1, "0:vda 1:nvme0n1 2:sda")
	write("proc/diskstats", diskLine("sdb")+diskLine("sdb1")+diskLine("vda"))
	check(1, "0:vda 3:sdb")

	// cpu1 goes offline, so its line leaves /proc/stat.
	stat, _ := os.ReadFile(filepath.Join(root, "proc/stat"))
	var kept []string
	for _, line := range strings.Split(string(stat), "\n") {
		if !strings.HasPrefix(line, "cpu1 ") {
			kept = append(kept, line)
		}
	}
	write("proc/stat", strings.Join(kept, "\n"))
	check(0, "0:cpu0 3:cpu3")

	check(5, "0:/dev/vda 1:/dev/nvme0n1p1 2:/dev/mapper/vg-home 3:/dev/sr0")
	write("proc/self/mounts", "/dev/sdb1 / ext4 rw 0 0\n/dev/vda /old ext4 rw 0 0\n")
	check(5, "0:/dev/vda 4:/dev/sdb1")
}
