package archive

import (
	"math"

	"github.com/gopcp/pmie/pmapi"
)

// pos is a place in the records of a context's archives: just before
// record r of the v-th volume (an index into volNums) of archive a. The
// ends of consecutive volumes are the same place in two spellings;
// between archives lies a <mark> that libpcp makes up.
type pos struct {
	a, v, r int
}

// rec is a record read from the stream: a real one, or the <mark>
// libpcp makes up between two archives of a context.
type rec struct {
	at   pos // where the record is (for a made-up mark, the later archive)
	t    float64
	mark bool
	made bool // a made-up mark
	vol  *volume
	time pmapi.Time
}

// stream reads the records of a context's archives forwards and
// backwards, as __pmLogRead does.
type stream struct {
	archives []*Archive
	base     pmapi.Time  // start of the first archive: time 0
	tcache   [][]float64 // record times relative to base, per loaded volume
	tcIndex  map[*volume]int
}

func newStream(archives []*Archive) *stream {
	return &stream{archives: archives, base: archives[0].label.Start, tcIndex: make(map[*volume]int)}
}

// tsub is __pmTimestampSub: the seconds from b to a, computed as libpcp
// computes them, in x87 extended precision rounded to a double.
func tsub(a, b pmapi.Time) float64 {
	return pmapi.SubSeconds(a, b)
}

// rel is t as seconds after the start of the first archive.
func (s *stream) rel(t pmapi.Time) float64 { return tsub(t, s.base) }

// recTime is the time of record i of v, relative to the base, computed
// once.
func (s *stream) recTime(v *volume, i int) float64 {
	k, ok := s.tcIndex[v]
	if !ok {
		k = len(s.tcache)
		s.tcIndex[v] = k
		c := make([]float64, len(v.recs))
		for j := range c {
			c[j] = math.NaN()
		}
		s.tcache = append(s.tcache, c)
	}
	c := s.tcache[k]
	if math.IsNaN(c[i]) {
		c[i] = s.rel(v.recs[i].time)
	}
	return c[i]
}

// vol returns volume p.v of archive p.a.
func (s *stream) vol(a, v int) (*volume, error) {
	ar := s.archives[a]
	return ar.volume(ar.volNums[v])
}

// start is the position of the first record of archive a.
func (s *stream) start(a int) pos { return pos{a, 0, 0} }

// end is the position after the last record of archive a.
func (s *stream) end(a int) (pos, error) {
	last := len(s.archives[a].volNums) - 1
	v, err := s.vol(a, last)
	if err != nil {
		return pos{}, err
	}
	return pos{a, last, len(v.recs)}, nil
}

// record makes the rec for record p.r of volume v.
func (s *stream) record(v *volume, p pos) rec {
	info := &v.recs[p.r]
	return rec{at: p, t: s.recTime(v, p.r), mark: info.nsets == 0, vol: v, time: info.time}
}

// nextIn reads the record at p, within p's archive, returning it and
// the position after it; ok is false at the end of the archive.
func (s *stream) nextIn(p pos) (r rec, q pos, ok bool, err error) {
	for {
		v, err := s.vol(p.a, p.v)
		if err != nil {
			return rec{}, p, false, err
		}
		if p.r < len(v.recs) {
			return s.record(v, p), pos{p.a, p.v, p.r + 1}, true, nil
		}
		if v.bad != nil {
			return rec{}, p, false, v.bad
		}
		if p.v+1 >= len(s.archives[p.a].volNums) {
			return rec{}, p, false, nil
		}
		p = pos{p.a, p.v + 1, 0}
	}
}

// prevIn reads the record before p, within p's archive, returning it and
// its position; ok is false at the start of the archive.
func (s *stream) prevIn(p pos) (r rec, q pos, ok bool, err error) {
	for {
		if p.r > 0 {
			v, err := s.vol(p.a, p.v)
			if err != nil {
				return rec{}, p, false, err
			}
			p.r--
			return s.record(v, p), p, true, nil
		}
		if p.v == 0 {
			return rec{}, p, false, nil
		}
		v, err := s.vol(p.a, p.v-1)
		if err != nil {
			return rec{}, p, false, err
		}
		p = pos{p.a, p.v - 1, len(v.recs)}
	}
}

