package archive

import (
	"github.com/gopcp/pmie/pmapi"
)

// updateBounds narrows the bounds of every metric-instance asked for so
// far with record rc (libpcp's update_bounds). mark says how a <mark>
// counts; done, if not nil, counts the searched-for instances this
// record bounds; seenMark is set if a <mark> is taken as a bound in the
// direction opposite to the search.
func (c *Context) updateBounds(tReq float64, rc *rec, mark int, done *int, seenMark *bool) error {
	tThis := rc.t
	if rc.mark {
		if mark != markNone && !c.ignoreMark(rc) {
			c.markBounds(tReq, tThis, mark, done, seenMark)
		}
		return nil
	}
	v := rc.r.vol
	p := c.payload(rc)
	b := p[recHeaderLen(v.f.label.Version):]
	st := c.interp
	for k := int32(0); k < rc.r.head.nsets; k++ {
		var s rawSet
		s, b = nextSet(b)
		m := st.metricAt(int(k), s.pmid)
		if m == nil {
			continue
		}
		if s.numval > 0 {
			if m.valfmt == -1 {
				if !valfmtFits(m.desc.Type, m.known, s.valfmt) {
					return v.f.errorf(rc.r.head.off, pmapi.ErrLogRec, "%s: value format %d does not suit type %s", s.pmid, s.valfmt, m.desc.Type)
				}
				m.valfmt = s.valfmt
			} else if m.valfmt != s.valfmt {
				return v.f.errorf(rc.r.head.off, pmapi.ErrLogRec, "%s: value format changed from %d to %d", s.pmid, m.valfmt, s.valfmt)
			}
		}
		for i := 0; i < int(s.numval); i++ {
			ic := m.lookupInst(i, s.inst(i))
			if ic == nil {
				continue
			}
			val := rawValue{lval: s.lval(i)}
			var blk []byte
			if m.valfmt != valInsitu {
				blk = m.blockValue(p, &val)
			}
			ic.bound(tReq, tThis, val, blk, &c.strs, mark, done)
		}
	}
	return nil
}

// blockValue completes raw value v (not insitu) of m from its value
// block in record payload p: a number's bytes, as libpcp's
// interpolation reads them; for a string, aggregate or event, it returns
// the block's bytes in the order libpcp holds them (which matters when
// the block is not of the metric's type, a mismatch v then notes).
func (m *metricCtl) blockValue(p []byte, v *rawValue) []byte {
	vt, b := block(p, v.lval)
	if isBlob(m.desc.Type) {
		if !pmapi.BlockFits(m.desc.Type, vt, len(b)) {
			v.n = blobMismatch
		}
		return pmapi.HostOrder(vt, b)
	}
	v.setNum(asRead(m.desc.Type, vt, b))
	return nil
}

// ignoreMark reports whether interpolation passes over the <mark> rc,
// just read (forwards or backwards), following Options.IgnoreMarks. Like
// libpcp it peeks at the records around the read position: forwards to
// the next record, then back past the mark to the one before. (Read
// backwards, that finds the mark itself and the record two before it,
// as libpcp does.) The position is left where it was.
func (c *Context) ignoreMark(rc *rec) bool {
	if !c.opts.IgnoreMarks {
		return false
	}
	gap := c.opts.IgnoreMarkGap
	if gap <= 0 {
		return true
	}
	cur, made := c.cur, c.markMade
	defer func() {
		c.cur = cur
		if rc.made {
			c.markMade = made
		} else {
			c.markMade = 0
		}
	}()
	next, err := c.read(true)
	if err != nil {
		return false
	}
	for range 2 {
		if _, err = c.read(false); err != nil {
			return false
		}
	}
	prior, err := c.read(false)
	if err != nil {
		return false
	}
	return next.t-prior.t <= gap.Seconds()
}

// valfmtFits reports whether a value format suits a metric type, as
// libpcp checks before it interpolates.
func valfmtFits(t pmapi.Type, known bool, valfmt int32) bool {
	if !known {
		t = -1
	}
	switch t {
	case pmapi.Type32, pmapi.TypeU32:
		return valfmt == valInsitu
	case pmapi.TypeFloat:
		return valfmt == valInsitu || valfmt == valDPTR || valfmt == valSPTR
	}
	return valfmt == valDPTR || valfmt == valSPTR
}

