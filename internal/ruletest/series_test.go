package ruletest

import (
	"fmt"
	"math"
	"testing"
)

func TestParseSeries(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1 2 3", "[1 2 3]"},
		{"-2+4x3", "[-2 2 6 10]"},
		{" 1-2x4", "[1 -1 -3 -5 -7]"},
		{"1x4", "[1 1 1 1 1]"},
		{"1 _x3 2", "[1 _ _ _ 2]"},
		{"_ 5", "[_ 5]"},
		{"1e3+1.5e2x2", "[1000 1150 1300]"},
		{"0.1+0.1x2", "[0.1 0.2 0.30000000000000004]"},
		{"+5 -5x1", "[5 -5 -5]"},
		{"3+0x0", "[3]"},
		{"", "[]"},
		{"\t1\n2 ", "[1 2]"},
	} {
		got, err := ParseSeries(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if s := seriesText(got); s != c.want {
			t.Errorf("%q: got %s, want %s", c.in, s, c.want)
		}
	}
	for _, c := range []struct{ in, err string }{
		{"1 x3", `"x3" is not a value: expected a number, _, a+bxN, a-bxN, axN or _xN`},
		{"1+", `in "1+": "" is not a value: expected a number, _, a+bxN, a-bxN, axN or _xN`},
		{"1+2", `"1+2" has a step but no count: write 1+2xN`},
		{"1+2x-3", `"1+2x-3" is not a value: the count after x must be a whole number`},
		{"_y", `"_y" is not a value: expected a number, _, a+bxN, a-bxN, axN or _xN`},
		{"1x99999999999", `"1x99999999999" repeats too many times (at most 1048576)`},
		{"1x600000 1x600000", `"1x600000" makes the series too long (at most 1048576 values)`},
		{"stale", `"stale" is not a value: expected a number, _, a+bxN, a-bxN, axN or _xN`},
		{"1e400", `"1e400" is out of range`},
	} {
		_, err := ParseSeries(c.in)
		if err == nil || err.Error() != c.err {
			t.Errorf("%q: got error %v, want %s", c.in, err, c.err)
		}
	}
}

// seriesText prints values, _ for none.
func seriesText(vals []float64) string {
	s := "["
	for i, v := range vals {
		if i > 0 {
			s += " "
		}
		if math.IsNaN(v) {
			s += "_"
		} else {
			s += fmt.Sprint(v)
		}
	}
	return s + "]"
}

// FuzzParseSeries checks that expanding notation never panics, and that
// an error names a part of the text.
func FuzzParseSeries(f *testing.F) {
	for _, s := range []string{"1 2 3", "-2+4x3", "1 _x3 stale", "1e3+1.5e2x2", "_", "1-1x0", "x", "+", "1x", "1+2x3x4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vals, err := ParseSeries(s)
		if err != nil {
			se, ok := err.(*SeriesError)
			if !ok || se.Offset < 0 || se.End > len(s) || se.Offset >= se.End {
				t.Fatalf("%q: error %v does not name part of the text", s, err)
			}
			return
		}
		if len(vals) > maxSamples {
			t.Fatalf("%q: %d values", s, len(vals))
		}
	})
}
