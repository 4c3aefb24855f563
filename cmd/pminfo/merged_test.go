package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMergedOutput checks how output and messages interleave when one
// file is both standard output and standard error: as real pminfo's
// stdio leaves them, output in blocks of the file's size and each message
// at once (testdata/golden/pminfo-merged, made by its gen.sh).
func TestMergedOutput(t *testing.T) {
	dir, _ := filepath.Abs("../../testdata/golden/pminfo-merged")
	args, err := os.ReadFile(filepath.Join(dir, "args.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "merged.golden"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil || st.Blksize != 4096 {
		t.Skipf("the golden was made on a file system with 4096-byte blocks; this one's are %d", st.Blksize)
	}
	t.Chdir("../../testdata/archives")
	status := run(Env{
		Args:    append([]string{"pminfo"}, strings.Fields(string(args))...),
		Environ: []string{"PCP_DERIVED_CONFIG=", "TZ=UTC"},
		Stdout:  f,
		Stderr:  f,
		Open:    openSource,
		Derived: newDerived,
		LocalTZ: time.UTC,
	})
	got, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if status != 1 || string(got) != string(want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Errorf("exit %d (want 1); output differs from byte %d:\n got  %q\n want %q", status, i,
			got[i:min(len(got), i+60)], want[i:min(len(want), i+60)])
	}
}
