package pmapi

import (
	"encoding/hex"
	"math"
	"strings"
	"testing"
	"time"
)

const goldenFormat = "../testdata/golden/format/format.golden"

func TestFormatValueGolden(t *testing.T) {
	recs := readGoldenFile(t, goldenFormat, "V")
	for _, r := range recs {
		typ := Type(mustAtoi(t, r[0]))
		width := mustAtoi(t, r[1])
		var a Atom
		switch {
		case typ.Numeric():
			a = goldenAtom(t, typ, r[2])
		default:
			b, err := hex.DecodeString(r[2])
			if err != nil {
				t.Fatal(err)
			}
			if typ == TypeString {
				a = String(strings.TrimSuffix(string(b), "\x00"))
			} else {
				a = Blob(typ, string(b))
			}
		}
		want := strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(r[3])
		if got := FormatValue(a, width, time.UTC); got != want {
			t.Errorf("FormatValue(%v %s, %d) = %q, want %q", typ, r[2], width, got, want)
		}
	}
}

func TestFormatG(t *testing.T) {
	for _, c := range []struct {
		v    float64
		prec int
		want string
	}{
		{0, 8, "0"},
		{100, 8, "100"},
		{1e8, 8, "1e+08"},
		{99999999.5, 8, "1e+08"},
		{0.0001, 8, "0.0001"},
		{0.00001, 8, "1e-05"},
		{123.456, 2, "1.2e+02"},
		{1e300, 16, "1e+300"},
		{-2.5, 16, "-2.5"},
	} {
		if got := FormatG(c.v, c.prec); got != c.want {
			t.Errorf("FormatG(%v, %d) = %q, want %q", c.v, c.prec, got, c.want)
		}
	}
}

// TestFormatMismatch checks pmPrintValue's fallback form for values
// stored otherwise than their descriptors say (as real pminfo printed
// them for testdata/archives/conform/mismatch-v2).
func TestFormatMismatch(t *testing.T) {
	for _, c := range []struct {
		a     Atom
		width int
		want  string
	}{
		{Mismatch(true, 7, ""), 0, "7 9.8090893e-45 0x7"},
		{Mismatch(true, 4000000000, ""), 0, "4000000000 -1.8194334e+28 0xee6b2800"},
		{Mismatch(true, 0x7fc00000, ""), 0, "2143289344 0x7fc00000"}, // a NaN as a float is left out
		{Mismatch(true, 7, ""), 6, "     7 9.8090893e-45 0x   7"},
		{Mismatch(false, 0, "\x01\x00\x00\x00\x00\x00\x00\x00"), 0, "1 4.940656458412465e-324 [0100000000000000]"},
		{Mismatch(false, 0, "hello\x00"), 0, "[68656c6c6f00]"},
		{Mismatch(false, 0, "\x00\x00\xc0\x3f"), 0, "1.5 [0000c03f]"},
	} {
		if got := FormatValue(c.a, c.width, nil); got != c.want {
			t.Errorf("FormatValue(%v, %d) = %q, want %q", c.a, c.width, got, c.want)
		}
		if !math.IsNaN(c.a.Float64()) {
			t.Errorf("%v: Float64 is a number", c.a)
		}
	}
}
