package ruletest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata (ours, not PCP's)")

// golden compares got with the file golden, or rewrites it with -update.
func golden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s: got\n%s\nwant\n%s", file, got, want)
	}
}

// goldenEach runs out on each test file of dir, comparing what it gives
// with the file's golden (its name with .golden for .yaml).
func goldenEach(t *testing.T, dir string, out func(t *testing.T, path string) string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) == 0 {
		t.Fatalf("no test files in %s", dir)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			golden(t, strings.TrimSuffix(path, ".yaml")+".golden", out(t, path))
		})
	}
}

// TestBadFiles checks the problems reported in bad test files: each
// with file:line:col, the line and a caret.
func TestBadFiles(t *testing.T) {
	goldenEach(t, "testdata/bad", func(t *testing.T, path string) string {
		_, err := ReadFile(path)
		if err == nil {
			t.Fatal("accepted")
		}
		return err.Error() + "\n"
	})
}

// TestFailures checks how failing tests are reported.
func TestFailures(t *testing.T) {
	goldenEach(t, "testdata/fail", func(t *testing.T, path string) string {
		s := RunFile(path, nil)
		if s.Problem != nil {
			t.Fatal(s.Problem)
		}
		var b bytes.Buffer
		if WriteText(&b, []*Suite{s}, false) == 0 {
			t.Error("no test failed")
		}
		return b.String()
	})
}

// passingFiles are the test files whose tests pass: the examples, and
// testdata/pass.
func passingFiles(t *testing.T) []string {
	examples, _ := filepath.Glob("../../examples/tests/*.yaml")
	more, _ := filepath.Glob("testdata/pass/*.yaml")
	if len(examples) < 5 || len(more) == 0 {
		t.Fatalf("only %d example test files, and %d more", len(examples), len(more))
	}
	return append(examples, more...)
}

// TestExamples runs the example tests (and those of testdata/pass),
// which must pass.
func TestExamples(t *testing.T) {
	files := passingFiles(t)
	var suites []*Suite
	for _, path := range files {
		suites = append(suites, RunFile(path, nil))
	}
	var b bytes.Buffer
	if WriteText(&b, suites, false) != 0 {
		t.Error(b.String())
	}
}
