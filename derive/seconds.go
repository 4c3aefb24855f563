package derive

import "github.com/gopcp/pmie/pmapi"

// longDoubleSeconds is d in seconds exactly as libpcp's pmtimespecToReal
// does on x86-64: tv_sec + (long double)tv_nsec / 1e9 in the
// 64-bit-mantissa long double arithmetic, rounded to a double
// (pmapi.LongDoubleSeconds, which does it in integer arithmetic, without
// allocating). rate() divides by it, so its last bit shows in the
// results.
func longDoubleSeconds(d pmapi.Time) float64 {
	return pmapi.LongDoubleSeconds(d.Sec(), d.Nsec())
}
