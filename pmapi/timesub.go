package pmapi

import (
	"math"
	"math/big"
	"math/bits"
)

// SubSeconds is pmtimespecSub(3): t-u in seconds, worked out as libpcp
// does on x86-64 (see LongDoubleSeconds). The last bit of the result can
// differ from float64 arithmetic's, and rates divided by it then differ
// too.
func SubSeconds(t, u Time) float64 {
	return LongDoubleSeconds(t.Sec()-u.Sec(), t.Nsec()-u.Nsec())
}

// LongDoubleSeconds is sec + nsec/1e9 as libpcp computes an interval from
// the differences of seconds and nanoseconds (nsec may be negative): the
// nanoseconds divided in 80-bit long double, added to the seconds there,
// and the sum rounded to a double.
func LongDoubleSeconds(sec, nsec int64) float64 {
	switch {
	case nsec == 0:
		return float64(sec)
	case sec >= 0 && nsec > 0 && nsec < 1e9:
		return positiveSeconds(sec, uint64(nsec))
	}
	return bigSeconds(sec, nsec)
}

// bigSeconds is LongDoubleSeconds in math/big's 64-bit-mantissa
// arithmetic, for any sec and nsec.
func bigSeconds(sec, nsec int64) float64 {
	var x, y, billion big.Float
	x.SetPrec(64).SetInt64(nsec)
	billion.SetPrec(64).SetInt64(1e9)
	x.Quo(&x, &billion)
	y.SetPrec(64).SetInt64(sec)
	y.Add(&y, &x)
	f, _ := y.Float64()
	return f
}

// positiveSeconds is LongDoubleSeconds for sec >= 0 and 0 <= nsec < 1e9,
// in integer arithmetic: the two long double roundings and the final one,
// without allocating.
func positiveSeconds(sec int64, nsec uint64) float64 {
	// q = nsec/1e9 rounded to 64 bits, as qm * 2^(qe-64) with qm in
	// [2^63, 2^64): 2^(qe-1) <= nsec/1e9 < 2^qe, and qe <= 0
	var qm uint64
	var qe int
	if nsec != 0 {
		l := bits.Len64(nsec) // nsec < 1e9 < 2^30
		qe = l - 30
		if nsec<<uint(30-l) >= 1e9 {
			qe++
		}
		// nsec * 2^(64-qe) / 1e9: the high word nsec * 2^-qe is below 1e9
		q, r := bits.Div64(nsec<<uint(-qe), 0, 1e9)
		q, carry := roundEven(q, 2*r > 1e9 || 2*r == 1e9 && q&1 == 1)
		if carry {
			q, qe = 1<<63, qe+1
		}
		qm = q
	}
	// s = sec + q rounded to 64 bits, as m * 2^(e-64)
	m, e := qm, qe
	if sec > 0 {
		l := bits.Len64(uint64(sec))
		m, e = uint64(sec)<<uint(64-l), l
		// q in units of m's last bit is qm / 2^shift; below half a unit
		// when shift > 64
		if shift := uint(l - qe); qm != 0 && shift <= 64 {
			add, rem, half := uint64(0), qm, uint64(1)<<63
			if shift < 64 {
				add, rem, half = qm>>shift, qm&(1<<shift-1), 1<<(shift-1)
			}
			var carry bool
			m, carry = roundEven(m+add, rem > half || rem == half && (m+add)&1 == 1)
			if carry {
				m, e = 1<<63, e+1
			}
		}
	}
	if m == 0 {
		return 0
	}
	// the double: m's top 53 bits, rounded to nearest, ties to even
	rem := m & 0x7ff
	f, _ := roundEven(m>>11, rem > 0x400 || rem == 0x400 && (m>>11)&1 == 1)
	return math.Ldexp(float64(f), e-53)
}

// roundEven adds 1 to v when up, reporting a carry out of 64 bits.
func roundEven(v uint64, up bool) (uint64, bool) {
	if !up {
		return v, false
	}
	v++
	return v, v == 0
}
