//go:build linux

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// isTTY is isatty(3): whether f is a terminal (not merely a character
// device, as /dev/null is).
func isTTY(f *os.File) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
