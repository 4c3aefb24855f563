package cstdio

import (
	"os"
	"syscall"
	"unsafe"
)

// IsTerminal is isatty(3): whether f is a terminal (not merely a
// character device, as /dev/null is).
func IsTerminal(f *os.File) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}

// blockSize is f's st_blksize, 0 if unknown.
func blockSize(f *os.File) int {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return 0
	}
	return int(st.Blksize)
}
