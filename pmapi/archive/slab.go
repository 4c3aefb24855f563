package archive

import (
	"sync"
	"unsafe"
)

// The windows of a file several contexts read through (shared.go) are
// read into once each, at once, in full: for pmieconf's rules on a long
// archive, some ten windows of maxWindow, each page of them first
// touched by the read that fills it. A first touch costs a page fault,
// and in a virtual machine a dear one (measured here: the ~600 faults of
// those windows were about an eighth of such a run's CPU time). So the
// buffers of shared windows are cut from slabs of one huge page each,
// which the kernel is asked to back with a huge page (one fault for the
// slab) where transparent huge pages are enabled for those who ask.
// Slabs are ordinary memory of the heap, so a buffer outliving its file
// is as safe as any other slice.

// slabSize is a huge page's size (2 MB on x86-64 and arm64), a multiple
// of maxWindow.
const slabSize = 2 << 20

// slabs holds what is left of the slab buffers are cut from.
var slabs struct {
	mu   sync.Mutex
	rest []byte
}

// slabBuf returns an empty buffer of capacity n cut from a slab, for n
// a divisor of slabSize; else a buffer of its own.
func slabBuf(n int) []byte {
	if n <= 0 || slabSize%n != 0 {
		return make([]byte, 0, n)
	}
	slabs.mu.Lock()
	defer slabs.mu.Unlock()
	if len(slabs.rest) < n {
		// twice the size, to find a slab aligned on a huge page within
		// it (the half not used is never touched, so never resident)
		b := make([]byte, 2*slabSize)
		at := int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) % slabSize)
		skip := (slabSize - at) % slabSize
		slabs.rest = b[skip : skip+slabSize : skip+slabSize]
		adviseHuge(slabs.rest)
	}
	b := slabs.rest[:0:n]
	slabs.rest = slabs.rest[n:]
	return b
}
