package fetchgroup

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

const goldenDir = "../../testdata/golden/fetchgroup"

var typeNames = map[string]pmapi.Type{
	"32": pmapi.Type32, "U32": pmapi.TypeU32, "64": pmapi.Type64, "U64": pmapi.TypeU64,
	"FLOAT": pmapi.TypeFloat, "DOUBLE": pmapi.TypeDouble,
}

// unescape undoes the \xNN escapes of strvalue.txt.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && s[i+1] == 'x' {
			if v, err := strconv.ParseUint(s[i+2:i+4], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// formatAtom prints a as strvalue.py prints a pmAtomValue of type t.
func formatAtom(a pmapi.Atom, t pmapi.Type) string {
	switch t {
	case pmapi.Type32, pmapi.Type64:
		return fmt.Sprint(a.Int64())
	case pmapi.TypeU32, pmapi.TypeU64:
		return fmt.Sprint(a.Uint64())
	case pmapi.TypeFloat:
		return pmapi.FormatG(float64(a.Float32()), 9)
	}
	return pmapi.FormatG(a.Float64(), 17)
}

// TestParseStringGolden compares parseString with libpcp's
// __pmStringValue on every line of strvalue.golden.
func TestParseStringGolden(t *testing.T) {
	b, err := os.ReadFile(goldenDir + "/strvalue.golden")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	same := 0
	for _, line := range lines {
		f := strings.Split(line, "\t")
		n := len(f)
		in := unescape(strings.Join(f[:n-3], "\t"))
		typ := typeNames[f[n-3]]
		v, err := parseString(in, typ)
		sts, out := "0", formatAtom(v, typ)
		if err != nil {
			sts, out = strconv.Itoa(int(pmapi.Code(err))), "-"
		}
		if sts != f[n-2] || out != f[n-1] {
			t.Errorf("%q as %s: got %s %s, libpcp %s %s", in, f[n-3], sts, out, f[n-2], f[n-1])
			continue
		}
		same++
	}
	t.Logf("%d of %d conversions as libpcp's", same, len(lines))
}

// TestFromDouble checks the range checks and C conversions of a
// converted value to each type.
func TestFromDouble(t *testing.T) {
	for _, c := range []struct {
		v    float64
		typ  pmapi.Type
		want string
		err  error
	}{
		{2147483647, pmapi.Type32, "2147483647", nil},
		{2147483647.5, pmapi.Type32, "", pmapi.ErrTrunc},
		{-2147483648, pmapi.Type32, "-2147483648", nil},
		{-2147483648.5, pmapi.Type32, "", pmapi.ErrTrunc},
		{-7.9, pmapi.Type32, "-7", nil},
		{-1, pmapi.TypeU32, "", pmapi.ErrSign},
		{4294967295, pmapi.TypeU32, "4294967295", nil},
		{math.NaN(), pmapi.Type32, "-2147483648", nil},
		{4294967296, pmapi.TypeU32, "", pmapi.ErrTrunc},
		{0x1p63, pmapi.Type64, "-9223372036854775808", nil},
		{0x1p64, pmapi.TypeU64, "0", nil},
		{0x1.0000000000001p64, pmapi.TypeU64, "", pmapi.ErrTrunc},
		{1e39, pmapi.TypeFloat, "", pmapi.ErrTrunc},
		{-1.5, pmapi.TypeFloat, "-1.5", nil},
		{0.1, pmapi.TypeString, `"1.00000000000000006e-01"`, nil},
	} {
		a, err := fromDouble(c.v, c.typ)
		got := formatAtom(a, c.typ)
		if c.typ == pmapi.TypeString {
			got = strconv.Quote(a.Str())
		}
		if err != c.err || (err == nil && got != c.want) {
			t.Errorf("fromDouble(%v, %v) = %s, %v; want %s, %v", c.v, c.typ, got, err, c.want, c.err)
		}
	}
}

// TestFormatNumber checks numbers made strings as libpcp's fetchgroups
// write them.
func TestFormatNumber(t *testing.T) {
	for _, c := range []struct {
		a    pmapi.Atom
		want string
	}{
		{pmapi.I32(-5), "-5"},
		{pmapi.U32(4294967295), "4294967295"},
		{pmapi.I64(-9223372036854775808), "-9223372036854775808"},
		{pmapi.U64(18446744073709551615), "18446744073709551615"},
		{pmapi.F32(3.36), "3.359999895e+00"},
		{pmapi.F64(1e300), "1.00000000000000005e+300"},
		{pmapi.F64(math.Copysign(0, -1)), "-0.00000000000000000e+00"},
	} {
		if got := formatNumber(c.a); got != c.want {
			t.Errorf("formatNumber(%v) = %s, want %s", c.a, got, c.want)
		}
	}
}
