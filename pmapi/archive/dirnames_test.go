package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestNamesWithPrefix checks the names read from a directory of more
// entries than one read holds, with names of every length, against
// os.File.Readdirnames.
func TestNamesWithPrefix(t *testing.T) {
	dir := t.TempDir()
	for i := range 3000 {
		name := fmt.Sprintf("%s.%d", "abcdefghijklmnopqrstuvwxyz"[:1+i%26], i)
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, prefix := range []string{"abc.", "a.", "abcdefghijklmnopqrstuvwxyz.", "x", "."} {
		d, err := os.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := namesWithPrefix(d, prefix)
		d.Close()
		if err != nil {
			t.Fatal(err)
		}
		all, _ := os.ReadDir(dir)
		var want []string
		for _, e := range all {
			if len(e.Name()) >= len(prefix) && e.Name()[:len(prefix)] == prefix {
				want = append(want, e.Name())
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("prefix %q: %d names, want %d", prefix, len(got), len(want))
		}
	}
}
