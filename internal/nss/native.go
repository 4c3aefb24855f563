//go:build cgo && !netgo && !osusergo

package nss

// native says that os/user and net ask the C library (cgo, without the
// netgo and osusergo tags), which consults every source of the switch.
const native = true
