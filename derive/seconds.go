package derive

import (
	"math"
	"math/bits"

	"github.com/gopcp/pmie/pmapi"
)

// This file computes an interval in seconds exactly as libpcp's
// pmtimespecToReal does on x86-64: tv_sec + (long double)tv_nsec / 1e9 in
// the 64-bit-mantissa long double arithmetic, rounded to a double. rate()
// divides by it, so its last bit shows in the results. The integer
// arithmetic here does the two long double roundings and the final one
// without allocating.

// longDoubleSeconds is d in seconds, rounded as libpcp rounds it.
func longDoubleSeconds(d pmapi.Time) float64 {
	sec, nsec := d.Sec(), uint64(d.Nsec())
	if sec < 0 {
		return pmapi.LongDoubleSeconds(sec, int64(nsec))
	}
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
