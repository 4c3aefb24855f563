package archive

import (
	"slices"
	"testing"
)

// TestHashOrder checks hashOrder against libpcp's hash table of
// instances: len(insts) buckets keyed by the instance number modulo
// their count, each walked from the instance added last.
func TestHashOrder(t *testing.T) {
	for _, tc := range []struct{ in, want []int32 }{
		{nil, nil},
		{[]int32{42}, []int32{42}},
		{[]int32{0, 1, 2, 3}, []int32{0, 1, 2, 3}},
		{[]int32{3, 2, 1, 0}, []int32{0, 1, 2, 3}},
		{[]int32{7, 1, 13}, []int32{13, 1, 7}},               // all in bucket 1
		{[]int32{5, 10, 2, 8, -1}, []int32{-1, 10, 5, 2, 8}}, // uint32(-1)%5 is 0
		{[]int32{1, 15, 5, 11, 14, 8}, []int32{1, 8, 14, 15, 11, 5}},
	} {
		if got := hashOrder(slices.Clone(tc.in)); !slices.Equal(got, tc.want) {
			t.Errorf("hashOrder(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
