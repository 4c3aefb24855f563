//go:build linux

package local

import (
	"path/filepath"
	"strings"
	"syscall"
	"unsafe"

	"github.com/gopcp/pmie/pmapi"
)

// mount is one mounted filesystem of the filesys instance domain (60.5),
// named by its device.
type mount struct {
	path, options string
	statPath      string // path within the collector's root
	statPathZ     []byte // statPath, NUL-terminated
	// st is the filesystem's statfs, taken at most once per fetch when a
	// metric needs it; err is what that statfs returned.
	st      syscall.Statfs_t
	statted bool
	err     error
}

// mounts is /proc/self/mounts, kept for block-device-backed filesystems.
type mounts struct {
	file statsFile
	root string // the root the collector reads, "" for /
	fs   cache[mount]

	resolved map[string]string                             // device names as mounted, resolved
	statfs   func(path string, st *syscall.Statfs_t) error // nil for statfs(2)
}

// skipFSTypes are the filesystem types the PMDA never reports.
var skipFSTypes = map[string]bool{
	"proc": true, "nfs": true, "devfs": true, "devpts": true,
	"devtmpfs": true, "squashfs": true, "selinuxfs": true,
	"securityfs": true, "configfs": true, "cgroup": true, "sysfs": true,
}

func (m *mounts) refresh() error {
	b, err := m.file.read()
	if err != nil {
		return err
	}
	m.parse(b)
	return nil
}

// parse takes in the content of the file.
func (m *mounts) parse(b []byte) {
	m.fs.deactivateAll()
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		device, rest := spaceField(line)
		path, rest := spaceField(rest)
		fstype, rest := spaceField(rest)
		options, _ := spaceField(rest)
		if len(device) == 0 || len(options) == 0 {
			continue
		}
		t := bstr(fstype)
		if skipFSTypes[t] || strings.HasPrefix(t, "auto") || t == "tmpfs" {
			continue
		}
		dev := bstr(device)
		if !strings.HasPrefix(dev, "/dev") && bstr(path) != "/" {
			continue
		}
		if !strings.HasPrefix(dev, "/dev/mapper") && !strings.HasPrefix(dev, "/dev/md") {
			dev = m.realpath(dev)
		}
		i := m.fs.find(dev)
		if i >= 0 && m.fs.ents[i].active {
			continue // a device mounted twice is reported at its first place
		}
		i, _ = m.fs.activate(dev)
		e := &m.fs.ents[i].v
		if e.path != bstr(path) {
			e.path = string(path)
			e.statPath = m.root + e.path
			e.statPathZ = append([]byte(e.statPath), 0)
		}
		if e.options != bstr(options) {
			e.options = string(options)
		}
		e.statted = false
	}
}

// spaceField splits off the next field separated by spaces, as strtok
// with " " does.
func spaceField(b []byte) (f, rest []byte) {
	i := 0
	for i < len(b) && b[i] == ' ' {
		i++
	}
	j := i
	for j < len(b) && b[j] != ' ' {
		j++
	}
	return b[i:j], b[j:]
}

// realpath resolves symbolic links in a device name (/dev/root, say)
// within the collector's root, as the PMDA does with realpath(3); a name
// that does not resolve is kept. Each name is resolved once per context,
// so steady refreshes allocate nothing.
func (m *mounts) realpath(dev string) string {
	if r, ok := m.resolved[dev]; ok {
		return r
	}
	dev = strings.Clone(dev)
	r := dev
	if p, err := filepath.EvalSymlinks(m.root + r); err == nil {
		if m.root != "" {
			p = strings.TrimPrefix(p, m.root)
		}
		r = p
	}
	if m.resolved == nil {
		m.resolved = make(map[string]string)
	}
	m.resolved[dev] = r
	return r
}

// stat returns the statfs of a filesystem, taking it if this fetch has
// not yet. A filesystem that cannot be statted has no values.
func (m *mounts) stat(inst int32) (*syscall.Statfs_t, error) {
	e := &m.fs.ents[inst].v
	if !e.statted {
		if m.statfs != nil {
			e.err = m.statfs(e.statPath, &e.st)
		} else {
			e.err = statfsZ(e.statPathZ, &e.st)
		}
		e.statted = true
	}
	if e.err != nil {
		return nil, pmapi.ErrInst
	}
	return &e.st, nil
}

// fsStat reports a value computed from a filesystem's statfs.
func fsStat(f func(st *syscall.Statfs_t) pmapi.Atom) impl {
	return impl{srcMounts, func(c *Context, inst int32) (pmapi.Atom, error) {
		st, err := c.fs.stat(inst)
		if err != nil {
			return pmapi.Atom{}, err
		}
		return f(st), nil
	}}
}

// fsKB reports a number of blocks in Kbytes.
func fsKB(blocks func(st *syscall.Statfs_t) uint64) impl {
	return fsStat(func(st *syscall.Statfs_t) pmapi.Atom {
		return pmapi.U64(blocks(st) * uint64(st.Bsize) / 1024)
	})
}

// fsFull is the percentage of the space a non-superuser could use that
// is used.
func fsFull(st *syscall.Statfs_t) pmapi.Atom {
	used := uint64(st.Blocks - st.Bfree)
	all := used + uint64(st.Bavail)
	return pmapi.F64(100.0 * float64(used) / float64(all))
}

var fsMountDir = impl{srcMounts, func(c *Context, inst int32) (pmapi.Atom, error) {
	if _, err := c.fs.stat(inst); err != nil {
		return pmapi.Atom{}, err
	}
	return pmapi.String(c.fs.fs.ents[inst].v.path), nil
}}

var fsReadOnly = impl{srcMounts, func(c *Context, inst int32) (pmapi.Atom, error) {
	if _, err := c.fs.stat(inst); err != nil {
		return pmapi.Atom{}, err
	}
	if hasOption(c.fs.fs.ents[inst].v.options, "ro") {
		return pmapi.U32(1), nil
	}
	return pmapi.U32(0), nil
}}

// hasOption says whether a comma-separated list of mount options has o
// in it. Like the PMDA, it looks only at the first 127 bytes.
func hasOption(opts, o string) bool {
	if len(opts) > 127 {
		opts = opts[:127]
	}
	for opts != "" {
		var f string
		f, opts, _ = strings.Cut(opts, ",")
		if f == o {
			return true
		}
	}
	return false
}

// statfsZ is statfs(2) on a NUL-terminated path, which unlike
// syscall.Statfs allocates nothing.
func statfsZ(path []byte, st *syscall.Statfs_t) error {
	for {
		_, _, e := syscall.Syscall(syscall.SYS_STATFS, uintptr(unsafe.Pointer(&path[0])), uintptr(unsafe.Pointer(st)), 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return errnoOf(e)
		}
		return nil
	}
}
