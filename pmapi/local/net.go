//go:build linux

package local

import (
	"bytes"

	"github.com/gopcp/pmie/pmapi"
)

// The 16 counters of a /proc/net/dev line: eight received, eight sent.
const nNetCounters = 16

// netIf is one network interface: its /proc/net/dev counters and the
// link attributes the PMDA reports for it.
type netIf struct {
	counters [nNetCounters]uint64

	mtuFile, speedFile, flagsFile, operFile statsFile
	// mtu, speed, up and running are as last read; mtuOK and speedOK
	// are false when they could not be read.
	mtu, speed     uint32
	mtuOK, speedOK bool
	up, running    bool
}

// netdev is /proc/net/dev (the interface instance domain, 60.3) with each
// interface's link attributes. Like the PMDA, it asks the kernel for
// those with ioctls on the live system, falling back to the files of
// /sys/class/net, which are all it reads under another root.
type netdev struct {
	file    statsFile
	sysRoot string // .../sys/class/net
	ifs     cache[netIf]
	ioctl   *netIoctl // nil when reading another root
}

func (n *netdev) refresh() error {
	b, err := n.file.read()
	if err != nil {
		return err
	}
	n.parse(b)
	return nil
}

// parse takes in the content of the file.
func (n *netdev) parse(b []byte) {
	n.ifs.deactivateAll()
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		colon := bytes.IndexByte(line, ':')
		if colon < 0 {
			continue
		}
		name := line[:colon]
		for len(name) > 0 && isSpace(name[0]) {
			name = name[1:]
		}
		i, added := n.ifs.activate(bstr(name))
		e := &n.ifs.ents[i].v
		if added {
			dir := n.sysRoot + "/" + n.ifs.ents[i].name + "/"
			e.mtuFile = newStatsFile(dir + "mtu")
			e.speedFile = newStatsFile(dir + "speed")
			e.flagsFile = newStatsFile(dir + "flags")
			e.operFile = newStatsFile(dir + "operstate")
		}
		rest := line[colon+1:]
		for j := range e.counters {
			for len(rest) > 0 && !isDigit(rest[0]) {
				rest = rest[1:]
			}
			e.counters[j], rest, _ = uintField(rest)
		}
	}
}

// refreshSys reads the link attributes the request needs for every
// active interface.
func (n *netdev) refreshSys(need source) {
	for i := range n.ifs.ents {
		ent := &n.ifs.ents[i]
		if !ent.active {
			continue
		}
		e := &ent.v
		if need&srcNetMTU != 0 {
			if v, ok := n.ioctl.mtu(ent.name); ok {
				e.mtuOK, e.mtu = true, v
			} else {
				b, err := e.mtuFile.read()
				e.mtuOK, e.mtu = err == nil, uint32(atoi(b))
			}
		}
		if need&srcNetSpeed != 0 {
			// The kernel gives -1 for an unknown speed, which the PMDA
			// keeps as 2^32-1 Mbit/s.
			if v, ok := n.ioctl.speed(ent.name); ok {
				e.speedOK, e.speed = true, v
			} else {
				b, err := e.speedFile.read()
				e.speedOK, e.speed = err == nil, uint32(atoi(b))
			}
		}
		if need&srcNetFlags != 0 {
			if f, ok := n.ioctl.flags(ent.name); ok {
				e.up, e.running = f&iffUp != 0, f&iffRunning != 0
			} else {
				e.up, e.running = e.sysFlags()
			}
		}
	}
}

// sysFlags works out from sysfs whether the interface is up and running.
// The flags file has the administrative flags only; the kernel adds
// IFF_RUNNING for an up interface whose operational state is up or
// unknown, which is what the operstate file says.
func (e *netIf) sysFlags() (up, running bool) {
	b, err := e.flagsFile.read()
	if err != nil {
		return false, false
	}
	up = parseHex(b)&iffUp != 0
	if b, err = e.operFile.read(); err == nil {
		st, _ := field(b)
		running = up && (bstr(st) == "up" || bstr(st) == "unknown")
	}
	return up, running
}

// parseHex parses a number like "0x1003", as strtoul(s, 16) does.
func parseHex(b []byte) uint64 {
	b, _ = field(b)
	if len(b) > 1 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X') {
		b = b[2:]
	}
	v := uint64(0)
	for _, c := range b {
		var d byte
		switch {
		case isDigit(c):
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return v
		}
		v = v<<4 | uint64(d)
	}
	return v
}

func (n *netdev) close() {
	for i := range n.ifs.ents {
		e := &n.ifs.ents[i].v
		e.mtuFile.close()
		e.speedFile.close()
		e.flagsFile.close()
		e.operFile.close()
	}
	n.file.close()
	n.ioctl.close()
}

// The interface flags of <net/if.h> the PMDA reports.
const (
	iffUp      = 0x1
	iffRunning = 0x40
)

// netCounter reports one or the sum of some of the /proc/net/dev columns.
func netCounter(cols ...int) impl {
	return impl{srcNetDev, func(c *Context, inst int32) (pmapi.Atom, error) {
		e := &c.net.ifs.ents[inst].v
		t := uint64(0)
		for _, k := range cols {
			t += e.counters[k]
		}
		return pmapi.U64(t), nil
	}}
}

var netMTU = impl{srcNetDev | srcNetMTU, func(c *Context, inst int32) (pmapi.Atom, error) {
	e := &c.net.ifs.ents[inst].v
	if !e.mtuOK || e.mtu == 0 {
		return pmapi.Atom{}, errNoValue
	}
	return pmapi.U32(e.mtu), nil
}}

// netSpeed reports the link speed, in Mbytes/sec as a float computed in
// single precision, as the PMDA computes it.
var netSpeed = impl{srcNetDev | srcNetSpeed, func(c *Context, inst int32) (pmapi.Atom, error) {
	e := &c.net.ifs.ents[inst].v
	if !e.speedOK || e.speed == 0 {
		return pmapi.Atom{}, errNoValue
	}
	f := float32(e.speed) * 1000000
	f = f / 8 / 1024 / 1024
	return pmapi.F32(f), nil
}}

// netBaud reports the link speed in bytes/sec.
var netBaud = impl{srcNetDev | srcNetSpeed, func(c *Context, inst int32) (pmapi.Atom, error) {
	e := &c.net.ifs.ents[inst].v
	if !e.speedOK || e.speed == 0 {
		return pmapi.Atom{}, errNoValue
	}
	return pmapi.U64(uint64(e.speed) * 1000000 / 8), nil
}}

// netFlag reports whether an interface is up or running.
func netFlag(f func(e *netIf) bool) impl {
	return impl{srcNetDev | srcNetFlags, func(c *Context, inst int32) (pmapi.Atom, error) {
		if f(&c.net.ifs.ents[inst].v) {
			return pmapi.U32(1), nil
		}
		return pmapi.U32(0), nil
	}}
}
