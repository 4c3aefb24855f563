package archive

import (
	"github.com/gopcp/pmie/pmapi"
)

// pos is a place in the records of a context's archives: byte offset
// off of the v-th volume (an index into volNums) of archive a, between
// the record that ends there and the one that starts there; offEnd is
// the end of the volume. As in libpcp, the end of one volume and the
// start of the next are the same place in two spellings; between
// archives lies a <mark> that libpcp makes up.
type pos struct {
	a, v int
	off  int64
}

// offEnd is the offset of a position at the end of its volume, wherever
// that turns out to be.
const offEnd = -1

// rec is a record read from the stream: a real one, or the <mark>
// libpcp makes up between two archives of a context.
type rec struct {
	at   pos // where the record starts (for a made-up mark, the position it was made at)
	t    float64
	mark bool
	made bool // a made-up mark
	time pmapi.Time
	r    *record // the record read; nil for a made-up mark
}

// record is a data record read from a volume, with its framing and value
// sets checked: its header and its payload, a copy or a view of the
// volume's window (see recHead.gen), which holds until the next record is
// read (and while the record is in the cache, until the window moves).
type record struct {
	vol  *volume
	head recHead
	t    float64 // the time, in seconds after the stream's base
	p    []byte  // the payload
	buf  []byte  // storage of p
	used uint64  // when last read, for the cache
	// serial numbers the records a stream reads, from 1: a record
	// object is reused for others, its serial tells which it holds.
	serial uint64
}

// recCache is how many records a stream keeps, read and checked: the
// records interpolation goes back and forth over.
const recCache = 8

// stream reads the records of a context's archives forwards and
// backwards, as __pmLogRead does, keeping the last few read.
type stream struct {
	archives []*Archive
	base     pmapi.Time // start of the first archive: time 0
	cache    [recCache]*record
	clock    uint64
	serial   uint64  // the last record.serial given
	spare    *record // a record to read into before it is cached
}

func newStream(archives []*Archive) *stream {
	return &stream{archives: archives, base: archives[0].label.Start}
}

// tsub is __pmTimestampSub: the seconds from b to a, computed as libpcp
// computes them, in x87 extended precision rounded to a double.
func tsub(a, b pmapi.Time) float64 {
	return pmapi.SubSeconds(a, b)
}

// rel is t as seconds after the start of the first archive.
func (s *stream) rel(t pmapi.Time) float64 { return tsub(t, s.base) }

// vol returns the v-th volume of archive a (not opened).
func (s *stream) vol(a, v int) *volume {
	ar := s.archives[a]
	return ar.vols[ar.volNums[v]]
}

// start is the position of the first record of archive a.
func (s *stream) start(a int) pos {
	return pos{a, 0, s.vol(a, 0).first()}
}

// end is the position after the last record of archive a.
func (s *stream) end(a int) pos {
	return pos{a, len(s.archives[a].volNums) - 1, offEnd}
}

// lookup finds a cached record of v starting (forward) or ending
// (backwards) at off.
func (s *stream) lookup(v *volume, off int64, forward bool) *record {
	for _, r := range s.cache {
		if r == nil || r.vol != v {
			continue
		}
		if (forward && r.head.off == off) || (!forward && r.head.end() == off) {
			if r.head.gen != 0 && !v.holds(r.head.gen) {
				return nil // its payload was a view of a window since moved
			}
			s.clock++
			r.used = s.clock
			return r
		}
	}
	return nil
}

