package archive

import (
	"slices"

	"github.com/gopcp/pmie/pmapi"
)

// The fast path of interpolation. Stepping forwards through a regular
// archive (the common case: pmie over an archive), every instance of a
// metric has the same bounds: the last record at or before the requested
// time and the first at or after it, both holding every instance. libpcp's
// algorithm then does the same thing for each instance, one at a time.
// Such a metric is kept uniform: its bounds' times and states once
// (uniform.boundTimes), their values as columns decoded from the two
// records, in the order the records hold the instances; the instCtls'
// bounds are stale meanwhile.
//
// A fetch takes the fast path when every metric tracked is uniform, the
// fetch asks for what the last one asked for, reading goes on serially
// forwards, and every record read on the way holds the metrics it holds
// with the same instances in the same order. It reads those records
// first without changing anything (a <mark>, the end of the archive, an
// error or a record of another shape sends the fetch down libpcp's path
// instead, the metrics made ordinary again), then applies to each metric
// exactly the steps libpcp's update_bounds applies to each of its
// instances (take). A metric is made uniform again after an ordinary
// fetch that leaves its instances with the same bounds.

// column holds the values of a uniform metric's instances in one
// record, in the order of the metric's layout.
type column struct {
	vals  []rawValue
	blobs []string // for strings, aggregates and events
	rec   uint64   // the serial of the record decoded (see record.serial), while decoding one fetch's
	free  bool     // on the free list
}

// uniform is the state of a metric whose instances share their bounds.
type uniform struct {
	boundTimes
	prior, next *column // nil where there is no bound
	cand        boundTimes
	cPrior      *column // cand's values, while a fetch reads ahead
	cNext       *column
	free        []*column
	ics         []*instCtl // the instances, in the order records hold them
	layout      []int32    // their identifiers
	pos         []int32    // for each of m.insts, its place in the layout
	ids         []int32    // the identifiers of m.insts, in their order
	maxBirth    float64    // the latest instance's birth, or -1
	minDeath    float64    // the earliest instance's death, or -1
}

// canBeUniform reports whether m's instances share their bounds and a
// record has shown where each is (each once), so that m can be made
// uniform; it allocates nothing.
func (m *metricCtl) canBeUniform() bool {
	n := len(m.insts)
	if m.uni != nil {
		return true
	}
	if !m.known || n == 0 || m.valfmt == -1 || len(m.byPos) != n {
		return false
	}
	// The instances the profile leaves out are read from the records
	// with the others, but not searched for: their bounds may lag.
	var first *boundTimes
	for _, ic := range m.insts {
		ic.seen = false
		if !ic.wanted {
			continue
		}
		if first == nil {
			if ic.search {
				return false
			}
			first = &ic.boundTimes
		}
		if ic.boundTimes != *first || ic.tFirst != -1 || ic.tLast != -1 {
			return false
		}
	}
	if first == nil {
		return false
	}
	for _, ic := range m.byPos {
		if ic == nil || ic.m != m || ic.seen {
			return false
		}
		ic.seen = true
	}
	return true
}

// makeUniform makes m, which canBeUniform, uniform, reusing the storage
// it had when last uniform.
func (m *metricCtl) makeUniform() {
	if m.uni != nil {
		return
	}
	n := len(m.insts)
	u := m.spare
	if u == nil {
		u = &uniform{}
	}
	m.spare = nil
	var first boundTimes
	for _, ic := range m.insts {
		if ic.wanted {
			first = ic.boundTimes
			break
		}
	}
	u.boundTimes, u.maxBirth, u.minDeath = first, -1, -1
	u.ics = append(u.ics[:0], m.byPos...)
	u.layout = slices.Grow(u.layout[:0], n)[:n]
	u.pos = slices.Grow(u.pos[:0], n)[:n]
	u.ids = slices.Grow(u.ids[:0], n)[:n]
	for k, ic := range m.insts {
		u.ids[k] = ic.inst
	}
	for j, ic := range u.ics {
		u.layout[j], u.pos[ic.idx] = ic.inst, int32(j)
		u.maxBirth = max(u.maxBirth, ic.tBirth)
		if ic.tDeath >= 0 && (u.minDeath < 0 || ic.tDeath < u.minDeath) {
			u.minDeath = ic.tDeath
		}
	}
	blob := isBlob(m.desc.Type)
	u.prior, u.next = nil, nil
	if u.tPrior >= 0 {
		u.prior = u.newColumn(n, blob)
		u.prior.fill(u.ics, func(ic *instCtl) (rawValue, string) { return ic.vPrior, ic.bPrior })
	}
	if u.tNext >= 0 {
		u.next = u.newColumn(n, blob)
		u.next.fill(u.ics, func(ic *instCtl) (rawValue, string) { return ic.vNext, ic.bNext })
	}
	m.uni = u
}

// fill sets the column's values to value(ic) of the instances ics.
func (col *column) fill(ics []*instCtl, value func(*instCtl) (rawValue, string)) {
	for j, ic := range ics {
		v, b := value(ic)
		col.vals[j] = v
		if col.blobs != nil {
			col.blobs[j] = b
		}
	}
}

