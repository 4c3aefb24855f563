package fetchgroup

import (
	"bufio"
	"os"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// FuzzParseString checks that any string converts to every numeric type
// without a panic, giving either a value of that type or one of the
// errors libpcp gives, and that a value's decimal form reads back the
// same.
func FuzzParseString(f *testing.F) {
	if fh, err := os.Open(goldenDir + "/strvalue.txt"); err == nil {
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			f.Add(unescape(sc.Text()))
		}
		fh.Close()
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, typ := range []pmapi.Type{pmapi.Type32, pmapi.TypeU32, pmapi.Type64, pmapi.TypeU64, pmapi.TypeFloat, pmapi.TypeDouble} {
			a, err := parseString(s, typ)
			switch {
			case err == nil && a.Type != typ:
				t.Fatalf("%q as %v gave a %v", s, typ, a.Type)
			case err != nil && err != pmapi.ErrType && err != errRange:
				t.Fatalf("%q as %v: unexpected error %v", s, typ, err)
			case err != nil:
				continue
			}
			if typ == pmapi.TypeFloat || typ == pmapi.TypeDouble {
				continue
			}
			back, err := parseString(formatNumber(a), typ)
			if err != nil || back != a {
				t.Fatalf("%q as %v = %v, which reads back as %v, %v", s, typ, a, back, err)
			}
		}
	})
}

// FuzzPrepare checks that any scale string gives a conversion or one of
// PM_ERR_CONV and PM_ERR_UNIT, never a panic, and that a conversion's
// output units have the metric's dimension.
func FuzzPrepare(f *testing.F) {
	for _, s := range []string{"", "rate", "instant", "Mbyte/sec", "count/min", "2 Kbyte", "sec/hour",
		"millisec/sec", "Kbyte/sec^2", "furlongs", "byte^-1", "/", "1e400 count", "nsec/nsec"} {
		f.Add(s)
	}
	units := []pmapi.Units{
		{DimSpace: 1, ScaleSpace: pmapi.SpaceKByte},
		{DimTime: 1, ScaleTime: pmapi.TimeMSec},
		{DimCount: 1},
		{},
		{DimSpace: 1, DimTime: -1, ScaleSpace: pmapi.SpaceByte, ScaleTime: pmapi.TimeSec},
	}
	f.Fuzz(func(t *testing.T, scale string) {
		for _, u := range units {
			d := pmapi.Desc{Type: pmapi.TypeU64, Sem: pmapi.SemCounter, Units: u, InDom: pmapi.InDomNull}
			c, err := prepare(d, scale, pmapi.TypeDouble)
			if err != nil {
				if err != pmapi.ErrConv && err != pmapi.ErrUnit {
					t.Fatalf("%q: unexpected error %v", scale, err)
				}
				continue
			}
			if c.unit && !c.out.SameDimension(u) {
				t.Fatalf("%q on %v: output units %v", scale, u, c.out)
			}
		}
	})
}