// read reads the record of v at off (reading forwards) or ending at off
// (backwards), checking it, or finds it in the cache. ok is false at
// the end (start) of the volume.
func (s *stream) read(v *volume, off int64, forward bool) (r *record, ok bool, err error) {
	if r := s.lookup(v, off, forward); r != nil {
		return r, true, nil
	}
	r = s.spare
	if r == nil {
		r = &record{}
	}
	var edge bool
	if forward {
		r.head, r.p, edge, err = v.readAt(off, &r.buf)
	} else {
		r.head, r.p, edge, err = v.readBefore(off, &r.buf)
	}
	if err != nil || edge {
		s.spare = r
		return nil, false, err
	}
	if err := v.checkRecord(&r.head, r.p); err != nil {
		s.spare = r
		return nil, false, err
	}
	v.noteRecord(&r.head, r.p)
	s.serial++
	r.vol, r.t, r.serial = v, s.rel(r.head.time), s.serial
	s.spare = s.insert(r)
	return r, true, nil
}

// insert caches r in place of the record least recently read, which it
// returns (nil if there was a free place).
func (s *stream) insert(r *record) *record {
	s.clock++
	r.used = s.clock
	k := 0
	for i, c := range s.cache {
		if c == nil {
			s.cache[i] = r
			return nil
		}
		if c.used < s.cache[k].used {
			k = i
		}
	}
	old := s.cache[k]
	s.cache[k] = r
	old.vol = nil
	return old
}

// forget drops the cached records of archive a, whose files are being
// closed.
func (s *stream) forget(a *Archive) {
	for i, r := range s.cache {
		if r != nil && r.vol != nil && r.vol.a == a {
			s.cache[i] = nil
		}
	}
}

// makeRec makes the rec for record r, found at p.
func makeRec(r *record, p pos) rec {
	return rec{at: p, t: r.t, mark: r.head.nsets == 0, time: r.head.time, r: r}
}

// nextIn reads the record at p, within p's archive, returning it and
// the position after it; ok is false at the end of the archive. Volumes
// that cannot be opened are passed over, as libpcp does, with a warning.
func (s *stream) nextIn(p pos) (r rec, q pos, ok bool, err error) {
	a := s.archives[p.a]
	for {
		v := s.vol(p.a, p.v)
		if p.off != offEnd {
			rd, found, err := s.read(v, p.off, true)
			if err != nil {
				return rec{}, p, false, err
			}
			if found {
				return makeRec(rd, p), pos{p.a, p.v, rd.head.end()}, true, nil
			}
		}
		next := p.v + 1
		for next < len(a.volNums) && !a.usable(s.vol(p.a, next)) {
			next++
		}
		if next >= len(a.volNums) {
			return rec{}, pos{p.a, len(a.volNums) - 1, offEnd}, false, nil
		}
		p = pos{p.a, next, s.vol(p.a, next).first()}
	}
}

// prevIn reads the record before p, within p's archive, returning it and
// its position; ok is false at the start of the archive.
func (s *stream) prevIn(p pos) (r rec, q pos, ok bool, err error) {
	a := s.archives[p.a]
	for {
		v := s.vol(p.a, p.v)
		if p.off == offEnd {
			if !a.usable(v) {
				p.off = v.first()
			} else if p.off, err = v.length(); err != nil {
				return rec{}, p, false, err
			}
		}
		rd, found, err := s.read(v, p.off, false)
		if err != nil {
			return rec{}, p, false, err
		}
		if found {
			q := pos{p.a, p.v, rd.head.off}
			return makeRec(rd, q), q, true, nil
		}
		prev := p.v - 1
		for prev >= 0 && !a.usable(s.vol(p.a, prev)) {
			prev--
		}
		if prev < 0 {
			return rec{}, pos{p.a, 0, s.vol(p.a, 0).first()}, false, nil
		}
		p = pos{p.a, prev, offEnd}
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

// payload is the payload of the real record rc, read and checked. Only
// one archive's files are kept open: reading a record of another
// archive closes those of the last.
func (c *Context) payload(rc *rec) []byte {
	if rc.at.a != c.openA {
		c.archives[c.openA].Close()
		c.openA = rc.at.a
	}
	return rc.r.p
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
		if c.cur.a != c.openA {
			c.archives[c.openA].Close()
			c.openA = c.cur.a
		}
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
		c.cur = s.end(a - 1)
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
