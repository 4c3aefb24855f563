package oneproc

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestOneProcessor builds a command that imports the package and checks
// the processors it runs on: one, unless $GOMAXPROCS says otherwise or
// the binary is named as go test names test binaries.
func TestOneProcessor(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "procs")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, "./testdata/procs")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	procs := func(bin string, env ...string) int {
		t.Helper()
		cmd := exec.Command(bin)
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "GOMAXPROCS=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", bin, err)
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err != nil {
			t.Fatalf("%s printed %q", bin, out)
		}
		return n
	}
	if n := procs(bin); n != 1 {
		t.Errorf("without $GOMAXPROCS: %d processors, want 1", n)
	}
	if n := procs(bin, "GOMAXPROCS=3"); n != 3 {
		t.Errorf("GOMAXPROCS=3: %d processors, want 3", n)
	}
	// this test binary, which the package leaves alone, shows whether
	// more than one processor is to be had
	if runtime.NumCPU() > 1 && runtime.GOMAXPROCS(0) > 1 {
		test := filepath.Join(dir, "procs.test")
		if err := os.Rename(bin, test); err != nil {
			t.Fatal(err)
		}
		if n := procs(test); n == 1 {
			t.Errorf("a test binary runs on 1 processor of %d", runtime.NumCPU())
		}
	}
}
