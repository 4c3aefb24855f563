package archive

import (
	"math"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// interpValue is the value of ic at tReq: a bound's value when tReq is
// at a bound; otherwise, by the metric's semantics, the prior value
// (discrete and instant metrics) or the line between the bounds
// (counters). Strings, aggregates and events always take the prior
// value. The arithmetic is libpcp's, in the same order and precision.
func (c *Context) interpValue(m *metricCtl, ic *instCtl, tReq float64) (pmapi.Atom, bool) {
	t := m.desc.Type
	switch t {
	case pmapi.TypeString, pmapi.TypeAggregate, pmapi.TypeEvent, pmapi.TypeHighresEvent:
		if ic.tPrior < 0 {
			return pmapi.Atom{}, false
		}
		if ic.vPrior.n == blobMismatch {
			return pmapi.Mismatch(false, 0, ic.bPrior), true
		}
		return blockAtom(t, ic.bPrior), true
	case pmapi.Type32, pmapi.TypeU32, pmapi.TypeFloat, pmapi.Type64, pmapi.TypeU64, pmapi.TypeDouble:
	default:
		return pmapi.Atom{}, false
	}
	insitu := m.valfmt == valInsitu
	switch {
	case ic.tPrior == tReq:
		return numAtom(t, insitu, ic.vPrior)
	case ic.tNext == tReq:
		return numAtom(t, insitu, ic.vNext)
	}
	switch m.desc.Sem {
	case pmapi.SemDiscrete:
		if ic.tPrior >= 0 {
			return numAtom(t, insitu, ic.vPrior)
		}
		return pmapi.Atom{}, false
	case pmapi.SemInstant:
		if ic.tPrior >= 0 && ic.tNext >= 0 {
			return numAtom(t, insitu, ic.vPrior)
		}
		return pmapi.Atom{}, false
	}
	if ic.tPrior < 0 || ic.tNext < 0 {
		return pmapi.Atom{}, false
	}
	return c.interpCounter(t, insitu, ic, tReq)
}

// numAtom decodes a numeric raw value.
func numAtom(t pmapi.Type, insitu bool, v rawValue) (pmapi.Atom, bool) {
	if insitu {
		switch t {
		case pmapi.TypeU32:
			return pmapi.U32(v.lval), true
		case pmapi.TypeFloat:
			return pmapi.F32(math.Float32frombits(v.lval)), true
		}
		return pmapi.I32(int32(v.lval)), true
	}
	switch t {
	case pmapi.TypeFloat:
		if v.n >= 4 {
			return pmapi.F32(math.Float32frombits(v.num32())), true
		}
	case pmapi.Type64:
		if v.n >= 8 {
			return pmapi.I64(int64(v.num)), true
		}
	case pmapi.TypeU64:
		if v.n >= 8 {
			return pmapi.U64(v.num), true
		}
	case pmapi.TypeDouble:
		if v.n >= 8 {
			return pmapi.F64(math.Float64frombits(v.num)), true
		}
	}
	return pmapi.Atom{}, false
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
// bounds.
func (c *Context) interpCounter(t pmapi.Type, insitu bool, ic *instCtl, tReq float64) (pmapi.Atom, bool) {
	dt := tReq - ic.tPrior
	span := ic.tNext - ic.tPrior
	wrap := c.opts.CounterWrap
	if t == pmapi.TypeFloat {
		var fp, fn float32
		if insitu {
			fp, fn = math.Float32frombits(ic.vPrior.lval), math.Float32frombits(ic.vNext.lval)
		} else {
			if ic.vPrior.n < 4 || ic.vNext.n < 4 {
				return pmapi.Atom{}, false
			}
			fp, fn = math.Float32frombits(ic.vPrior.num32()), math.Float32frombits(ic.vNext.num32())
		}
		diff := fn - fp
		return pmapi.F32(float32(float64(fp) + float64(dt*float64(diff))/span)), true
	}
	switch t {
	case pmapi.Type32:
		p, n := int32(ic.vPrior.lval), int32(ic.vNext.lval)
		if n >= p || !wrap {
			return pmapi.I32(cInt32(0.5 + float64(p) + float64(dt*float64(n-p))/span)), true
		}
		// libpcp leaves the prior value out of a wrapped 32-bit signed
		// counter's value.
		w := int32(math.MaxUint32 - uint32(p) + 1 + uint32(n))
		return pmapi.I32(cInt32(0.5 + float64(dt*float64(w))/span)), true
	case pmapi.TypeU32:
		p, n := ic.vPrior.lval, ic.vNext.lval
		switch {
		case n >= p:
			return pmapi.U32(cUint32(0.5 + float64(p) + float64(dt*float64(n-p))/span)), true
		case wrap:
			w := math.MaxUint32 - p + 1 + n
			return pmapi.U32(cUint32(0.5+float64(dt*float64(w))/span) + p), true
		}
		return pmapi.U32(cUint32(0.5 + float64(p) - float64(dt*float64(p-n))/span)), true
	}
	if ic.vPrior.n < 8 || ic.vNext.n < 8 {
		return pmapi.Atom{}, false
	}
	pb, nb := ic.vPrior.num, ic.vNext.num
	switch t {
	case pmapi.Type64:
		p, n := int64(pb), int64(nb)
		d := n - p
		if n < p && wrap {
			d = int64(math.MaxUint64 - pb + 1 + nb)
		}
		return pmapi.I64(cInt64(0.5 + float64(p) + float64(dt*float64(d))/span)), true
	case pmapi.TypeU64:
		// libpcp converts the prior value as a signed 64-bit integer,
		// and decides whether the counter went up by comparing the two
		// values as signed integers; built with optimization, that
		// comparison is the sign of their wrapped difference, which is
		// what PCP 6.0.3 does (2^63-3 to 2^63+9 counts as going up).
		p := int64(pb)
		switch {
		case int64(nb-pb) >= 0:
			return pmapi.U64(cUint64(0.5 + float64(p) + float64(dt*float64(nb-pb))/span)), true
		case wrap:
			w := math.MaxUint64 - pb + 1 + nb
			return pmapi.U64(cUint64(0.5 + float64(p) + float64(dt*float64(w))/span)), true
		}
		return pmapi.U64(cUint64(0.5 + float64(p) - float64(dt*float64(pb-nb))/span)), true
	case pmapi.TypeDouble:
		p, n := math.Float64frombits(pb), math.Float64frombits(nb)
		return pmapi.F64(p + float64(dt*(n-p))/span), true
	}
	return pmapi.Atom{}, false
}

// The conversions from double that the C compiler makes on x86-64.

// cInt32 converts as cvttsd2si does to a 32-bit int: out of range gives
// the "integer indefinite" value.
func cInt32(f float64) int32 {
	if f > -2147483649 && f < 2147483648 {
		return int32(f)
	}
	return math.MinInt32
}

// cInt64 converts as cvttsd2si does to a 64-bit int.
func cInt64(f float64) int64 {
	if f >= -9223372036854775808 && f < 9223372036854775808 {
		return int64(f)
	}
	return math.MinInt64
}

// cUint32 converts as gcc does to an unsigned int: through a 64-bit int.
func cUint32(f float64) uint32 { return uint32(cInt64(f)) }

// cUint64 converts as gcc does to an unsigned long.
func cUint64(f float64) uint64 {
	const two63 = 9223372036854775808.0
	if f < two63 {
		return uint64(cInt64(f))
	}
	return uint64(cInt64(f-two63)) ^ 1<<63
}
