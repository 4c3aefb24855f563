//go:build linux

package local

import (
	"sync"
	"syscall"
	"unsafe"

	"github.com/gopcp/pmie/pmapi"
)

// statsFile is one file under /proc or /sys that is read again on every
// refresh. It keeps its descriptor open and reads from offset zero into a
// buffer it reuses, as the kernel regenerates these files on each read
// from the start, so a steady refresh allocates nothing.
type statsFile struct {
	path []byte // NUL-terminated, for openat
	fd   int    // -1 when closed
	buf  []byte
}

func newStatsFile(path string) statsFile {
	return statsFile{path: append([]byte(path), 0), fd: -1}
}

// read returns the whole current content of the file. The bytes stay
// valid until the next read.
func (f *statsFile) read() ([]byte, error) {
	for attempt := 0; ; attempt++ {
		if f.fd < 0 {
			fd, err := openZ(f.path, syscall.O_RDONLY)
			if err != nil {
				return nil, err
			}
			f.fd = fd
		}
		b, err := f.readAll()
		if err == nil {
			return b, nil
		}
		// A descriptor kept open across its device going away (a network
		// interface removed and added again, say) fails with ENODEV; open
		// the path afresh, once. Other errors, like the EINVAL of a speed
		// a device cannot tell, are the file's answer.
		if err != syscall.ENODEV || attempt > 0 {
			return nil, errnoOf(err)
		}
		f.close()
	}
}

func (f *statsFile) readAll() ([]byte, error) {
	if f.buf == nil {
		f.buf = make([]byte, 4096)
	}
	n := 0
	for {
		if n == len(f.buf) {
			f.buf = append(f.buf, make([]byte, len(f.buf))...)
		}
		m, err := syscall.Pread(f.fd, f.buf[n:], int64(n))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if m == 0 {
			return f.buf[:n], nil
		}
		n += m
	}
}

func (f *statsFile) close() {
	if f.fd >= 0 {
		syscall.Close(f.fd)
		f.fd = -1
	}
}

// openZ opens a NUL-terminated path without allocating.
func openZ(path []byte, flags int) (int, error) {
	for {
		fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, atFDCWD, uintptr(unsafe.Pointer(&path[0])),
			uintptr(flags|syscall.O_CLOEXEC), 0, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return -1, errnoOf(e)
		}
		return int(fd), nil
	}
}

// atFDCWD is AT_FDCWD as the uintptr syscall arguments take it.
const atFDCWD = ^uintptr(99) // -100

// errnos holds the PCP error code of each small errno, made once (when
// first needed, not by every process that links this package), so that
// reporting a failed read allocates nothing.
var errnos = sync.OnceValue(func() *[256]error {
	var t [256]error
	for i := range t {
		t[i] = pmapi.Errno(-int32(i))
	}
	return &t
})

// errnoOf turns an error from the syscall package into the PCP error code
// for it, so value sets carry errors pminfo can print as PCP does.
func errnoOf(err error) error {
	if e, ok := err.(syscall.Errno); ok {
		if t := errnos(); int(e) < len(t) {
			return t[e]
		}
		return pmapi.Errno(-int32(e))
	}
	return err
}

// bstr views b as a string without copying, for parsing and map lookups.
// The result must not be kept: b's storage is reused.
func bstr(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// nextLine splits the first line off b, without its newline.
func nextLine(b []byte) (line, rest []byte) {
	for i, c := range b {
		if c == '\n' {
			return b[:i], b[i+1:]
		}
	}
	return b, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// field splits the first whitespace-separated field off b, as sscanf's %s
// does.
func field(b []byte) (f, rest []byte) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	j := i
	for j < len(b) && !isSpace(b[j]) {
		j++
	}
	return b[i:j], b[j:]
}

// uintField parses the next whitespace-separated unsigned decimal off b,
// as sscanf's %llu does: ok is false when no digits come next. Overflow
// wraps, as it cannot happen for the counters the kernel prints.
func uintField(b []byte) (v uint64, rest []byte, ok bool) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	if i < len(b) && b[i] == '+' {
		i++
	}
	j := i
	for j < len(b) && isDigit(b[j]) {
		v = v*10 + uint64(b[j]-'0')
		j++
	}
	return v, b[j:], j > i
}

// uintFields parses up to len(dst) unsigned decimals off b into dst, and
// returns how many it found before the first that was not a number.
func uintFields(b []byte, dst []uint64) int {
	for i := range dst {
		v, rest, ok := uintField(b)
		if !ok {
			return i
		}
		dst[i] = v
		b = rest
	}
	return len(dst)
}

// atoi parses a leading optionally signed decimal as C's atoi does:
// leading space skipped, parsing stops at the first non-digit, and no
// digits give zero.
func atoi(b []byte) int64 {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	neg := false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var v int64
	for ; i < len(b) && isDigit(b[i]); i++ {
		v = v*10 + int64(b[i]-'0')
	}
	if neg {
		return -v
	}
	return v
}
