package pmapi

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// goldenUnits is what testdata/golden/units/gen.c recorded from libpcp.
const goldenUnits = "../testdata/golden/units/units.golden"

// readGolden returns the tab-separated records of kind in the units golden
// file.
func readGolden(t *testing.T, kind string) [][]string {
	t.Helper()
	return readGoldenFile(t, goldenUnits, kind)
}

// readGoldenFile returns the tab-separated records of kind in path.
func readGoldenFile(t *testing.T, path, kind string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if fields[0] == kind {
			recs = append(recs, fields[1:])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatalf("no %s records in %s", kind, path)
	}
	return recs
}

func parseUnitsFields(t *testing.T, s string) Units {
	t.Helper()
	var v [6]int8
	if _, err := fmt.Sscan(s, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]); err != nil {
		t.Fatalf("bad units %q: %v", s, err)
	}
	return Units{v[0], v[1], v[2], v[3], v[4], v[5]}
}

func unitsFields(u Units) string {
	return fmt.Sprintf("%d %d %d %d %d %d", u.DimSpace, u.DimTime, u.DimCount, u.ScaleSpace, u.ScaleTime, u.ScaleCount)
}

// parseCFloat reads a number printed by C's %a (or nan/inf).
func parseCFloat(t *testing.T, s string) float64 {
	t.Helper()
	switch s {
	case "nan":
		return math.NaN()
	case "-nan":
		return math.Copysign(math.NaN(), -1)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("bad float %q: %v", s, err)
	}
	return f
}

// sameFloat is bit-for-bit equality, except that any NaN matches any NaN.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Float64bits(a) == math.Float64bits(b)
}

func TestParseUnitsGolden(t *testing.T) {
	recs := readGolden(t, "P")
	if len(recs) < 100 {
		t.Fatalf("only %d parse cases", len(recs))
	}
	for _, r := range recs {
		in := r[0]
		u, mult, err := ParseUnits(in)
		if r[1] == "ABORT" {
			// libpcp dies on an assertion; we must give an error
			if err == nil {
				t.Errorf("ParseUnits(%q) = %v, want an error (libpcp aborts)", in, u)
			}
			continue
		}
		sts, _ := strconv.Atoi(r[1])
		if sts < 0 {
			var ue *UnitsError
			if !errors.As(err, &ue) || ue.Msg != r[4] || Code(err) != Errno(sts) {
				t.Errorf("ParseUnits(%q) error = %v, want %q (%d)", in, err, r[4], sts)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseUnits(%q) failed: %v", in, err)
			continue
		}
		if got := unitsFields(u); got != r[2] {
			t.Errorf("ParseUnits(%q) = %s, want %s", in, got, r[2])
		}
		if want := parseCFloat(t, r[3]); !sameFloat(mult, want) {
			t.Errorf("ParseUnits(%q) multiplier = %x, want %x", in, mult, want)
		}
		want := ""
		if len(r) > 5 {
			want = r[5]
		}
		if got := u.String(); got != want {
			t.Errorf("String of ParseUnits(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnitsStringGolden(t *testing.T) {
	for _, r := range readGolden(t, "U") {
		u := parseUnitsFields(t, r[0])
		if got := u.String(); got != r[1] {
			t.Errorf("Units{%s}.String() = %q, want %q", r[0], got, r[1])
		}
		if r[2] == "-" {
			continue
		}
		back, mult, err := ParseUnits(r[1])
		if sts, _ := strconv.Atoi(r[2]); sts < 0 {
			if err == nil {
				t.Errorf("ParseUnits(%q) = %v, want error %d", r[1], back, sts)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseUnits(%q): %v", r[1], err)
			continue
		}
		if got := unitsFields(back); got != r[3] {
			t.Errorf("ParseUnits(%q) = %s, want %s", r[1], got, r[3])
		}
		if want := parseCFloat(t, r[4]); !sameFloat(mult, want) {
			t.Errorf("ParseUnits(%q) multiplier = %x, want %x", r[1], mult, want)
		}
	}
}

// goldenAtom reads a value of type typ as gen.c prints it.
func goldenAtom(t *testing.T, typ Type, s string) Atom {
	t.Helper()
	var err error
	var a Atom
	switch typ {
	case Type32:
		var v int64
		v, err = strconv.ParseInt(s, 10, 32)
		a = I32(int32(v))
	case TypeU32:
		var v uint64
		v, err = strconv.ParseUint(s, 10, 32)
		a = U32(uint32(v))
	case Type64:
		var v int64
		v, err = strconv.ParseInt(s, 10, 64)
		a = I64(v)
	case TypeU64:
		var v uint64
		v, err = strconv.ParseUint(s, 10, 64)
		a = U64(v)
	case TypeFloat:
		a = F32(float32(parseCFloat(t, s)))
	case TypeDouble:
		a = F64(parseCFloat(t, s))
	default:
		t.Fatalf("no golden values of type %v", typ)
	}
	if err != nil {
		t.Fatalf("bad %v value %q: %v", typ, s, err)
	}
	return a
}

func sameAtom(a, b Atom) bool {
	if a.Type != b.Type {
		return false
	}
	if a.Type == TypeFloat || a.Type == TypeDouble {
		return sameFloat(a.Float64(), b.Float64())
	}
	return a.num == b.num && a.str == b.str
}

func TestConvScaleGolden(t *testing.T) {
	for _, r := range readGolden(t, "C") {
		typ := Type(mustAtoi(t, r[0]))
		in := goldenAtom(t, typ, r[1])
		from, to := parseUnitsFields(t, r[2]), parseUnitsFields(t, r[3])
		got, err := ConvScale(in, from, to)
		switch r[4] {
		case "FPE": // libpcp divides by zero; we must give an error
			if err == nil {
				t.Errorf("ConvScale(%s, %s, %s) = %v, want an error", r[1], r[2], r[3], got)
			}
			continue
		case "0":
		default:
			if Code(err) != Errno(mustAtoi(t, r[4])) {
				t.Errorf("ConvScale(%s, %s, %s) error = %v, want %s", r[1], r[2], r[3], err, r[4])
			}
			continue
		}
		if err != nil {
			t.Errorf("ConvScale(%s %v, %s, %s): %v", r[1], typ, r[2], r[3], err)
			continue
		}
		if want := goldenAtom(t, typ, r[5]); !sameAtom(got, want) {
			t.Errorf("ConvScale(%s %v, %s, %s) = %v, want %v", r[1], typ, r[2], r[3], got, want)
		}
	}
}

func TestConvertGolden(t *testing.T) {
	for _, r := range readGolden(t, "X") {
		from, to := Type(mustAtoi(t, r[0])), Type(mustAtoi(t, r[2]))
		in := goldenAtom(t, from, r[1])
		got, err := in.Convert(to)
		if sts := mustAtoi(t, r[3]); sts != 0 {
			if Code(err) != Errno(sts) {
				t.Errorf("%s %v to %v: error %v, want %d", r[1], from, to, err, sts)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v to %v: %v", r[1], from, to, err)
			continue
		}
		if want := goldenAtom(t, to, r[4]); !sameAtom(got, want) {
			t.Errorf("%s %v to %v = %v, want %v", r[1], from, to, got, want)
		}
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
