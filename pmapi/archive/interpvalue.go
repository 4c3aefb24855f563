package archive

import (
	"math"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// Where an instance's value at the requested time comes from (see
// valueFrom).
const (
	noValue    = iota
	priorValue // the prior bound's
	nextValue  // the next bound's
	lineValue  // the line between the bounds (counters)
	blobValue  // the prior bound's string, aggregate or event
)

// valueFrom says where the value at tReq of an instance of m with bounds
// b comes from: a bound's value when tReq is at a bound; otherwise, by
// the metric's semantics, the prior value (discrete and instant metrics)
// or the line between the bounds (counters). Strings, aggregates and
// events always take the prior value.
func (m *metricCtl) valueFrom(b *boundTimes, tReq float64) int {
	switch m.desc.Type {
	case pmapi.TypeString, pmapi.TypeAggregate, pmapi.TypeEvent, pmapi.TypeHighresEvent:
		if b.tPrior < 0 {
			return noValue
		}
		return blobValue
	case pmapi.Type32, pmapi.TypeU32, pmapi.TypeFloat, pmapi.Type64, pmapi.TypeU64, pmapi.TypeDouble:
	default:
		return noValue
	}
	switch {
	case b.tPrior == tReq:
		return priorValue
	case b.tNext == tReq:
		return nextValue
	}
	switch m.desc.Sem {
	case pmapi.SemDiscrete:
		if b.tPrior >= 0 {
			return priorValue
		}
		return noValue
	case pmapi.SemInstant:
		if b.tPrior >= 0 && b.tNext >= 0 {
			return priorValue
		}
		return noValue
	}
	if b.tPrior < 0 || b.tNext < 0 {
		return noValue
	}
	return lineValue
}

// interpValue is the value at tReq of an instance of m with bounds b,
// whose values are vp and vn (or, for a string, aggregate or event, bp
// before), as valueFrom says. The arithmetic is libpcp's, in the same
// order and precision.
func (c *Context) interpValue(m *metricCtl, b *boundTimes, vp, vn *rawValue, bp string, tReq float64) (pmapi.Atom, bool) {
	return c.valueOf(m, m.valueFrom(b, tReq), b, vp, vn, bp, tReq)
}

// valueOf is interpValue once valueFrom has said where the value comes
// from.
func (c *Context) valueOf(m *metricCtl, from int, b *boundTimes, vp, vn *rawValue, bp string, tReq float64) (pmapi.Atom, bool) {
	t, insitu := m.desc.Type, m.valfmt == valInsitu
	switch from {
	case priorValue:
		return numAtom(t, insitu, vp)
	case nextValue:
		return numAtom(t, insitu, vn)
	case lineValue:
		return c.interpCounter(t, insitu, b, vp, vn, tReq)
	case blobValue:
		if vp.n == blobMismatch {
			return pmapi.Mismatch(false, 0, bp), true
		}
		return blockAtom(t, bp), true
	}
	return pmapi.Atom{}, false
}

// numAtom decodes a numeric raw value.
func numAtom(t pmapi.Type, insitu bool, v *rawValue) (pmapi.Atom, bool) {
	if insitu {
		return pmapi.Insitu(t, v.lval), true
	}
	switch t {
	case pmapi.TypeFloat:
		if v.n >= 4 {
			return pmapi.F32(math.Float32frombits(v.num32())), true
		}
	case pmapi.Type64, pmapi.TypeU64, pmapi.TypeDouble:
		if v.n >= 8 {
			return wideAtom(t, v.num), true
		}
	}
	return pmapi.Atom{}, false
}

// wideAtom is the 8 bytes num of a value block as a value of type t,
// Type64, TypeU64 or TypeDouble.
func wideAtom(t pmapi.Type, num uint64) pmapi.Atom {
	switch t {
	case pmapi.Type64:
		return pmapi.I64(int64(num))
	case pmapi.TypeU64:
		return pmapi.U64(num)
	}
	return pmapi.F64(math.Float64frombits(num))
}

// blockAtom makes an Atom of type t of a value block b: a string (up to
// its first NUL) or, for any other type, the aggregate or event bytes.
func blockAtom(t pmapi.Type, b string) pmapi.Atom {
	if t == pmapi.TypeString {
		if k := strings.IndexByte(b, 0); k >= 0 {
			b = b[:k]
		}
		return pmapi.String(b)
	}
	return pmapi.Blob(t, b)
}

// interpCounter puts a counter's value at tReq on the line between its
// bounds b, whose values are vp and vn.
func (c *Context) interpCounter(t pmapi.Type, insitu bool, b *boundTimes, vp, vn *rawValue, tReq float64) (pmapi.Atom, bool) {
	dt := tReq - b.tPrior
	span := b.tNext - b.tPrior
	wrap := c.opts.CounterWrap
	if t == pmapi.TypeFloat {
		var fp, fn float32
		if insitu {
			fp, fn = math.Float32frombits(vp.lval), math.Float32frombits(vn.lval)
		} else {
			if vp.n < 4 || vn.n < 4 {
				return pmapi.Atom{}, false
			}
			fp, fn = math.Float32frombits(vp.num32()), math.Float32frombits(vn.num32())
		}
		diff := fn - fp
		return pmapi.F32(float32(float64(fp) + float64(dt*float64(diff))/span)), true
	}
	switch t {
	case pmapi.Type32:
		p, n := int32(vp.lval), int32(vn.lval)
		if n >= p || !wrap {
			return pmapi.I32(pmapi.CInt32(0.5 + float64(p) + float64(dt*float64(n-p))/span)), true
		}
		// libpcp leaves the prior value out of a wrapped 32-bit signed
		// counter's value.
		w := int32(math.MaxUint32 - uint32(p) + 1 + uint32(n))
		return pmapi.I32(pmapi.CInt32(0.5 + float64(dt*float64(w))/span)), true
	case pmapi.TypeU32:
		p, n := vp.lval, vn.lval
		switch {
		case n >= p:
			return pmapi.U32(pmapi.CUint32(0.5 + float64(p) + float64(dt*float64(n-p))/span)), true
		case wrap:
			w := math.MaxUint32 - p + 1 + n
			return pmapi.U32(pmapi.CUint32(0.5+float64(dt*float64(w))/span) + p), true
		}
		return pmapi.U32(pmapi.CUint32(0.5 + float64(p) - float64(dt*float64(p-n))/span)), true
	}
	if vp.n < 8 || vn.n < 8 {
		return pmapi.Atom{}, false
	}
	pb, nb := vp.num, vn.num
	switch t {
	case pmapi.Type64:
		p, n := int64(pb), int64(nb)
		d := n - p
		if n < p && wrap {
			d = int64(math.MaxUint64 - pb + 1 + nb)
		}
		return pmapi.I64(pmapi.CInt64(0.5 + float64(p) + float64(dt*float64(d))/span)), true
	case pmapi.TypeU64:
		// libpcp converts the prior value as a signed 64-bit integer,
		// and decides whether the counter went up by comparing the two
		// values as signed integers; built with optimization, that
		// comparison is the sign of their wrapped difference, which is
		// what PCP 6.0.3 does (2^63-3 to 2^63+9 counts as going up).
		p := int64(pb)
		switch {
		case int64(nb-pb) >= 0:
			return pmapi.U64(pmapi.CUint64(0.5 + float64(p) + float64(dt*float64(nb-pb))/span)), true
		case wrap:
			w := math.MaxUint64 - pb + 1 + nb
			return pmapi.U64(pmapi.CUint64(0.5 + float64(p) + float64(dt*float64(w))/span)), true
		}
		return pmapi.U64(pmapi.CUint64(0.5 + float64(p) - float64(dt*float64(pb-nb))/span)), true
	case pmapi.TypeDouble:
		p, n := math.Float64frombits(pb), math.Float64frombits(nb)
		return pmapi.F64(p + float64(dt*(n-p))/span), true
	}
	return pmapi.Atom{}, false
}
