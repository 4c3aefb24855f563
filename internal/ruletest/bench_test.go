package ruletest

import (
	"path/filepath"
	"testing"
)

// BenchmarkRun100 is what pmietest does for a project of 100 tests (less
// starting the process): it reads the example test files, each once, and
// runs 100 tests from them, taking each file's tests in turn (the
// examples have fewer, so some run more than once).
func BenchmarkRun100(b *testing.B) {
	paths, _ := filepath.Glob("../../examples/tests/*.yaml")
	if len(paths) == 0 {
		b.Fatal("no example tests")
	}
	for b.Loop() {
		var files []*File
		for _, p := range paths {
			f, err := ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, f)
		}
		for n := 0; n < 100; n++ {
			f := files[n%len(files)]
			t := f.Tests[(n/len(files))%len(f.Tests)]
			if r := Run(f, t); !r.Passed() {
				b.Fatalf("%s: %s failed", f.Path, t.Name)
			}
		}
	}
}
