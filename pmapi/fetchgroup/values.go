package fetchgroup

import (
	"math"
	"strconv"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// errRange is -ERANGE, which libpcp gives for a string whose number is
// out of range of the type asked for.
const errRange = pmapi.Errno(-34)

// sentinel is the value libpcp leaves where there is none: all bits set
// for integers, NaN for floats, and for strings (a NULL pointer in C) the
// zero Atom of type TypeNoSupport.
func sentinel(t pmapi.Type) pmapi.Atom {
	switch t {
	case pmapi.Type32:
		return pmapi.I32(-1)
	case pmapi.TypeU32:
		return pmapi.U32(math.MaxUint32)
	case pmapi.Type64:
		return pmapi.I64(-1)
	case pmapi.TypeU64:
		return pmapi.U64(math.MaxUint64)
	case pmapi.TypeFloat:
		return pmapi.F32(float32(math.NaN()))
	case pmapi.TypeDouble:
		return pmapi.F64(math.NaN())
	}
	return pmapi.Atom{Type: pmapi.TypeNoSupport}
}

// IsNull reports whether a is the sentinel of a string value (libpcp's
// NULL).
func IsNull(a pmapi.Atom) bool { return a.Type == pmapi.TypeNoSupport }

// convert gives a, a value of a metric, as type out: pmExtractValue,
// with strings formatted from numbers and parsed into them.
func convert(a pmapi.Atom, out pmapi.Type) (pmapi.Atom, error) {
	switch {
	case a.Type.Numeric() && out == pmapi.TypeString:
		return pmapi.String(formatNumber(a)), nil
	case a.Type == pmapi.TypeString && out != pmapi.TypeString:
		return parseString(a.Str(), out)
	}
	v, err := a.Convert(out)
	if err != nil {
		return sentinel(out), err
	}
	return v, nil
}

// formatNumber writes a number as libpcp's fetchgroups turn one into a
// string: integers in decimal, floats as "%.9e", doubles as "%.17e".
func formatNumber(a pmapi.Atom) string {
	switch a.Type {
	case pmapi.Type32, pmapi.Type64:
		return strconv.FormatInt(a.Int64(), 10)
	case pmapi.TypeU32, pmapi.TypeU64:
		return strconv.FormatUint(a.Uint64(), 10)
	case pmapi.TypeFloat:
		return pmapi.FormatEPrec(float64(a.Float32()), 9)
	}
	return pmapi.FormatEPrec(a.Float64(), 17)
}

// cSpace is isspace(3) in the C locale.
func cSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// looksHex reports whether libpcp takes s for a hexadecimal number: an
// optional sign, "0x", then hex digits only.
func looksHex(s string) bool {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return r < 0x80 && cSpace(byte(r)) })
	s = strings.TrimPrefix(s, "-")
	if len(s) < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return false
	}
	for i := 2; i < len(s); i++ {
		c := s[i] | 0x20
		if !(s[i] >= '0' && s[i] <= '9') && !(c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// parseString reads a number of type out from s as libpcp does for
// fetchgroups (__pmStringValue): strtol and friends, base 16 for
// what looks hexadecimal, strtod for floats; anything after the number
// is PM_ERR_TYPE, and a number out of range -ERANGE.
func parseString(s string, out pmapi.Type) (pmapi.Atom, error) {
	base := 10
	hex := looksHex(s)
	if hex {
		base = 16
	}
	var (
		v    pmapi.Atom
		n    int
		over bool
	)
	switch out {
	case pmapi.Type32:
		x, k, o := pmapi.Strtoll(s, base)
		n, over = k, o || x > math.MaxInt32 || x < math.MinInt32
		v = pmapi.I32(int32(x))
	case pmapi.TypeU32:
		x, k, o := pmapi.Strtoull(s, base)
		n, over = k, o || x > math.MaxUint32
		v = pmapi.U32(uint32(x))
	case pmapi.Type64:
		x, k, o := pmapi.Strtoll(s, base)
		n, over, v = k, o, pmapi.I64(x)
	case pmapi.TypeU64:
		x, k, o := pmapi.Strtoull(s, base)
		n, over, v = k, o, pmapi.U64(x)
	case pmapi.TypeFloat, pmapi.TypeDouble:
		if hex {
			break
		}
		d, k, o := pmapi.ScanFloat(s)
		n, over = k, o
		if out == pmapi.TypeDouble {
			v = pmapi.F64(d)
		} else {
			over = o || math.Abs(d) < 0x1p-126 || math.Abs(d) > math.MaxFloat32
			v = pmapi.F32(float32(d))
		}
	default:
		return sentinel(out), pmapi.ErrType
	}
	switch {
	case n != len(s):
		return sentinel(out), pmapi.ErrType
	case over:
		return sentinel(out), errRange
	}
	return v, nil
}

// fromDouble gives v, a converted or rate value, as type out, with
// libpcp's range checks (__pmStuffDoubleValue) and C's conversions.
func fromDouble(v float64, out pmapi.Type) (pmapi.Atom, error) {
	switch out {
	case pmapi.Type32:
		if v > math.MaxInt32 || v < math.MinInt32 {
			return sentinel(out), pmapi.ErrTrunc
		}
		return pmapi.I32(pmapi.CInt32(v)), nil
	case pmapi.TypeU32:
		if v > math.MaxUint32 {
			return sentinel(out), pmapi.ErrTrunc
		} else if v < 0 {
			return sentinel(out), pmapi.ErrSign
		}
		return pmapi.U32(uint32(pmapi.CInt64(v))), nil
	case pmapi.Type64:
		if v > 0x1p63 || v < -0x1p63 {
			return sentinel(out), pmapi.ErrTrunc
		}
		return pmapi.I64(pmapi.CInt64(v)), nil
	case pmapi.TypeU64:
		if v > 0x1p64 {
			return sentinel(out), pmapi.ErrTrunc
		} else if v < 0 {
			return sentinel(out), pmapi.ErrSign
		}
		return pmapi.U64(pmapi.CUint64(v)), nil
	case pmapi.TypeFloat:
		if math.Abs(v) > math.MaxFloat32 {
			return sentinel(out), pmapi.ErrTrunc
		}
		return pmapi.F32(float32(v)), nil
	case pmapi.TypeDouble:
		return pmapi.F64(v), nil
	}
	return pmapi.String(pmapi.FormatEPrec(v, 17)), nil
}
