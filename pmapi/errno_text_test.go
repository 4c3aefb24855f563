package pmapi

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

func TestErrnoText(t *testing.T) {
	for code, want := range map[Errno]string{
		-2:   "No such file or directory",
		-7:   "Argument list too long",
		-41:  "Unknown error 41",
		-133: "Memory page has hardware error",
		-200: "Unknown error 200",
	} {
		if got := code.Error(); got != want {
			t.Errorf("Errno(%d).Error() = %q, want %q", code, got, want)
		}
	}
}

func TestCodeOfFSErrors(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}, "No such file or directory"},
		{fmt.Errorf("wrapped: %w", fs.ErrPermission), "Permission denied"},
		{errors.New("other"), "Generic error, already reported above"},
	} {
		if got := Code(c.err).Error(); got != c.want {
			t.Errorf("Code(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// nilCause is an error whose Unwrap gives nil, as net.DNSError's can.
type nilCause struct{}

func (nilCause) Error() string { return "no cause" }
func (nilCause) Unwrap() error { return nil }

func TestCodeOfErrorWithoutCause(t *testing.T) {
	if got := Code(nilCause{}); got != ErrGeneric {
		t.Errorf("Code of an error unwrapping to nil = %v, want ErrGeneric", got)
	}
	if got := Code(nil); got != 0 {
		t.Errorf("Code(nil) = %v", got)
	}
}
