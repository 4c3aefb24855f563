//go:build linux

package local

import (
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// Options configure a Context. The zero value reads the running system.
type Options struct {
	// Root is the directory holding the proc and sys trees to read,
	// "/" when empty. Tests point it at a fake tree.
	Root string
	// Hostname is the host name the context reports; by default the
	// system's, as pmcd would give it.
	Hostname string
	// Hertz is the kernel's clock tick rate (USER_HZ), by default taken
	// from the process's auxiliary vector, else 100.
	Hertz int
	// NCPU is the number of configured CPUs, by default the cpuN
	// directories under sys/devices/system/cpu.
	NCPU int
	// PageSize is the memory page size, by default the system's.
	PageSize int
	// Now is the clock that stamps each fetch, time.Now by default.
	Now func() time.Time
	// Statfs takes a mounted filesystem's statistics; by default
	// syscall.Statfs of the mount point under Root.
	Statfs func(path string, st *syscall.Statfs_t) error
	// Uname gives the kernel's name and version; by default
	// syscall.Uname.
	Uname func(*syscall.Utsname) error
}

// Context is the embedded collector: a pmapi.Context that reads /proc and
// /sys directly. Every Fetch samples the system afresh, reading only the
// files the requested metrics need.
//
// A Context is not safe for concurrent use.
type Context struct {
	root     string // "" for /
	host     string
	tz       string
	hz       int
	pageSize int
	now      func() time.Time
	unameFn  func(*syscall.Utsname) error
	closed   bool

	stat  procStat
	mem   meminfo
	load  loadavg
	up    uptime
	vm    vmstat
	disk  diskstats
	net   netdev
	fs    mounts
	procs procDir
	uts   uname

	// srcErr is why each source could not be read in the current fetch.
	srcErr [nSources]error
}

var _ pmapi.Context = (*Context)(nil)

// Open makes a collector reading the system under opts.Root. It fails if
// there is no /proc/stat there, that is, when this is not Linux.
func Open(opts Options) (*Context, error) {
	root := strings.TrimRight(opts.Root, "/")
	if _, err := os.Stat(root + "/proc/stat"); err != nil {
		return nil, fmt.Errorf("embedded collector: %w", err)
	}
	c := &Context{
		root:     root,
		host:     opts.Hostname,
		hz:       opts.Hertz,
		pageSize: opts.PageSize,
		now:      opts.Now,
		unameFn:  opts.Uname,
		tz:       localTZ(time.Now()),
	}
	if c.host == "" {
		h, err := os.Hostname()
		if err != nil {
			h = "localhost"
		}
		c.host = h
	}
	if c.hz <= 0 {
		c.hz = clockTicks()
	}
	if c.pageSize <= 0 {
		c.pageSize = os.Getpagesize()
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.unameFn == nil {
		c.unameFn = syscall.Uname
	}
	ncpu := opts.NCPU
	if ncpu <= 0 {
		ncpu = countCPUs(root)
	}
	proc := root + "/proc"
	c.stat.init(proc+"/stat", ncpu)
	c.mem.file = newStatsFile(proc + "/meminfo")
	c.load.file = newStatsFile(proc + "/loadavg")
	c.up.file = newStatsFile(proc + "/uptime")
	c.vm.file = newStatsFile(proc + "/vmstat")
	c.disk.file = newStatsFile(proc + "/diskstats")
	c.net.file = newStatsFile(proc + "/net/dev")
	c.net.sysRoot = root + "/sys/class/net"
	if root == "" {
		c.net.ioctl = newNetIoctl()
	}
	c.fs.file = newStatsFile(proc + "/self/mounts")
	c.fs.root = root
	c.fs.statfs = opts.Statfs
	c.procs = procDir{path: append([]byte(proc), 0), fd: -1}
	return c, nil
}

// clockTicks is the kernel's USER_HZ, from AT_CLKTCK in the auxiliary
// vector, as sysconf(_SC_CLK_TCK) finds it.
func clockTicks() int {
	const atClkTck = 17
	b, err := os.ReadFile("/proc/self/auxv")
	if err == nil {
		for ; len(b) >= 16; b = b[16:] {
			k := binary.NativeEndian.Uint64(b)
			if k == atClkTck {
				if v := int(binary.NativeEndian.Uint64(b[8:])); v > 0 {
					return v
				}
			}
		}
	}
	return 100
}

// countCPUs is the number of configured CPUs, as glibc's
// sysconf(_SC_NPROCESSORS_CONF) counts them: the cpuN directories of
// sys/devices/system/cpu, or failing that the cpuN lines of /proc/stat.
func countCPUs(root string) int {
	n := 0
	if ents, err := os.ReadDir(root + "/sys/devices/system/cpu"); err == nil {
		for _, e := range ents {
			if isCPUName(e.Name()) {
				n++
			}
		}
	}
	if n > 0 {
		return n
	}
	b, _ := os.ReadFile(root + "/proc/stat")
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		if k, _ := field(line); isCPUName(string(k)) {
			n++
		}
	}
	return max(n, 1)
}

func isCPUName(s string) bool {
	if len(s) < 4 || s[:3] != "cpu" {
		return false
	}
	_, err := strconv.ParseUint(s[3:], 10, 32)
	return err == nil
}

// localTZ is the local timezone in the $TZ form pmcd reports: $TZ itself
// if set (and not a zoneinfo file name), else the current zone's
// abbreviation and its offset west of UTC, as "AEST-10" or "IST-5:30".
func localTZ(now time.Time) string {
	if tz := os.Getenv("TZ"); tz != "" && tz[0] != ':' {
		return tz
	}
	name, east := now.Zone()
	west := -east
	if west == 0 {
		return name
	}
	hours, mins := west/3600, (west%3600)/60
	if mins == 0 {
		return fmt.Sprintf("%s%+d", name, hours)
	}
	return fmt.Sprintf("%s%+d:%02d", name, hours, max(mins, -mins))
}

// Source describes the context: the local host, read directly.
func (c *Context) Source() pmapi.Source {
	return pmapi.Source{Kind: pmapi.SourceLocal, Host: c.host, Name: c.host, TZ: c.tz}
}

// LookupName is pmLookupName.
func (c *Context) LookupName(name string) (pmapi.PMID, error) {
	if m := space().byName[name]; m != nil {
		return m.pmid, nil
	}
	if _, ok := space().children[name]; ok {
		return pmapi.PMIDNull, pmapi.ErrNonLeaf
	}
	return pmapi.PMIDNull, pmapi.ErrName
}

// NameAll is pmNameAll: each metric has the one name.
func (c *Context) NameAll(id pmapi.PMID) ([]string, error) {
	if m := space().byPMID[id]; m != nil {
		return []string{m.name}, nil
	}
	return nil, pmapi.ErrPMID
}

// Children is pmGetChildrenStatus.
func (c *Context) Children(name string) ([]pmapi.Child, error) {
	if kids, ok := space().children[name]; ok {
		return append([]pmapi.Child(nil), kids...), nil
	}
	if space().byName[name] != nil {
		return nil, nil
	}
	return nil, pmapi.ErrName
}

// LookupDesc is pmLookupDesc.
func (c *Context) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	m := space().byPMID[id]
	if m == nil {
		return pmapi.Desc{}, pmapi.ErrPMID
	}
	return pmapi.Desc{PMID: m.pmid, Type: m.typ, InDom: m.indom, Sem: m.sem, Units: m.units}, nil
}

