package archive

import (
	"testing"
	"unsafe"
)

// TestSlabBuf checks that buffers cut from slabs have the capacity asked
// for, lie each within one slab aligned on a huge page, never overlap,
// and cannot grow into one another; and that other sizes get buffers of
// their own.
func TestSlabBuf(t *testing.T) {
	const n = 256 << 10
	type span struct{ lo, hi uintptr }
	var got []span
	var bufs [][]byte
	for i := 0; i < 2*slabSize/n+3; i++ {
		b := slabBuf(n)
		if len(b) != 0 || cap(b) != n {
			t.Fatalf("buffer %d: len %d cap %d, want 0 and %d", i, len(b), cap(b), n)
		}
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(b[:1])))
		s := span{lo, lo + n}
		if lo/slabSize != (s.hi-1)/slabSize {
			t.Errorf("buffer %d crosses a slab boundary: %#x-%#x", i, s.lo, s.hi)
		}
		for j, o := range got {
			if s.lo < o.hi && o.lo < s.hi {
				t.Errorf("buffers %d and %d overlap", j, i)
			}
		}
		got = append(got, s)
		bufs = append(bufs, b[:n])
	}
	for i, b := range bufs {
		for k := range b {
			b[k] = byte(i)
		}
	}
	grown := append(bufs[0], 0xff)
	if &grown[0] == &bufs[0][0] {
		t.Error("a full buffer grew in place, over its neighbour")
	}
	for i, b := range bufs {
		for k, v := range b {
			if v != byte(i) {
				t.Fatalf("buffer %d byte %d is %d, written by another", i, k, v)
			}
		}
	}
	if b := slabBuf(300 << 10); cap(b) != 300<<10 {
		t.Errorf("a buffer of 300 KB has capacity %d", cap(b))
	}
}
