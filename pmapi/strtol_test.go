package pmapi

import (
	"math"
	"testing"
)

func TestStrtol(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int64
		rest string
	}{
		{"", 0, ""}, {"x", 0, "x"}, {"-", 0, "-"}, {" 12x", 12, "x"}, {"+7,", 7, ","}, {"-3", -3, ""},
		{"99999999999999999999", math.MaxInt64, ""}, {"-99999999999999999999.", math.MinInt64, "."},
	} {
		if n, rest := Strtol(c.in); n != c.n || rest != c.rest {
			t.Errorf("Strtol(%q) = %d, %q; want %d, %q", c.in, n, rest, c.n, c.rest)
		}
	}
}
