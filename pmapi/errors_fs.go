package pmapi

import (
	"errors"
	"io/fs"
	"syscall"
)

// fsCode is the errno an io/fs sentinel error stands for, or ErrGeneric.
func fsCode(err error) Errno {
	for _, m := range []struct {
		sentinel error
		errno    syscall.Errno
	}{{fs.ErrNotExist, syscall.ENOENT}, {fs.ErrPermission, syscall.EACCES}, {fs.ErrExist, syscall.EEXIST}} {
		if errors.Is(err, m.sentinel) {
			return Errno(-int32(m.errno))
		}
	}
	return ErrGeneric
}
