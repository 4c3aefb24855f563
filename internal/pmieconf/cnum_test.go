package pmieconf

import (
	"os"
	"path/filepath"
	"testing"
)

// The expected values are glibc's (strtod, strtol, strtoul, "%g").

func TestStrtod(t *testing.T) {
	tests := []struct {
		in   string
		used int
		g    string
	}{
		{"", 0, "0"}, {" 4", 2, "4"}, {"4 ", 1, "4"}, {"2.50", 4, "2.5"},
		{"1e3", 3, "1000"}, {"1e", 1, "1"}, {"1e+", 1, "1"}, {".5", 2, "0.5"},
		{"5.", 2, "5"}, {".", 0, "0"}, {"-", 0, "0"}, {"+1", 2, "1"},
		{"0x10", 4, "16"}, {"0x1.8p1", 7, "3"}, {"0x", 1, "0"}, {"0xg", 1, "0"},
		{"inf", 3, "inf"}, {"-Infinity", 9, "-inf"}, {"nan", 3, "nan"},
		{"nan(12)", 7, "nan"}, {"nan(", 3, "nan"}, {"1e400", 5, "inf"},
		{"1e-400", 6, "0"}, {"123456789", 9, "1.23457e+08"}, {"0.0001", 6, "0.0001"},
		{"0.00001", 7, "1e-05"}, {"3.14159265", 10, "3.14159"}, {"-0", 2, "-0"},
	}
	for _, tc := range tests {
		v, n := strtod(tc.in)
		if n != tc.used || cG(v) != tc.g {
			t.Errorf("strtod(%q) = %s, %d; want %s, %d", tc.in, cG(v), n, tc.g, tc.used)
		}
	}
}

func TestStrtol(t *testing.T) {
	tests := []struct {
		in    string
		l     int64
		lused int
		u     uint64
		uused int
	}{
		{"", 0, 0, 0, 0},
		{" 12", 12, 3, 12, 3},
		{"-7", -7, 2, 18446744073709551609, 2},
		{"+3", 3, 2, 3, 2},
		{"99999999999999999999", 9223372036854775807, 20, 18446744073709551615, 20},
		{"-99999999999999999999", -9223372036854775808, 21, 18446744073709551615, 21},
		{"1.5", 1, 1, 1, 1},
		{"x", 0, 0, 0, 0},
		{" -1", -1, 3, 18446744073709551615, 3},
		{"18446744073709551615", 9223372036854775807, 20, 18446744073709551615, 20},
		{"18446744073709551616", 9223372036854775807, 20, 18446744073709551615, 20},
		{"-0", 0, 2, 0, 2},
	}
	for _, tc := range tests {
		if l, n := strtol(tc.in); l != tc.l || n != tc.lused {
			t.Errorf("strtol(%q) = %d, %d; want %d, %d", tc.in, l, n, tc.l, tc.lused)
		}
		if u, n := strtoul(tc.in); u != tc.u || n != tc.uused {
			t.Errorf("strtoul(%q) = %d, %d; want %d, %d", tc.in, u, n, tc.u, tc.uused)
		}
	}
}

func TestPmieList(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a", ":'a'"},
		{"a b", ":'a' :'b'"},
		{"  a", " ' :'a'"}, // as pmieconf writes it
		{"'a b' c", ":'a b' :'c'"},
		{"a'b", ":'a'b'"},
	}
	for _, tc := range tests {
		if got := pmieList(tc.in, ':'); got != tc.want {
			t.Errorf("pmieList(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestInstalledTemplates parses each template installed with PCP.
func TestInstalledTemplates(t *testing.T) {
	const dir = "/var/lib/pcp/config/pmieconf"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no installed templates")
	}
	n := 0
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			return nil
		}
		f, err := ParseFile(path, src)
		if err != nil {
			t.Errorf("%v", err)
		}
		if f != nil {
			n++
		}
		return nil
	})
	if n == 0 {
		t.Error("no rules files found")
	}
}
