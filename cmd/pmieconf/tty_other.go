//go:build !linux

package main

import (
	"io/fs"
	"os"
)

// isTTY approximates isatty(3) where we have no TCGETS: a character
// device.
func isTTY(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&fs.ModeCharDevice != 0
}
