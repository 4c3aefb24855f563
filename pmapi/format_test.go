package pmapi

import (
	"encoding/hex"
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