// madeMark is the <mark> libpcp makes up at the end (reading forwards)
// or start (backwards) of archive a, when another archive follows or
// precedes it: 1ms after a's last record, or 1ms before its start.
func (s *stream) madeMark(a int, forward bool, at pos) (rec, error) {
	var t pmapi.Time
	if forward {
		end, err := s.archives[a].End()
		if err != nil {
			return rec{}, err
		}
		t = end + pmapi.Time(1e6)
	} else {
		t = s.archives[a].label.Start - pmapi.Time(1e6)
	}
	return rec{at: at, t: s.rel(t), mark: true, made: true, time: t}, nil
}

// payload reads the payload of the real record rc into the context's
// record buffer, checking it the first time it is read; it is valid
// until the next call. Only one archive's files are kept open: reading
// a record of another archive closes those of the last.
func (c *Context) payload(rc *rec) ([]byte, error) {
	if rc.at.a != c.openA {
		c.archives[c.openA].Close()
		c.openA = rc.at.a
	}
	p, err := rc.vol.load(rc.at.r, &c.buf)
	if err != nil {
		return nil, err
	}
	if err := rc.vol.checkRecord(rc.at.r, p); err != nil {
		return nil, err
	}
	return p, nil
}

// The directions a <mark> was made up in (libpcp's ac_mark_done).
const (
	madeForw = 1
	madeBack = 2
)

// read reads the next record forwards or backwards from the context's
// position, as __pmLogRead does: at the end (start) of an archive with
// another after (before) it, it first makes up a <mark> and stays put,
// then on the next read in that direction moves into the other archive.
func (c *Context) read(forward bool) (rec, error) {
	s := c.s
	for {
		var r rec
		var q pos
		var ok bool
		var err error
		if forward {
			r, q, ok, err = s.nextIn(c.cur)
		} else {
			r, q, ok, err = s.prevIn(c.cur)
		}
		if err != nil {
			return rec{}, err
		}
		if ok {
			c.cur, c.markMade = q, 0
			return r, nil
		}
		a := c.cur.a
		if (forward && a == len(s.archives)-1) || (!forward && a == 0) {
			return rec{}, pmapi.ErrEOL
		}
		if c.markMade == 0 {
			if forward {
				c.markMade = madeForw
			} else {
				c.markMade = madeBack
			}
			return s.madeMark(a, forward, c.cur)
		}
		// The mark was made: move to the next (previous) archive. As in
		// libpcp, the position to come back to moves there too.
		c.markMade = 0
		if forward {
			c.cur = s.start(a + 1)
			c.saved = c.cur
			if end, err := s.archives[a].End(); err != nil {
				return rec{}, err
			} else if end > s.archives[a+1].label.Start {
				return rec{}, pmapi.ErrLogOverlap
			}
			continue
		}
		if c.cur, err = s.end(a - 1); err != nil {
			return rec{}, err
		}
		c.saved = c.cur
		if end, err := s.archives[a-1].End(); err != nil {
			return rec{}, err
		} else if end > s.archives[a].label.Start {
			return rec{}, pmapi.ErrLogOverlap
		}
	}
}

// cacheRead is read as interpolation uses it (libpcp's cache_read): if
// the last read made up a <mark> and the direction has changed, it gives
// that mark again (made up as for the old direction, in the archive it
// is in) before reading on.
func (c *Context) cacheRead(forward bool) (rec, error) {
	if c.markMade != 0 && (c.markMade == madeForw) != forward {
		old := c.markMade == madeForw
		c.markMade = 0
		return c.s.madeMark(c.cur.a, old, c.cur)
	}
	return c.read(forward)
}