// domain is an instance domain as fetch and InDom walk it: members by
// position, some inactive.
type domain interface {
	size() int
	isActive(i int) bool
	instID(i int) int32
	instName(i int) string
}

// domain finds an instance domain and the source that fills it.
func (c *Context) domain(indom pmapi.InDom) (domain, source) {
	if indom.Domain() != 60 {
		return nil, 0
	}
	switch indom.Serial() {
	case 0:
		return &c.stat.cpus, srcStat
	case 1:
		return &c.disk.devs, srcDiskstats
	case 2:
		return loadDomain{}, 0
	case 3:
		return &c.net.ifs, srcNetDev
	case 5:
		return &c.fs.fs, srcMounts
	}
	return nil, 0
}

// InDom is pmGetInDom: the instances present now.
func (c *Context) InDom(indom pmapi.InDom) ([]pmapi.Instance, error) {
	if c.closed {
		return nil, pmapi.ErrNoContext
	}
	d, src := c.domain(indom)
	if d == nil {
		return nil, pmapi.ErrInDom
	}
	c.refresh(src)
	if err := c.failed(src); err != nil {
		return nil, err
	}
	var out []pmapi.Instance
	for i := 0; i < d.size(); i++ {
		if d.isActive(i) {
			out = append(out, pmapi.Instance{ID: d.instID(i), Name: d.instName(i)})
		}
	}
	return out, nil
}

