package archive

import (
	"math"
	"math/big"

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
	return tsubParts(a.Sec()-b.Sec(), a.Nsec()-b.Nsec())
}

// tsubParts is tsub given the differences of the seconds and of the
// nanoseconds.
func tsubParts(sec, nsec int64) float64 {
	if nsec == 0 {
		return float64(sec)
	}
	x := new(big.Float).SetPrec(64).SetInt64(nsec)
	x.Quo(x, big.NewFloat(1e9).SetPrec(64))
	y := new(big.Float).SetPrec(64).SetInt64(sec)
	y.Add(y, x)
	f, _ := y.Float64()
	return f
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

// forw reads the record at p, returning it and the position after it.
func (s *stream) forw(p pos) (rec, pos, error) {
	for {
		v, err := s.vol(p.a, p.v)
		if err != nil {
			return rec{}, p, err
		}
		if p.r < len(v.recs) {
			info := &v.recs[p.r]
			return rec{at: p, t: s.recTime(v, p.r), mark: info.nsets == 0, vol: v, time: info.time}, pos{p.a, p.v, p.r + 1}, nil
		}
		if v.bad != nil {
			return rec{}, p, v.bad
		}
		if p.v+1 < len(s.archives[p.a].volNums) {
			p = pos{p.a, p.v + 1, 0}
			continue
		}
		if p.a+1 >= len(s.archives) {
			return rec{}, p, pmapi.ErrEOL
		}
		// The end of an archive with another after it: a <mark> 1ms
		// after its last record.
		end, err := s.archives[p.a].End()
		if err != nil {
			return rec{}, p, err
		}
		next := s.archives[p.a+1]
		if end > next.label.Start {
			return rec{}, p, pmapi.ErrLogOverlap
		}
		t := end + pmapi.Time(1e6)
		return rec{at: pos{p.a + 1, 0, 0}, t: s.rel(t), mark: true, made: true, time: t}, pos{p.a + 1, 0, 0}, nil
	}
}

// back reads the record before p, returning it and its position.
func (s *stream) back(p pos) (rec, pos, error) {
	for {
		if p.r > 0 {
			v, err := s.vol(p.a, p.v)
			if err != nil {
				return rec{}, p, err
			}
			p.r--
			info := &v.recs[p.r]
			return rec{at: p, t: s.recTime(v, p.r), mark: info.nsets == 0, vol: v, time: info.time}, p, nil
		}
		if p.v > 0 {
			v, err := s.vol(p.a, p.v-1)
			if err != nil {
				return rec{}, p, err
			}
			p = pos{p.a, p.v - 1, len(v.recs)}
			continue
		}
		if p.a == 0 {
			return rec{}, p, pmapi.ErrEOL
		}
		// The start of an archive with another before it: a <mark> 1ms
		// before its label's start.
		t := s.archives[p.a].label.Start - pmapi.Time(1e6)
		prev, err := s.end(p.a - 1)
		if err != nil {
			return rec{}, p, err
		}
		if end, err := s.archives[p.a-1].End(); err != nil {
			return rec{}, p, err
		} else if end > s.archives[p.a].label.Start {
			return rec{}, p, pmapi.ErrLogOverlap
		}
		return rec{at: p, t: s.rel(t), mark: true, made: true, time: t}, prev, nil
	}
}

// read reads one record forwards (dir > 0) or backwards.
func (s *stream) read(p pos, forward bool) (rec, pos, error) {
	if forward {
		return s.forw(p)
	}
	return s.back(p)
}

// payload is the bytes of a real record.
func (r *rec) payload() []byte { return r.vol.payload(r.at.r) }
