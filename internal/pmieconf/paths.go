package pmieconf

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/gopcp/pmie/internal/pmiestats"
)

// Realpath is realpath(3) as glibc has it: the absolute path of name with
// "." , ".." and symbolic links resolved. When a component does not exist
// it returns the path resolved up to and including that component, with
// an error wrapping ENOENT, as glibc leaves it in its buffer.
func Realpath(name string) (string, error) {
	if name == "" {
		return "", syscall.ENOENT
	}
	resolved := "/"
	if !strings.HasPrefix(name, "/") {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		resolved = wd
	}
	rest := strings.Split(name, "/")
	links := 0
	for len(rest) > 0 {
		comp := rest[0]
		rest = rest[1:]
		switch comp {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, comp)
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return next, syscall.ENOENT
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if links++; links > 40 {
				return "", syscall.ELOOP
			}
			target, err := os.Readlink(next)
			if err != nil {
				return "", err
			}
			if strings.HasPrefix(target, "/") {
				resolved = "/"
			}
			rest = append(strings.Split(target, "/"), rest...)
			continue
		}
		if !fi.IsDir() && len(rest) > 0 && hasComponent(rest) {
			return "", syscall.ENOTDIR
		}
		resolved = next
	}
	return resolved, nil
}

func hasComponent(parts []string) bool {
	for _, p := range parts {
		if p != "" {
			return true
		}
	}
	return false
}

// PmieProcesses lists the running pmie processes whose statistics files
// in tmpDir/pmie name config as their configuration file, in directory
// order; it lists none if the directory cannot be read.
func PmieProcesses(tmpDir, config string) ([]string, error) {
	dir := filepath.Join(tmpDir, "pmie")
	d, err := os.Open(dir)
	if err != nil {
		return nil, nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var pids []string
	for _, n := range names {
		if _, err := os.Stat("/proc/" + n); err != nil {
			continue
		}
		// as far as its size: a FIFO or a device there reads as empty,
		// not without end, and is passed over
		b, err := ReadSized(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		if r, err := pmiestats.Decode(b); err == nil && r.Config == config {
			pids = append(pids, n)
		}
	}
	return pids, nil
}

// ReadSized reads the file name as far as its size when opened, as
// pmieconf reads its files (fstat, then that many bytes): a device or a
// FIFO (size 0, opened without waiting for a writer) reads as empty
// rather than without end. A directory is syscall.EISDIR.
func ReadSized(name string) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, syscall.EISDIR
	}
	return io.ReadAll(io.LimitReader(f, fi.Size()))
}
