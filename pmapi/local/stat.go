//go:build linux

package local

import (
	"strconv"

	"github.com/gopcp/pmie/pmapi"
)

// The columns of a cpu line in /proc/stat, in clock ticks.
const (
	tUser = iota
	tNice
	tSys
	tIdle
	tWait
	tIrq
	tSirq
	tSteal
	tGuest
	tGuestNice
	nTicks
)

type ticks [nTicks]uint64

// cpuStat is one cpu line of /proc/stat.
type cpuStat struct {
	t        ticks
	prevWait uint64
}

// waitSlop is how far iowait time may go backwards (the kernel's count is
// not exact) before we believe it rather than hold the previous value.
const waitSlop = 100

// holdWait keeps iowait monotonic across small backward steps, as the
// linux PMDA does, while letting a real wrap through.
func (s *cpuStat) holdWait() {
	w := s.t[tWait]
	if s.prevWait > 0 && w < s.prevWait && w > s.prevWait-waitSlop {
		s.t[tWait] = s.prevWait
	} else {
		s.prevWait = w
	}
}

// procStat is what the collector takes from /proc/stat: CPU time for all
// CPUs and each online one, and the kernel's event counters.
type procStat struct {
	file statsFile
	all  cpuStat
	// cpus has cpu0 to cpuN-1 for the N configured CPUs, numbered as
	// the PMDA numbers them; a CPU is active while /proc/stat has a line
	// for it (that is, while it is online).
	cpus cache[cpuStat]

	intr, ctxt, processes, running, blocked uint64
	btime                                   int64
}

func (s *procStat) init(path string, ncpu int) {
	s.file = newStatsFile(path)
	if ncpu < 1 {
		ncpu = 1
	}
	for i := 0; i < ncpu; i++ {
		s.cpus.activate("cpu" + strconv.Itoa(i))
	}
	s.cpus.deactivateAll()
}

func (s *procStat) refresh() error {
	b, err := s.file.read()
	if err != nil {
		return err
	}
	s.parse(b)
	return nil
}

// parse takes in the content of the file.
func (s *procStat) parse(b []byte) {
	s.cpus.deactivateAll()
	single := len(s.cpus.ents) == 1
	var v ticks
	for len(b) > 0 {
		var line []byte
		line, b = nextLine(b)
		key, rest := field(line)
		switch k := bstr(key); {
		case k == "cpu":
			// Columns a kernel does not have keep their old values.
			n := uintFields(rest, v[:])
			copy(s.all.t[:n], v[:n])
		case len(k) > 3 && k[:3] == "cpu" && isDigit(k[3]):
			if single {
				continue // cpu0 is the same as the total, below
			}
			i := s.cpus.find(k)
			if i < 0 {
				continue
			}
			c := &s.cpus.ents[i]
			c.v.t = ticks{}
			uintFields(rest, c.v.t[:])
			c.v.holdWait()
			c.active = true
		case k == "intr":
			s.intr, _, _ = uintField(rest)
		case k == "ctxt":
			s.ctxt, _, _ = uintField(rest)
		case k == "btime":
			u, _, _ := uintField(rest)
			s.btime = int64(u)
		case k == "processes":
			s.processes, _, _ = uintField(rest)
		case k == "procs_running":
			s.running, _, _ = uintField(rest)
		case k == "procs_blocked":
			s.blocked, _, _ = uintField(rest)
		}
	}
	s.all.holdWait()
	if single {
		s.cpus.ents[0].v = s.all
		s.cpus.ents[0].active = true
	}
}

// cpuTime converts clock ticks to the milliseconds the PMDA reports, with
// its arithmetic (through a double, truncated).
func (c *Context) cpuTime(t uint64) pmapi.Atom {
	return pmapi.U64(uint64(1000 * float64(t) / float64(c.hz)))
}

// The CPU time columns the kernel.*.cpu metrics report.
func user(t *ticks) uint64  { return t[tUser] }
func nice(t *ticks) uint64  { return t[tNice] }
func sys(t *ticks) uint64   { return t[tSys] }
func idle(t *ticks) uint64  { return t[tIdle] }
func wait(t *ticks) uint64  { return t[tWait] }
func intr(t *ticks) uint64  { return t[tIrq] + t[tSirq] }
func sirq(t *ticks) uint64  { return t[tSirq] }
func hirq(t *ticks) uint64  { return t[tIrq] }
func steal(t *ticks) uint64 { return t[tSteal] }
func guest(t *ticks) uint64 { return t[tGuest] }
func gnice(t *ticks) uint64 { return t[tGuestNice] }
func vuser(t *ticks) uint64 { return t[tUser] - t[tGuest] }
func vnice(t *ticks) uint64 { return t[tNice] - t[tGuestNice] }

// allCPU reports a column of the total cpu line.
func allCPU(col func(*ticks) uint64) impl {
	return impl{srcStat, func(c *Context, _ int32) (pmapi.Atom, error) {
		return c.cpuTime(col(&c.stat.all.t)), nil
	}}
}

// perCPU reports a column of each CPU's line.
func perCPU(col func(*ticks) uint64) impl {
	return impl{srcStat, func(c *Context, inst int32) (pmapi.Atom, error) {
		return c.cpuTime(col(&c.stat.cpus.ents[inst].v.t)), nil
	}}
}

// statU64 reports one of the counters of /proc/stat.
func statU64(f func(s *procStat) uint64) impl {
	return impl{srcStat, func(c *Context, _ int32) (pmapi.Atom, error) {
		return pmapi.U64(f(&c.stat)), nil
	}}
}