// What a value does to a pair of bounds, in the order it does it (see
// take).
const (
	priorToNext = 1 << iota // the old prior bound becomes the next one
	takesPrior              // the value becomes the prior bound
	nextToPrior             // the old next bound becomes the prior one
	takesNext               // the value becomes the next bound
)

// take is libpcp's update_bounds for a value at tThis, as the bounds of
// n instances that share them: it takes the value as a bound where it is
// nearer to tReq than the bound there, updating the times and states,
// counts into done the instances searched for that it bounds, and says
// which values move where, in order. (The value taken as the prior bound
// is never moved to the next.)
func (b *boundTimes) take(tReq, tThis float64, mark, n int, done *int) int {
	moves := 0
	if tThis <= tReq && (b.tPrior > tReq || tThis >= b.tPrior) {
		if b.tPrior < b.tNext && b.tPrior >= tReq {
			b.tNext, b.sNext = b.tPrior, b.sPrior&^stScanned
			moves |= priorToNext
		}
		b.tPrior, b.sPrior = tThis, stValue
		moves |= takesPrior
		if mark == markBack && b.search && done != nil {
			b.search = false
			*done += n
			b.sPrior |= stScanned
		}
	}
	if tThis >= tReq && (b.tNext < tReq || tThis <= b.tNext) {
		if b.tPrior < b.tNext && b.tNext <= tReq {
			b.tPrior, b.sPrior = b.tNext, b.sNext&^stScanned
			moves |= nextToPrior
		}
		b.tNext, b.sNext = tThis, stValue
		moves |= takesNext
		if mark == markForw && b.search && done != nil {
			b.search = false
			*done += n
			b.sNext |= stScanned
		}
	}
	return moves
}

// bound takes a value at tThis as a bound of ic where it is nearer to
// tReq than the bound it has (see take). A string, aggregate or event
// value is given as blk, in the record, and copied from strs if taken.
func (ic *instCtl) bound(tReq, tThis float64, val rawValue, blk []byte, strs *interner, mark int, done *int) {
	moves := ic.take(tReq, tThis, mark, 1, done)
	if moves == 0 {
		return
	}
	b := ""
	if blk != nil && moves&(takesPrior|takesNext) != 0 {
		b = strs.str(blk)
	}
	if moves&priorToNext != 0 {
		ic.vNext, ic.bNext = ic.vPrior, ic.bPrior
	}
	if moves&takesPrior != 0 {
		ic.vPrior, ic.bPrior = val, b
	}
	if moves&nextToPrior != 0 {
		ic.vPrior, ic.bPrior = ic.vNext, ic.bNext
	}
	if moves&takesNext != 0 {
		ic.vNext, ic.bNext = val, b
	}
}

// markBounds takes a <mark> at tThis as a bound of every instance asked
// for in this fetch where it is nearer than the bound it has.
func (c *Context) markBounds(tReq, tThis float64, mark int, done *int, seenMark *bool) {
	for ic := c.interp.want; ic != nil; ic = ic.want {
		if tThis <= tReq && (tThis >= ic.tPrior || ic.tPrior > tReq) {
			ic.tPrior, ic.sPrior, ic.vPrior, ic.bPrior = tThis, stMark, rawValue{lval: ic.vPrior.lval}, ""
			if mark == markBack {
				if ic.search && done != nil {
					ic.search = false
					*done++
					ic.sPrior |= stScanned
				}
			} else if seenMark != nil {
				*seenMark = true
			}
		}
		if tThis >= tReq && (tThis <= ic.tNext || ic.tNext < 0 || ic.tNext < tReq) {
			ic.tNext, ic.sNext, ic.vNext, ic.bNext = tThis, stMark, rawValue{lval: ic.vNext.lval}, ""
			if mark == markForw {
				if ic.search && done != nil {
					ic.search = false
					*done++
					ic.sNext |= stScanned
				}
			} else if seenMark != nil {
				*seenMark = true
			}
		}
	}
}
