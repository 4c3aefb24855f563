package pmapi

import "math/big"

// SubSeconds is pmtimespecSub(3): t-u in seconds, worked out as libpcp
// does on x86-64, the nanoseconds divided in 80-bit long double and added
// to the seconds there before rounding to a double. The last bit of the
// result can differ from float64 arithmetic's, and rates divided by it
// then differ too.
func SubSeconds(t, u Time) float64 {
	sec, nsec := t.Sec()-u.Sec(), t.Nsec()-u.Nsec()
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
