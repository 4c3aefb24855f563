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
	metrics := c.interp.metrics
	for k := int32(0); k < rc.r.head.nsets; k++ {
		var s rawSet
		s, b = nextSet(b)
		m := metrics[s.pmid]
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
		blob := isBlob(m.desc.Type)
		for i := 0; i < int(s.numval); i++ {
			ic := m.lookupInst(i, s.inst(i))
			if ic == nil {
				continue
			}
			val := rawValue{lval: s.lval(i)}
			var blk []byte
			if m.valfmt != valInsitu {
				_, b := block(p, val.lval)
				if blob {
					blk = b
				} else {
					val.setNum(b)
				}
			}
			ic.bound(tReq, tThis, val, blk, &c.strs, mark, done)
		}
	}
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

// bound takes a value at tThis as a bound of ic where it is nearer to
// tReq than the bound it has. A string, aggregate or event value is
// given as blk, in the record, and copied from strs if taken.
func (ic *instCtl) bound(tReq, tThis float64, val rawValue, blk []byte, strs *interner, mark int, done *int) {
	b, kept := "", false
	keep := func() string {
		if blk != nil && !kept {
			b, kept = strs.str(blk), true
		}
		return b
	}
	if tThis <= tReq && (ic.tPrior > tReq || tThis >= ic.tPrior) {
		if ic.tPrior < ic.tNext && ic.tPrior >= tReq {
			// The old prior bound is at or after tReq: it becomes the
			// next bound.
			ic.tNext, ic.sNext, ic.vNext, ic.bNext = ic.tPrior, ic.sPrior&^stScanned, ic.vPrior, ic.bPrior
		}
		ic.tPrior, ic.sPrior, ic.vPrior, ic.bPrior = tThis, stValue, val, keep()
		if mark == markBack && ic.search && done != nil {
			ic.search = false
			*done++
			ic.sPrior |= stScanned
		}
	}
	if tThis >= tReq && (ic.tNext < tReq || tThis <= ic.tNext) {
		if ic.tPrior < ic.tNext && ic.tNext <= tReq {
			// The old next bound is at or before tReq: it becomes the
			// prior bound.
			ic.tPrior, ic.sPrior, ic.vPrior, ic.bPrior = ic.tNext, ic.sNext&^stScanned, ic.vNext, ic.bNext
		}
		ic.tNext, ic.sNext, ic.vNext, ic.bNext = tThis, stValue, val, keep()
		if mark == markForw && ic.search && done != nil {
			ic.search = false
			*done++
			ic.sNext |= stScanned
		}
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
