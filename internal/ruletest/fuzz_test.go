package ruletest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse checks that reading a test file never panics, and that every
// problem has a position within the file (or none).
func FuzzParse(f *testing.F) {
	for _, pat := range []string{"testdata/bad/*.yaml", "testdata/fail/*.yaml", "../../examples/tests/*.yaml"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// in testdata, so that rule_files patterns find what they find
		_, diags := Parse("testdata/fuzz.yaml", data)
		for _, d := range diags {
			if d.Span.Start.IsValid() && d.Span.Start.Offset > len(data) {
				t.Fatalf("diagnostic past the end: %v", d)
			}
			if strings.Contains(d.Msg, "internal error") {
				t.Fatalf("%v", d)
			}
		}
	})
}
