package archive

import (
	"bytes"
	"encoding/binary"
	"os"
	"syscall"
)

// namesWithPrefix is the names in directory d that begin with prefix,
// read as readdir(3) reads them, in 32 KB of entries a call, and made
// strings only when they match: a directory such as /tmp, or a
// pmlogger directory of many days, may hold thousands of other files,
// which os.File.Readdirnames would each make a string of (8 KB a call).
func namesWithPrefix(d *os.File, prefix string) ([]string, error) {
	rc, err := d.SyscallConn()
	if err != nil {
		return nil, err
	}
	var out []string
	var rerr error
	buf, want := make([]byte, 32<<10), []byte(prefix)
	err = rc.Read(func(fd uintptr) bool {
		for {
			n, err := syscall.ReadDirent(int(fd), buf)
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				rerr = &os.PathError{Op: "readdirent", Path: d.Name(), Err: err}
				return true
			}
			if n <= 0 {
				return true
			}
			// struct linux_dirent64: inode (8 bytes), offset (8),
			// record length (2), type (1), then the name and its NUL
			for b := buf[:n]; len(b) >= 19; {
				size := int(binary.NativeEndian.Uint16(b[16:18]))
				if size < 19 || size > len(b) {
					break
				}
				name := b[19:size]
				if i := bytes.IndexByte(name, 0); i >= 0 {
					name = name[:i]
				}
				if bytes.HasPrefix(name, want) && string(name) != "." && string(name) != ".." {
					out = append(out, string(name))
				}
				b = b[size:]
			}
		}
	})
	if rerr == nil {
		rerr = err
	}
	return out, rerr
}
