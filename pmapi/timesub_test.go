package pmapi

import (
	"math/rand"
	"testing"
)

// TestLongDoubleSeconds checks the integer rounding against math/big
// doing the same long double arithmetic (bigSeconds).
func TestLongDoubleSeconds(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	check := func(sec int64, nsec uint64) {
		if got, want := LongDoubleSeconds(sec, int64(nsec)), bigSeconds(sec, int64(nsec)); got != want {
			t.Fatalf("%d.%09d s: got %.20g, want %.20g", sec, nsec, got, want)
		}
	}
	for _, sec := range []int64{0, 1, 2, 3, 7, 10, 59, 60, 86400, 1 << 20, 1<<31 - 1, 1 << 33} {
		for _, nsec := range []uint64{0, 1, 2, 3, 499999999, 500000000, 500000001, 999999999, 1000, 100000000} {
			check(sec, nsec)
		}
	}
	for i := 0; i < 200000; i++ {
		check(rnd.Int63n(1<<uint(rnd.Intn(34))), uint64(rnd.Int63n(1e9)))
	}
}
