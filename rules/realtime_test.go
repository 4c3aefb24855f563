package rules

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// TestRealTime checks realTime against sec + usec/1e6 worked out with a
// 64-bit mantissa, pmie's long double, over whole seconds (the common
// case in archives), random microseconds and times before 1970.
func TestRealTime(t *testing.T) {
	want := func(sec, usec int64) float64 {
		frac := new(big.Float).SetPrec(extended).SetInt64(usec)
		frac.Quo(frac, new(big.Float).SetPrec(extended).SetInt64(1e6))
		sum := new(big.Float).SetPrec(extended).SetInt64(sec)
		f, _ := sum.Add(sum, frac).Float64()
		return f
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		sec := r.Int64N(4e9) - 1e9
		usec := r.Int64N(1e6)
		if i%4 == 0 {
			usec = 0
		}
		ns := r.Int64N(1000) // below a microsecond: truncated
		got := realTime(pmapi.TimeOf(sec, usec*1000+ns))
		if w := want(sec, usec); got != w {
			t.Fatalf("realTime(%d s %d us) = %v, want %v", sec, usec, got, w)
		}
	}
}