// newColumn is a column for n values, from the free list if it has one;
// they are for the caller to set.
func (u *uniform) newColumn(n int, blob bool) *column {
	var col *column
	if k := len(u.free); k > 0 {
		col, u.free = u.free[k-1], u.free[:k-1]
		col.free = false
	} else {
		col = &column{}
	}
	col.vals = slices.Grow(col.vals[:0], n)[:n]
	col.blobs = col.blobs[:0]
	if blob {
		col.blobs = slices.Grow(col.blobs, n)[:n]
		clear(col.blobs)
	}
	col.rec = 0
	return col
}

// ordinary makes m's instances hold their bounds again.
func (m *metricCtl) ordinary() {
	u := m.uni
	if u == nil {
		return
	}
	for j, ic := range u.ics {
		ic.boundTimes = u.boundTimes
		ic.vPrior, ic.bPrior = u.prior.value(j)
		ic.vNext, ic.bNext = u.next.value(j)
	}
	p, n := u.prior, u.next
	u.prior, u.next = nil, nil
	u.release(p)
	u.release(n)
	m.uni, m.spare = nil, u
}

// ordinary makes every metric ordinary.
func (st *interpState) ordinary() {
	if st.uniform == 0 {
		return
	}
	for _, m := range st.list {
		m.ordinary()
	}
	st.uniform = 0
}

// makeUniform makes uniform the metrics that can be, after an ordinary
// fetch stepping forwards.
func (st *interpState) makeUniform() {
	// The fast path needs every metric uniform: unless all can be, none
	// is made so, or metrics would be made uniform and ordinary again at
	// every fetch.
	for _, m := range st.list {
		if !m.canBeUniform() {
			return
		}
	}
	for _, m := range st.list {
		m.makeUniform()
	}
	st.uniform = len(st.metrics)
}

// fits reports whether value set s has as many values as m has
// instances, in the value format seen before: whether it can hold them
// in the order of the layout (see matches).
func (u *uniform) fits(m *metricCtl, s *rawSet) bool {
	return int(s.numval) == len(u.layout) && s.valfmt == m.valfmt
}

// matches reports whether value set s, which fits, holds the values of
// m's instances in the order of its layout.
func (u *uniform) matches(s *rawSet) bool {
	w := s.vals[:8*len(u.layout)]
	for j, in := range u.layout {
		if int32(be.Uint32(w[8*j:])) != in {
			return false
		}
	}
	return true
}

// decode is the column of the values of s, from record r (payload p),
// decoded once for the fetch, or nil if s, which fits, does not hold the
// values of m's instances in the order of the layout after all.
func (u *uniform) decode(m *metricCtl, r *record, s *rawSet, p []byte, strs *interner) *column {
	for _, col := range []*column{u.cPrior, u.cNext} {
		if col != nil && col.rec == r.serial {
			if !u.matches(s) {
				return nil
			}
			return col
		}
	}
	col := u.newColumn(len(u.layout), isBlob(m.desc.Type))
	col.rec = r.serial
	if !col.decode(m, u.layout, s.vals, p, strs) {
		u.release(col)
		return nil
	}
	return col
}

// decode sets the column's values to those of the value set of m whose
// (instance, value) pairs are w, from record payload p, checking on the
// way that the set's instances are layout, and reporting whether they
// are. The usual values, insitu or of the metric's own 8-byte type, are
// read straight from the record.
func (col *column) decode(m *metricCtl, layout []int32, w, p []byte, strs *interner) bool {
	vals := col.vals[:len(layout)]
	w = w[:8*len(layout)]
	if m.valfmt == valInsitu {
		for j, in := range layout {
			x := w[8*j : 8*j+8]
			if int32(be.Uint32(x)) != in {
				return false
			}
			vals[j] = rawValue{lval: be.Uint32(x[4:])}
		}
		return true
	}
	// The header a value block of the metric's own 8-byte type has.
	wide := uint32(0)
	switch m.desc.Type {
	case pmapi.Type64, pmapi.TypeU64, pmapi.TypeDouble:
		wide = uint32(m.desc.Type)<<24 | 12
	}
	for j, in := range layout {
		x := w[8*j : 8*j+8]
		if int32(be.Uint32(x)) != in {
			return false
		}
		lval := be.Uint32(x[4:])
		if off := int(lval)*4 - pduHeader; wide != 0 && off+12 <= len(p) {
			if b := p[off : off+12]; be.Uint32(b) == wide {
				vals[j] = rawValue{lval: lval, n: 8, num: be.Uint64(b[4:])}
				continue
			}
		}
		vals[j] = rawValue{lval: lval}
		if blk := m.blockValue(p, &vals[j]); col.blobs != nil {
			col.blobs[j] = strs.str(blk)
		}
	}
	return true
}

// value is the j-th value of the column, or none if there is no column.
func (col *column) value(j int) (rawValue, string) {
	if col == nil {
		return rawValue{}, ""
	}
	if col.blobs != nil {
		return col.vals[j], col.blobs[j]
	}
	return col.vals[j], ""
}

