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

func TestStrtolBase(t *testing.T) {
	for _, c := range []struct {
		in   string
		base int
		n    int64
		rest string
	}{
		{"", 0, 0, ""}, {"  ", 0, 0, "  "}, {" 1 ", 0, 1, " "}, {"0x10", 0, 16, ""}, {"0X1fg", 0, 31, "g"},
		{"0x", 0, 0, "x"}, {"0xg", 0, 0, "xg"}, {"010", 0, 8, ""}, {"08", 0, 0, "8"}, {"-0x10", 0, -16, ""},
		{"0x10", 16, 16, ""}, {"10", 16, 16, ""}, {"0x10", 10, 0, "x10"}, {"777", 8, 511, ""},
		{"0x8000000000000000", 0, math.MaxInt64, ""}, {"-0x8000000000000001", 0, math.MinInt64, ""},
	} {
		if n, rest := StrtolBase(c.in, c.base); n != c.n || rest != c.rest {
			t.Errorf("StrtolBase(%q, %d) = %d, %q; want %d, %q", c.in, c.base, n, rest, c.n, c.rest)
		}
	}
}

func TestAtoi(t *testing.T) {
	for in, want := range map[string]int{"": 0, "x": 0, " 12x": 12, "-3": -3, "4294967298": 2,
		"2147483648": -2147483648, "99999999999999999999": -1, "-99999999999999999999": 0} {
		if got := Atoi(in); got != want {
			t.Errorf("Atoi(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestStrtollStrtoull(t *testing.T) {
	for _, c := range []struct {
		in     string
		base   int
		l      int64
		lRange bool
		u      uint64
		uRange bool
		n      int
	}{
		{" +", 10, 0, false, 0, false, 0},
		{" 12x", 10, 12, false, 12, false, 3},
		{"-1", 10, -1, false, math.MaxUint64, false, 2},
		{"9223372036854775808", 10, math.MaxInt64, true, 1 << 63, false, 19},
		{"-9223372036854775808", 10, math.MinInt64, false, 1 << 63, false, 20},
		{"-9223372036854775809", 10, math.MinInt64, true, 1<<63 - 1, false, 20},
		{"18446744073709551616", 10, math.MaxInt64, true, math.MaxUint64, true, 20},
		{"-18446744073709551616", 10, math.MinInt64, true, math.MaxUint64, true, 21},
		{"0xffffffffffffffff", 16, math.MaxInt64, true, math.MaxUint64, false, 18},
		{"0x", 16, 0, false, 0, false, 1},
	} {
		l, n, r := Strtoll(c.in, c.base)
		if l != c.l || n != c.n || r != c.lRange {
			t.Errorf("Strtoll(%q, %d) = %d, %d, %v; want %d, %d, %v", c.in, c.base, l, n, r, c.l, c.n, c.lRange)
		}
		u, n, r := Strtoull(c.in, c.base)
		if u != c.u || n != c.n || r != c.uRange {
			t.Errorf("Strtoull(%q, %d) = %d, %d, %v; want %d, %d, %v", c.in, c.base, u, n, r, c.u, c.n, c.uRange)
		}
	}
}
