package goldenfile

import (
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	vars := map[string]string{"LOG": "/tmp/x.log", "A": "a b"}
	for in, want := range map[string][]string{
		"-S '' -c f":        {"-S", "", "-c", "f"},
		"  a\t b  ":         {"a", "b"},
		`-l $LOG "$A" '$A'`: {"-l", "/tmp/x.log", "a b", "$A"},
		"--start= x":        {"--start=", "x"},
		"x'y z'w":           {"xy zw"},
		"'open":             {"open"},
		"$B":                {""},
		`"" ''`:             {"", ""},
	} {
		if got := Words(in, vars); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}
