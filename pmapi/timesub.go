package pmapi

import "math/big"

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
	if nsec == 0 {
		return float64(sec)
	}
	var x, y, billion big.Float
	x.SetPrec(64).SetInt64(nsec)
	billion.SetPrec(64).SetInt64(1e9)
	x.Quo(&x, &billion)
	y.SetPrec(64).SetInt64(sec)
	y.Add(&y, &x)
	f, _ := y.Float64()
	return f
}
