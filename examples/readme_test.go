// Package examples holds the README's example files; its test checks that
// what the README names is there.
package examples

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoPath is a path in the repository as the README writes one: a
// package (./cmd/pmie) or a file or directory under one of these.
var repoPath = regexp.MustCompile(`(?:^|[\s\x60(\[])\.?/?((?:cmd|examples|testdata|scripts|internal|pmapi|\.ci)/[A-Za-z0-9_./@-]*[A-Za-z0-9_-])`)

// TestReadmePaths checks that every file, directory and package the
// README names exists (an archive by its base name), so that its
// commands can run as written.
func TestReadmePaths(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range repoPath.FindAllStringSubmatch(string(b), -1) {
		p := m[1]
		if strings.Contains(p, "...") {
			continue
		}
		n++
		if _, err := os.Stat(filepath.Join("..", p)); err != nil && !isArchive(p) {
			t.Errorf("the README names %s: %v", p, err)
		}
	}
	if n < 10 {
		t.Errorf("only %d paths found in the README", n)
	}
	if fi, err := os.Stat("page-oncall"); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("examples/page-oncall must be an executable program: %v %v", fi.Mode(), err)
	}
}

// isArchive reports whether p is the base name of a PCP archive.
func isArchive(p string) bool {
	_, err := os.Stat(filepath.Join("..", p+".meta"))
	return err == nil
}
