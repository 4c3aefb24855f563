package pmapi

import (
	"errors"
	"strconv"
	"strings"
	"syscall"
)

// errnoText is strerror(3)'s text for a Unix errno as glibc gives it, and
// so what pmErrStr prints for -n: Go's syscall table has the same words
// with a lower-case first letter, and lacks a few glibc knows.
func errnoText(n int32) string {
	switch n {
	case 133: // EHWPOISON
		return "Memory page has hardware error"
	}
	s := syscall.Errno(n).Error()
	if strings.HasPrefix(s, "errno ") {
		return "Unknown error " + strconv.Itoa(int(n))
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Strerror is strerror(3)'s text for the system error under err ("No
// such file or directory"), or err's own text when there is none.
func Strerror(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errnoText(int32(errno))
	}
	return err.Error()
}
