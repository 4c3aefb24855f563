package archive

import (
	"sort"

	"github.com/gopcp/pmie/pmapi"
)

// readForward says which way libpcp reads to position the context for
// its mode: forwards for ModeForw and for ModeInterp stepping forwards.
func (c *Context) readForward() bool {
	switch c.mode {
	case pmapi.ModeForw:
		return true
	case pmapi.ModeInterp:
		return c.direction > 0
	}
	return false
}

// setTime is __pmLogSetTime: it places the read position near the
// current time, using the temporal index of the archive the time falls
// in, and says whether reads may go on serially from there without the
// fine positioning a first fetch otherwise does.
func (c *Context) setTime() (bool, error) {
	forward := c.readForward()
	n := len(c.archives)
	i := 0
	for i < n && c.archives[i].label.Start < c.origin {
		i++
	}
	if forward {
		if i > 0 {
			i--
		}
	} else if i == n {
		i--
	}
	if i != c.cur.a {
		c.markMade = 0
	}
	a := c.archives[i]
	if len(a.index) == 0 {
		if forward {
			c.cur = c.s.start(i)
			return true, nil
		}
		p, err := c.s.end(i)
		if err != nil {
			return false, err
		}
		c.cur = p
		return true, nil
	}
	p, serial, backup, err := c.indexPosition(i, forward)
	if err != nil {
		return false, err
	}
	c.cur = p
	if backup {
		// The index marks the end of a record: back up over it.
		c.read(false)
	}
	return serial, nil
}

// indexPosition does the temporal index part of setTime for archive ai:
// the position, whether reading is serial, and whether to back up a
// record from there.
func (c *Context) indexPosition(ai int, forward bool) (pos, bool, bool, error) {
	a := c.archives[ai]
	ti := a.index
	minvol, maxvol := a.volNums[0], a.volNums[len(a.volNums)-1]
	j, match, toobig := len(ti), false, false
	for k, e := range ti {
		if e.Volume < minvol {
			continue
		}
		if e.Volume == maxvol {
			if v, err := a.volume(maxvol); err == nil && e.DataOffset > int64(len(v.f.data)) {
				j, toobig = k, true
				break
			}
		}
		if e.Time > c.origin {
			j = k
			break
		}
		if e.Time == c.origin {
			j, match = k, true
			break
		}
	}
	serial := true
	var at int
	var err error
	switch {
	case match:
		at, err = c.volSkip(a, forward, j)
		if !forward {
			serial = false
		}
	case j < 1:
		at, err = c.volSkip(a, true, 0)
	case j == len(ti):
		at, err = c.volSkip(a, false, len(ti)-1)
		if !forward {
			serial = false
		}
	default:
		hi := c.sinceOrigin(ti[j].Time)
		lo := -c.sinceOrigin(ti[j-1].Time)
		if hi <= lo && !toobig {
			at, err = c.volSkip(a, forward, j)
			if forward {
				serial = false
			}
		} else {
			at, err = c.volSkip(a, forward, j-1)
			if !forward {
				serial = false
			}
		}
	}
	if err != nil {
		return pos{}, false, false, err
	}
	p, err := c.offsetPos(ai, ti[at].Volume, ti[at].DataOffset)
	if err != nil {
		return pos{}, false, false, err
	}
	return p, serial, serial && forward && !match && j >= 1 && j < len(ti), nil
}

// volSkip is libpcp's VolSkip: from index entry j, the first entry (in
// the direction of reading) whose volume can be read.
func (c *Context) volSkip(a *Archive, forward bool, j int) (int, error) {
	ti := a.index
	minvol, maxvol := a.volNums[0], a.volNums[len(a.volNums)-1]
	vol := ti[j].Volume
	for minvol <= vol && vol <= maxvol {
		if _, ok := a.volPath[vol]; ok {
			if _, err := a.volume(vol); err == nil {
				return j, nil
			}
		}
		if forward {
			for j++; j < len(ti) && ti[j].Volume == vol; j++ {
			}
			if j == len(ti) {
				return 0, pmapi.ErrLogFile
			}
		} else {
			for j--; j >= 0 && ti[j].Volume == vol; j-- {
			}
			if j < 0 {
				return 0, pmapi.ErrLogFile
			}
		}
		vol = ti[j].Volume
	}
	return 0, pmapi.ErrLogFile
}

// offsetPos turns a byte offset in volume vol of archive ai into a
// position: before the first record that starts at or after it.
func (c *Context) offsetPos(ai, vol int, off int64) (pos, error) {
	a := c.archives[ai]
	vi := sort.SearchInts(a.volNums, vol)
	if vi == len(a.volNums) || a.volNums[vi] != vol {
		return pos{}, pmapi.ErrLogFile
	}
	v, err := a.volume(vol)
	if err != nil {
		return pos{}, err
	}
	r := sort.Search(len(v.recs), func(i int) bool { return v.recs[i].off >= off })
	return pos{ai, vi, r}, nil
}
