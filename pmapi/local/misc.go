//go:build linux

package local

import (
	"strconv"
	"syscall"
	"unsafe"

	"github.com/gopcp/pmie/pmapi"
)

// loadavg is /proc/loadavg: "0.12 0.16 0.07 1/97 1234".
type loadavg struct {
	file             statsFile
	avg              [3]float32
	runnable, nprocs uint32
	lastpid          uint32
}

func (l *loadavg) refresh() error {
	b, err := l.file.read()
	if err != nil {
		return err
	}
	l.parse(b)
	return nil
}

// parse takes in the content of the file.
func (l *loadavg) parse(b []byte) {
	for i := range l.avg {
		var f []byte
		f, b = field(b)
		v, err := strconv.ParseFloat(bstr(f), 32)
		if err != nil {
			return // the rest keep their old values, as with sscanf
		}
		l.avg[i] = float32(v)
	}
	u, b, ok := uintField(b)
	if !ok {
		return
	}
	l.runnable = uint32(u)
	if len(b) == 0 || b[0] != '/' {
		return
	}
	if u, b, ok = uintField(b[1:]); !ok {
		return
	}
	l.nprocs = uint32(u)
	if u, _, ok = uintField(b); ok {
		l.lastpid = uint32(u)
	}
}

// loadDomain is the instance domain of kernel.all.load, which never
// changes.
type loadDomain struct{}

var loadInsts = [...]pmapi.Instance{{ID: 1, Name: "1 minute"}, {ID: 5, Name: "5 minute"}, {ID: 15, Name: "15 minute"}}

func (loadDomain) size() int             { return len(loadInsts) }
func (loadDomain) isActive(int) bool     { return true }
func (loadDomain) instID(i int) int32    { return loadInsts[i].ID }
func (loadDomain) instName(i int) string { return loadInsts[i].Name }

var loadImpl = impl{srcLoadavg, func(c *Context, inst int32) (pmapi.Atom, error) {
	switch inst {
	case 1:
		return pmapi.F32(c.load.avg[0]), nil
	case 5:
		return pmapi.F32(c.load.avg[1]), nil
	case 15:
		return pmapi.F32(c.load.avg[2]), nil
	}
	return pmapi.Atom{}, pmapi.ErrInst
}}

// uptime is /proc/uptime: seconds up and seconds idle (summed over CPUs).
type uptime struct {
	file     statsFile
	up, idle float64
}

func (u *uptime) refresh() error {
	b, err := u.file.read()
	if err != nil {
		return err
	}
	u.parse(b)
	return nil
}

// parse takes in the content of the file.
func (u *uptime) parse(b []byte) {
	u.up, u.idle = 0, 0
	f, b := field(b)
	v, err := strconv.ParseFloat(bstr(f), 64)
	if err != nil {
		return
	}
	u.up = v
	f, _ = field(b)
	if v, err = strconv.ParseFloat(bstr(f), 64); err == nil {
		u.idle = v
	}
}

// vmstat is the part of /proc/vmstat the collector reports: pages
// swapped in and out.
type vmstat struct {
	file            statsFile
	pswpin, pswpout uint64
	have            [2]bool
}

func (v *vmstat) refresh() error {
	b, err := v.file.read()
	if err != nil {
		return err
	}
	v.parse(b)
	return nil
}

// parse takes in the content of the file.
func (v *vmstat) parse(b []byte) {
	v.have = [2]bool{}
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		key, rest := field(line)
		switch bstr(key) {
		case "pswpin":
			v.pswpin, _, v.have[0] = uintField(rest)
		case "pswpout":
			v.pswpout, _, v.have[1] = uintField(rest)
		}
	}
}

// procDir counts the processes in /proc, as the proc PMDA's proc.nprocs
// does: every entry whose name starts with a digit (threads are not
// listed there).
type procDir struct {
	path []byte // NUL-terminated
	fd   int
	buf  []byte
	n    uint32
}

func (p *procDir) refresh() error {
	if p.fd < 0 {
		fd, err := openZ(p.path, syscall.O_RDONLY|syscall.O_DIRECTORY)
		if err != nil {
			return err
		}
		p.fd = fd
		p.buf = make([]byte, 16384)
	}
	if _, err := syscall.Seek(p.fd, 0, 0); err != nil {
		return errnoOf(err)
	}
	n := uint32(0)
	for {
		m, err := syscall.Getdents(p.fd, p.buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return errnoOf(err)
		}
		if m <= 0 {
			break
		}
		n += countDigitNames(p.buf[:m])
	}
	p.n = n
	return nil
}

// countDigitNames walks a buffer of linux_dirent64 records and counts the
// names that start with a digit.
func countDigitNames(b []byte) uint32 {
	const nameOff = 19 // d_ino 8, d_off 8, d_reclen 2, d_type 1
	n := uint32(0)
	for len(b) > nameOff {
		reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
		if reclen <= nameOff || reclen > len(b) {
			break
		}
		if isDigit(b[nameOff]) {
			n++
		}
		b = b[reclen:]
	}
	return n
}

func (p *procDir) close() {
	if p.fd >= 0 {
		syscall.Close(p.fd)
		p.fd = -1
	}
}

// uname is the kernel's uname(2), taken on each fetch that needs it as
// the PMDA does; the strings are rebuilt only when it changes.
type uname struct {
	raw, scratch                                 syscall.Utsname
	sysname, nodename, release, version, machine string
	valid                                        bool
}

func (u *uname) refresh(get func(*syscall.Utsname) error) error {
	raw := &u.scratch
	if err := get(raw); err != nil {
		return errnoOf(err)
	}
	if u.valid && *raw == u.raw {
		return nil
	}
	u.raw, u.valid = *raw, true
	u.sysname = utsString(&raw.Sysname)
	u.nodename = utsString(&raw.Nodename)
	u.release = utsString(&raw.Release)
	u.version = utsString(&raw.Version)
	u.machine = utsString(&raw.Machine)
	return nil
}

func utsString[T int8 | uint8](f *[65]T) string {
	b := make([]byte, 0, len(f))
	for _, c := range f {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return string(b)
}

// unameField reports one field of uname.
func unameField(f func(u *uname) string) impl {
	return impl{srcUname, func(c *Context, _ int32) (pmapi.Atom, error) {
		return pmapi.String(f(&c.uts)), nil
	}}
}
