package rules

import (
	"math/big"

	"github.com/gopcp/pmie/pmapi"
)

// pmie keeps times as double seconds, converting from and to PCP's
// microsecond timestamps in x87 extended precision. These conversions
// reproduce its results to the last bit, with a 64-bit mantissa standing
// in for long double.

const extended = 64

// realTime converts a timestamp, truncated to microseconds, to seconds.
func realTime(t pmapi.Time) float64 {
	us := int64(t) / 1000
	if int64(t) < 0 && int64(t)%1000 != 0 {
		us--
	}
	sec, usec := us/1e6, us%1e6
	if usec < 0 {
		sec--
		usec += 1e6
	}
	// usec/1e6 and usec*1000/1e9 are one number, rounded once either way
	return pmapi.LongDoubleSeconds(sec, usec*1000)
}

// fromReal converts seconds to a timestamp rounded to the nearest
// microsecond.
func fromReal(s float64) pmapi.Time {
	sec := int64(s)
	d := new(big.Float).SetPrec(extended).SetFloat64(s - float64(sec))
	d.Mul(d, new(big.Float).SetPrec(extended).SetInt64(1e6))
	d.Add(d, new(big.Float).SetPrec(extended).SetFloat64(0.5))
	usec, _ := d.Int64()
	return pmapi.TimeOf(sec, usec*1000)
}
