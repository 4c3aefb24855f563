//go:build !linux

package main

import "os"

func termSize(*os.File) (rows, cols int) { return 24, 80 }

// readKey reads a key, which here waits for a newline.
func readKey(f *os.File) (byte, bool) {
	var b [1]byte
	if n, err := f.Read(b[:]); n != 1 || err != nil {
		return 0, false
	}
	return b[0], true
}
