package hugeheap

import (
	"syscall"
	"unsafe"
)

const (
	// arenaSize is the size and alignment of the runtime's heap arenas
	// on 64-bit Linux (its heapArenaBytes): the heap grows within the
	// first one reserved, 4 MB at a time.
	arenaSize = 64 << 20
	// hugeSize is a huge page's size (x86-64, and arm64 with 4 KB pages).
	hugeSize = 2 << 20
	// madvCollapse is MADV_COLLAPSE (Linux 6.1), which syscall lacks.
	madvCollapse = 25
)

// probe is an object of the heap, allocated when the package is
// initialised: where the heap is, and how far the runtime has used it.
var probe *[64]byte

// arena is the start of the arena advised, 0 if none.
var arena uintptr

func init() {
	if unsafe.Sizeof(uintptr(0)) != 8 || disabled(getenv("GODEBUG")) {
		return
	}
	probe = new([64]byte)
	p := uintptr(unsafe.Pointer(probe))
	arena = p &^ (arenaSize - 1)
	// The arena is mapped where the heap has grown and reserved
	// (inaccessible) beyond: the advice holds for both, and for the
	// heap's growth into the reserve until the runtime maps it anew.
	madvise(arena, arenaSize, syscall.MADV_HUGEPAGE)
	// The heap's first 4 MB (a chunk the runtime maps at once, aligned
	// on its size) up to the huge page holding probe: the runtime
	// started allocating at its start.
	chunk := p &^ (2*hugeSize - 1)
	for at := chunk; at <= p; at += hugeSize {
		madvise(at, hugeSize, madvCollapse)
	}
}

func stop() {
	if arena != 0 {
		madvise(arena, arenaSize, syscall.MADV_NOHUGEPAGE)
	}
}

// disabled reports whether a GODEBUG value sets disablethp to a number
// other than 0, as the runtime reads it: the last setting that is a
// number holds.
func disabled(godebug string) bool {
	on := false
	for godebug != "" {
		kv := godebug
		godebug = ""
		for i := 0; i < len(kv); i++ {
			if kv[i] == ',' {
				kv, godebug = kv[:i], kv[i+1:]
				break
			}
		}
		const key = "disablethp="
		if len(kv) <= len(key) || kv[:len(key)] != key {
			continue
		}
		n, ok := 0, true
		for _, c := range []byte(kv[len(key):]) {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			n = n*10 + int(c-'0')
		}
		if ok {
			on = n != 0
		}
	}
	return on
}

// getenv is os.Getenv; the package imports no more than syscall, so as
// to be initialised as early as can be, before the packages that
// allocate.
func getenv(k string) string {
	v, _ := syscall.Getenv(k)
	return v
}

// madvise gives advice on memory that need not be one Go object (nor
// mapped throughout: Linux applies it to what is, and advice that is not
// followed changes nothing), so it is made from addresses.
func madvise(addr, n uintptr, advice int) {
	syscall.Syscall(syscall.SYS_MADVISE, addr, n, uintptr(advice))
}
