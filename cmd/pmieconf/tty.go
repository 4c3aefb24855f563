//go:build linux

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// termSize is the terminal's rows and columns, at least 24 by 80.
func termSize(f *os.File) (rows, cols int) {
	var ws struct{ Row, Col, X, Y uint16 }
	syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCGWINSZ, uintptr(unsafe.Pointer(&ws)))
	return max(int(ws.Row), 24), max(int(ws.Col), 80)
}

// readKey reads one key from the terminal f without waiting for a
// newline or echoing it.
func readKey(f *os.File) (byte, bool) {
	var old syscall.Termios
	fd := f.Fd()
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&old))); e != 0 {
		return 0, false
	}
	raw := old
	raw.Cc[syscall.VMIN] = 1
	raw.Cc[syscall.VTIME] = 1
	raw.Lflag &^= syscall.ICANON | syscall.ECHO
	syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCSETS, uintptr(unsafe.Pointer(&raw)))
	defer syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCSETS, uintptr(unsafe.Pointer(&old)))
	var b [1]byte
	if n, err := f.Read(b[:]); n != 1 || err != nil {
		return 0, false
	}
	return b[0], true
}