// release puts col on the free list unless a bound holds it (or it is
// there already).
func (u *uniform) release(col *column) {
	if col != nil && !col.free && col != u.prior && col != u.next && col != u.cPrior && col != u.cNext {
		col.rec, col.free = 0, true
		u.free = append(u.free, col)
	}
}

// fastSearch brings the bounds of the instances asked for up to date
// for tReq as search does, if every metric is uniform and the records
// to read are regular, reporting whether it did (if not, nothing has
// changed but the records cached). The instances asked for are then all
// in the result, as search would put them back, without their inResult
// flags being set (see uniformValues).
func (c *Context) fastSearch(tReq float64) bool {
	st := c.interp
	if noFastPath || c.direction <= 0 || !c.serial || c.markMade != 0 || st.uniform == 0 || st.uniform != len(st.metrics) {
		return false
	}
	n := 0
	for _, m := range st.wantMetrics {
		if m == nil || !m.known || m.wanted == 0 {
			return false
		}
		u := m.uni
		if (u.maxBirth >= 0 && tReq < u.maxBirth) || (u.minDeath >= 0 && tReq > u.minDeath) {
			return false
		}
		if u.lacksPrior(tReq) || u.wantsPrior(tReq, c.direction) {
			return false
		}
	}
	for _, m := range st.list {
		m.uni.cand = m.uni.boundTimes
		m.uni.cand.search = false
	}
	for _, m := range st.wantMetrics {
		u := m.uni
		if !u.cand.search && u.cand.wantsNext(tReq, c.direction) {
			u.cand.search = true
			n += len(u.layout)
		}
	}
	saved, cur := c.saved, c.saved
	ok := c.readAhead(tReq, n, &saved, &cur)
	for _, m := range st.list {
		u := m.uni
		oldPrior, oldNext := u.prior, u.next
		if ok {
			u.boundTimes = u.cand
			u.prior, u.next = u.cPrior, u.cNext
		}
		candPrior, candNext := u.cPrior, u.cNext
		u.cPrior, u.cNext = nil, nil
		for _, col := range [...]*column{oldPrior, oldNext, candPrior, candNext} {
			u.release(col)
		}
		if u.prior != nil {
			u.prior.rec = 0
		}
		if u.next != nil {
			u.next.rec = 0
		}
	}
	if !ok {
		return false
	}
	c.saved, c.cur = saved, cur
	st.unbound, st.lastKnown = nil, 0
	st.fast++
	return true
}

// readAhead reads forwards from *cur as scan does, until the n instances
// searched for are bounded, taking each record's values as bounds of the
// uniform metrics' candidate bounds; it reports false if a record is not
// regular or cannot be read (the ordinary path then meets the same
// record, and any error, itself). *saved and *cur are left where scan
// would leave the saved and current positions.
func (c *Context) readAhead(tReq float64, n int, saved, cur *pos) bool {
	st := c.interp
	for _, m := range st.list {
		m.uni.cPrior, m.uni.cNext = m.uni.prior, m.uni.next
	}
	done := 0
	for done < n {
		rc, q, ok, err := c.s.nextIn(*cur)
		if err != nil || !ok || rc.mark {
			return false
		}
		*cur = q
		if rc.t <= tReq {
			*saved = q
		}
		r := rc.r
		b := r.p[recHeaderLen(r.vol.f.label.Version):]
		for k := int32(0); k < r.head.nsets; k++ {
			var s rawSet
			s, b = nextSet(b)
			m := st.metricAt(int(k), s.pmid)
			if m == nil || s.numval <= 0 {
				continue
			}
			u := m.uni
			if !u.fits(m, &s) {
				return false
			}
			moves := u.cand.take(tReq, rc.t, markForw, len(u.layout), &done)
			if moves == 0 {
				if !u.matches(&s) {
					return false
				}
				continue
			}
			// (The candidate bounds taken are dropped if the set's
			// instances do not match.)
			col := u.decode(m, r, &s, r.p, &c.strs)
			if col == nil {
				return false
			}
			oldPrior, oldNext := u.cPrior, u.cNext
			if moves&priorToNext != 0 {
				u.cNext = u.cPrior
			}
			if moves&takesPrior != 0 {
				u.cPrior = col
			}
			if moves&nextToPrior != 0 {
				u.cPrior = u.cNext
			}
			if moves&takesNext != 0 {
				u.cNext = col
			}
			u.release(oldPrior)
			u.release(oldNext)
			u.release(col)
		}
	}
	return true
}

// reset is interpState.reset for a uniform metric.
func (u *uniform) reset(tReq float64) {
	if u.tPrior > tReq || u.tNext < tReq {
		p, n := u.prior, u.next
		u.boundTimes, u.prior, u.next = noBounds, nil, nil
		u.release(p)
		u.release(n)
	}
}

// noFastPath turns the fast path off, for tests that compare it with
// libpcp's.
var noFastPath bool
