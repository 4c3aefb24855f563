package archive

import (
	"slices"

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
// fine positioning a first fetch otherwise does. If it fails, the
// position is left where it was, and serial is what libpcp leaves its
// ac_serial at: true if the archive has a temporal index.
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
		if err := c.edgePosition(i, forward); err != nil {
			return c.serial, err
		}
		return true, nil
	}
	p, serial, backup, err := c.indexPosition(i, forward)
	if err != nil {
		return true, err
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
	maxSize := int64(-1)
	for k, e := range ti {
		if e.Volume < minvol {
			continue
		}
		if e.Volume == maxvol {
			if maxSize < 0 {
				maxSize = c.maxvolSize(ai)
			}
			if e.DataOffset > maxSize {
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
		if v := a.vols[vol]; v != nil && a.usable(v) {
			return j, nil
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
// position.
func (c *Context) offsetPos(ai, vol int, off int64) (pos, error) {
	a := c.archives[ai]
	vi, ok := slices.BinarySearch(a.volNums, vol)
	if !ok {
		return pos{}, pmapi.ErrLogFile
	}
	return pos{ai, vi, off}, nil
}

// edgePosition places the read position at the start (forward) or end
// of archive ai's first (last) volume that can be read, as libpcp does
// when the archive has no temporal index.
func (c *Context) edgePosition(ai int, forward bool) error {
	a := c.archives[ai]
	for k := range a.volNums {
		vi := k
		if !forward {
			vi = len(a.volNums) - 1 - k
		}
		v := a.vols[a.volNums[vi]]
		if !a.usable(v) {
			continue
		}
		if forward {
			c.cur = pos{ai, vi, v.first()}
		} else {
			c.cur = pos{ai, vi, offEnd}
		}
		return nil
	}
	return pmapi.ErrLogFile
}

// maxvolSize is the length libpcp compares the temporal index's offsets
// in archive ai's last volume with, to see whether the volume ends
// before them: that volume's length or, once libpcp has opened that
// volume, the length of the volume it is reading (which it looks at by
// mistake; the same for an archive of one volume). 0 if it cannot be
// read.
func (c *Context) maxvolSize(ai int) int64 {
	a := c.archives[ai]
	v := a.vols[a.volNums[len(a.volNums)-1]]
	if v.f != nil {
		cur := 0
		if c.cur.a == ai {
			cur = c.cur.v
		}
		v = a.vols[a.volNums[cur]]
	}
	if !a.usable(v) {
		return 0
	}
	n, err := v.length()
	if err != nil {
		return 0
	}
	return n
}