// Text is pmLookupText and pmLookupInDomText.
func (c *Context) Text(id uint32, kind pmapi.TextKind) (string, error) {
	var one, help string
	if kind&pmapi.TextInDom != 0 {
		r := space().indomTxt[pmapi.InDom(id)]
		if r == nil {
			return "", pmapi.ErrText
		}
		one, help = r.oneline, r.help
	} else {
		m := space().byPMID[pmapi.PMID(id)]
		if m == nil {
			return "", pmapi.ErrPMID
		}
		one, help = m.oneline, m.help
	}
	if kind&pmapi.TextHelp != 0 && help != "" {
		return help, nil
	}
	return one, nil
}

// Fetch is pmFetch: it reads the files the metrics need, once each, and
// fills r with their values.
func (c *Context) Fetch(ids []pmapi.PMID, r *pmapi.Result) error {
	if c.closed {
		return pmapi.ErrNoContext
	}
	need := source(0)
	for _, id := range ids {
		if m := space().byPMID[id]; m != nil {
			need |= m.need
		}
	}
	c.refresh(need)
	r.Time = pmapi.FromStd(c.now())
	if cap(r.Sets) < len(ids) {
		sets := make([]pmapi.ValueSet, len(ids))
		copy(sets, r.Sets[:cap(r.Sets)])
		r.Sets = sets
	}
	r.Sets = r.Sets[:len(ids)]
	for i, id := range ids {
		vs := &r.Sets[i]
		vs.PMID, vs.Err, vs.Values = id, nil, vs.Values[:0]
		m := space().byPMID[id]
		if m == nil {
			vs.Err = pmapi.ErrPMID
			continue
		}
		if err := c.failed(m.need); err != nil {
			vs.Err = err
			continue
		}
		c.fill(m, vs)
	}
	return nil
}

// fill computes one metric's values into vs. As in the PMDA's fetch, an
// instance whose getter fails is left out, and if none has a value the
// last getter's error (if any) is the value set's.
func (c *Context) fill(m *metric, vs *pmapi.ValueSet) {
	var last error
	put := func(inst int32) {
		a, err := m.get(c, inst)
		switch err {
		case nil:
			vs.Values = append(vs.Values, pmapi.Value{Inst: inst, Atom: a})
			last = nil
		case errNoValue:
			last = nil
		default:
			last = err
		}
	}
	if m.indom == pmapi.InDomNull {
		put(pmapi.InNull)
	} else if d, _ := c.domain(m.indom); d != nil {
		for i := 0; i < d.size(); i++ {
			if d.isActive(i) {
				put(d.instID(i))
			}
		}
	}
	if len(vs.Values) == 0 && last != nil {
		vs.Err = last
	}
}

// refresh reads each source in need, noting the ones that fail.
func (c *Context) refresh(need source) {
	for bit := 0; bit < nSources; bit++ {
		s := source(1) << bit
		if need&s == 0 {
			continue
		}
		var err error
		switch s {
		case srcStat:
			err = c.stat.refresh()
		case srcMeminfo:
			err = c.mem.refresh()
		case srcLoadavg:
			err = c.load.refresh()
		case srcUptime:
			err = c.up.refresh()
		case srcVmstat:
			err = c.vm.refresh()
		case srcDiskstats:
			err = c.disk.refresh()
		case srcNetDev:
			err = c.net.refresh()
			if err == nil {
				c.net.refreshSys(need)
			}
		case srcMounts:
			err = c.fs.refresh()
		case srcProcs:
			err = c.procs.refresh()
		case srcUname:
			err = c.uts.refresh(c.unameFn)
		}
		c.srcErr[bit] = err
	}
}

// failed is the first error reading any of the sources in need.
func (c *Context) failed(need source) error {
	for bit := 0; bit < nSources; bit++ {
		if need&(source(1)<<bit) != 0 && c.srcErr[bit] != nil {
			return c.srcErr[bit]
		}
	}
	return nil
}

// Close releases the files the context keeps open.
func (c *Context) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	c.stat.file.close()
	c.mem.file.close()
	c.load.file.close()
	c.up.file.close()
	c.vm.file.close()
	c.disk.file.close()
	c.net.close()
	c.fs.file.close()
	c.procs.close()
	return nil
}
