//go:build !cgo || netgo || osusergo

package nss

// native says that os/user and net ask the C library, which they do not
// here: they read files and DNS themselves (without cgo, or told to by
// the netgo or osusergo tags), and getent is asked for names they do not
// find.
const native = false
