package pmieconf

import (
	"errors"
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
		// only regular files: a FIFO or a device there would be read
		// without end (pmieconf passes over what is not a statistics
		// file's size)
		path := filepath.Join(dir, n)
		if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if r, err := pmiestats.Decode(b); err == nil && r.Config == config {
			pids = append(pids, n)
		}
	}
	return pids, nil
}
