package archive

import (
	"slices"

	"github.com/gopcp/pmie/pmapi"
)

// drops reports whether an instance with bounds b, born at tBirth and
// dying at tDeath (-1 if unknown), in the result, has no value at tReq
// after all (libpcp's qualification of the result): a counter's value is
// also dropped when a <mark> was passed (seenMark) since the last fetch
// that gave m values. A counter that is not numeric sets m's error.
func (b *boundTimes) drops(m *metricCtl, tReq, tBirth, tDeath float64, seenMark bool) bool {
	if m.desc.Sem == pmapi.SemDiscrete {
		return b.sPrior&(stMark|stUndefined) != 0 || b.tPrior > tReq ||
			(tBirth != -1 && tBirth > tReq) || (tDeath != -1 && tReq > tDeath)
	}
	if b.sPrior&(stMark|stUndefined) != 0 || b.tPrior > tReq ||
		b.sNext&(stMark|stUndefined) != 0 || b.tNext < tReq {
		return true
	}
	if m.desc.Sem == pmapi.SemCounter {
		if !m.desc.Type.Numeric() {
			m.err = pmapi.ErrType
		} else if seenMark && m.lastNumval > 0 {
			// A <mark> lies between this fetch and the last one that
			// gave values: give none, so that no rate is worked out
			// across the gap.
			return true
		}
	}
	return false
}

// build fills r with the values at tReq of ids, those wantList was last
// given (their entries are st.wantMetrics). seenMark says whether a
// <mark> was passed.
func (c *Context) build(tReq float64, ids []pmapi.PMID, r *pmapi.Result, seenMark bool) {
	st := c.interp
	st.builds++
	r.Time = c.origin
	growSets(r, len(ids))
	for j, id := range ids {
		vs := &r.Sets[j]
		vs.PMID = id
		if id == pmapi.PMIDNull {
			continue
		}
		m := st.wantMetrics[j]
		switch {
		case m.known && m.built != st.builds:
			m.built = st.builds
			c.qualifiedValues(m, vs, tReq, seenMark)
		case m.err == 0 && m.numval > 0:
			// Asked for twice: the same values again.
			c.values(m, vs, tReq)
		}
		if m.err != 0 {
			vs.Err, vs.Values = m.err, vs.Values[:0]
		}
		m.lastNumval = m.numval
		if m.err != 0 {
			m.lastNumval = int(m.err)
		}
	}
}

// qualifiedValues puts in vs the values at tReq of m's instances in the
// result, first taking out of the result those that have none (see
// drops).
func (c *Context) qualifiedValues(m *metricCtl, vs *pmapi.ValueSet, tReq float64, seenMark bool) {
	c.instValues(m, vs, tReq, seenMark, true)
}

// values puts in vs the values at tReq of m's instances in the result.
func (c *Context) values(m *metricCtl, vs *pmapi.ValueSet, tReq float64) {
	c.instValues(m, vs, tReq, false, false)
}

// instValues is qualifiedValues (qualify set) or values.
func (c *Context) instValues(m *metricCtl, vs *pmapi.ValueSet, tReq float64, seenMark, qualify bool) {
	if m.uni != nil {
		c.uniformValues(m, vs, tReq, qualify)
		return
	}
	// numval instances are in the result at most. Their values are
	// written in place: appending a composite literal goes through a
	// temporary that is slow to copy.
	vals := slices.Grow(vs.Values[:0], m.numval)[:m.numval]
	n := 0
	for _, ic := range m.insts {
		if !ic.inResult {
			continue
		}
		if qualify && ic.drops(m, tReq, ic.tBirth, ic.tDeath, seenMark) {
			m.numval--
			ic.inResult = false
			continue
		}
		if a, ok := c.interpValue(m, &ic.boundTimes, &ic.vPrior, &ic.vNext, ic.bPrior, tReq); ok {
			vals = putValue(vals, n, ic.inst, a)
			n++
		}
	}
	vs.Values = vals[:n]
}

// uniformValues is qualifiedValues (if qualify is set) or values for a
// metric whose instances share their bounds (see uniform.go). The fast
// path that keeps them so puts every instance in the result (it leaves
// their inResult flags as they were: while a metric is uniform they are
// not used, and the ordinary path sets them afresh at every fetch), and
// guarantees that births and deaths do not matter at tReq: the
// instances are all in the result, or all dropped from it.
func (c *Context) uniformValues(m *metricCtl, vs *pmapi.ValueSet, tReq float64, qualify bool) {
	u := m.uni
	if qualify && u.drops(m, tReq, -1, -1, false) {
		m.numval = 0
	}
	vals := slices.Grow(vs.Values[:0], m.numval)[:m.numval]
	from := m.valueFrom(&u.boundTimes, tReq)
	if m.numval == 0 || from == noValue {
		vs.Values = vals[:0]
		return
	}
	partial := m.wanted < len(m.insts) // the profile leaves some out
	if pick := u.prior; (from == priorValue || from == nextValue) && pick != nil && !partial {
		// every instance takes one bound's value, as it is
		if from == nextValue {
			pick = u.next
		}
		vs.Values = vals[:u.pick(vals, pick, m.desc.Type, m.valfmt == valInsitu)]
		return
	}
	n := 0
	var zero rawValue
	for k, j := range u.pos {
		if partial && !m.insts[k].wanted {
			continue
		}
		vp, vn, bp := &zero, &zero, ""
		if u.prior != nil {
			vp = &u.prior.vals[j]
			if u.prior.blobs != nil {
				bp = u.prior.blobs[j]
			}
		}
		if u.next != nil {
			vn = &u.next.vals[j]
		}
		if a, ok := c.valueOf(m, from, &u.boundTimes, vp, vn, bp, tReq); ok {
			vals = putValue(vals, n, u.ids[k], a)
			n++
		}
	}
	vs.Values = vals[:n]
}

// pick puts in vals, which has room for them, the numeric values of type
// t of column col, in the order of the metric's instances (m.insts),
// and returns how many there are (a value too short for t has none).
func (u *uniform) pick(vals []pmapi.Value, col *column, t pmapi.Type, insitu bool) int {
	ids, pos := u.ids, u.pos
	ids, vals = ids[:len(pos)], vals[:len(pos)]
	n := 0
	switch {
	case insitu:
		for k, j := range pos {
			vals[k].Inst, vals[k].Atom = ids[k], pmapi.Insitu(t, col.vals[j].lval)
		}
		return len(pos)
	case t == pmapi.Type64 || t == pmapi.TypeU64 || t == pmapi.TypeDouble:
		for k, j := range pos {
			if v := &col.vals[j]; v.n >= 8 {
				vals[n].Inst, vals[n].Atom = ids[k], wideAtom(t, v.num)
				n++
			}
		}
		return n
	}
	for k, j := range pos {
		if a, ok := numAtom(t, insitu, &col.vals[j]); ok {
			vals[n].Inst, vals[n].Atom = ids[k], a
			n++
		}
	}
	return n
}

// putValue sets vals[n], appending it if vals is too short.
func putValue(vals []pmapi.Value, n int, inst int32, a pmapi.Atom) []pmapi.Value {
	if n < len(vals) {
		vals[n].Inst, vals[n].Atom = inst, a
		return vals
	}
	return append(vals, pmapi.Value{Inst: inst, Atom: a})
}
