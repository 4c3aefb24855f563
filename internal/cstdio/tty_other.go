//go:build !linux

package cstdio

import (
	"io/fs"
	"os"
)

// IsTerminal approximates isatty(3) where there is no TCGETS: a
// character device.
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&fs.ModeCharDevice != 0
}

// blockSize is unknown here: stdio's BUFSIZ is used.
func blockSize(*os.File) int { return 0 }
