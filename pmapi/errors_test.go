package pmapi

import (
	"errors"
	"fmt"
	"syscall"
	"testing"
)

// nilUnwrap is an error whose Unwrap returns nil, as some standard library
// errors do.
type nilUnwrap struct{}

func (nilUnwrap) Error() string { return "opaque" }
func (nilUnwrap) Unwrap() error { return nil }

func TestCode(t *testing.T) {
	tests := []struct {
		err  error
		want Errno
	}{
		{nil, 0},
		{ErrEOL, ErrEOL},
		{fmt.Errorf("reading: %w", ErrLogRec), ErrLogRec},
		{syscall.ECONNREFUSED, Errno(-int32(syscall.ECONNREFUSED))},
		{fmt.Errorf("dial: %w", syscall.ENOENT), Errno(-int32(syscall.ENOENT))},
		{errors.New("plain"), ErrGeneric},
		{nilUnwrap{}, ErrGeneric},
		{fmt.Errorf("wrapped: %w", nilUnwrap{}), ErrGeneric},
	}
	for _, tc := range tests {
		if got := Code(tc.err); got != tc.want {
			t.Errorf("Code(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
