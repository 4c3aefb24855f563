package derive

import (
	"math"
	"strings"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// This file is the function table: for each function of the derived-metric
// language, the shape of its arguments, the metadata rule that gives its
// result a descriptor, and its implementation.

// argKind is what a function takes.
type argKind uint8

const (
	argName    argKind = iota // one metric name (libpcp allows nothing else)
	argExpr                   // one expression
	argRescale                // an expression and a units string
	argAnon                   // a PM_TYPE_* name
)

// function is one entry of the function table.
type function struct {
	name string
	args argKind
	// arith: the operand must be numeric ("Non-arithmetic operand for
	// function").
	arith bool
	// desc gives the result's descriptor from the operand's; it returns
	// libpcp's reason when it cannot.
	desc func(n *node) string
	// compile makes the closure that evaluates n, whose operand is n.x.
	compile func(n *node, s *slotTable) evalFunc
}

// functions is the function table.
var functions = map[string]*function{
	"avg":     {name: "avg", args: argName, arith: true, desc: aggregateDesc(pmapi.TypeFloat), compile: compileAvg},
	"count":   {name: "count", args: argName, desc: countDesc, compile: compileCount},
	"max":     {name: "max", args: argName, arith: true, desc: aggregateDesc(0), compile: compileExtreme(true)},
	"min":     {name: "min", args: argName, arith: true, desc: aggregateDesc(0), compile: compileExtreme(false)},
	"sum":     {name: "sum", args: argName, arith: true, desc: sumDesc, compile: compileSum},
	"delta":   {name: "delta", args: argName, arith: true, desc: deltaDesc, compile: compileDelta},
	"rate":    {name: "rate", args: argName, arith: true, desc: rateDesc, compile: compileRate},
	"instant": {name: "instant", args: argName, desc: instantDesc, compile: compilePass},
	"defined": {name: "defined", args: argName, desc: definedDesc, compile: compileDefined},
	"anon":    {name: "anon", args: argAnon, desc: anonDesc, compile: compileAnon},
	"scalar":  {name: "scalar", args: argExpr, desc: scalarDesc, compile: compileScalar},
	"rescale": {name: "rescale", args: argRescale, arith: true, desc: rescaleDesc, compile: compileRescale},
}

// check checks a call of fn.
func (fn *function) check(c *checker, x *lang.Call) *node {
	n := &node{op: opCall, src: x, fn: fn, mul: 1, div: 1}
	switch fn.args {
	case argAnon:
		// libpcp complains (and then uses freed memory) for other types
		name := x.Args[0].(*lang.Metric).Name
		t, ok := typeNamed(strings.TrimPrefix(name, "PM_TYPE_"))
		if !ok || !strings.HasPrefix(name, "PM_TYPE_") {
			return c.fail(c.m.semanticError(x, "type="+name+" not allowed for anon()"))
		}
		return anonNode(t, x)
	case argName:
		m := x.Args[0].(*lang.Metric)
		if fn.name == "defined" {
			_, _, _, err := c.b.operand(m.Name)
			if err != nil && !missingName(err) {
				// a name the context has but whose descriptor it
				// cannot give (a derived metric that fails): libpcp
				// looks the descriptor up, and the whole metric fails
				return c.operandFailed(m, err)
			}
			n.konst = pmapi.U32(0)
			if err == nil {
				n.konst = pmapi.U32(1)
			}
			n.desc = constDesc(pmapi.TypeU32)
			return n
		}
		n.x = c.metric(m)
	default:
		n.x = c.expr(x.Args[0])
	}
	if n.x == nil {
		return nil
	}
	if fn.args == argRescale {
		n.units, _, _ = pmapi.ParseUnits(x.Args[1].(*lang.String).Value)
	}
	n.desc = n.x.desc
	if fn.arith && !n.x.desc.Type.Numeric() {
		return c.fail(c.m.semanticError(x, reasonFuncType))
	}
	if reason := fn.desc(n); reason != "" {
		return c.fail(c.m.semanticError(x, reason))
	}
	return n
}

// anonNode is the checked call x of anon(PM_TYPE_X) for type t: a
// constant's descriptor, with no values (compileAnon).
func anonNode(t pmapi.Type, x lang.Expr) *node {
	d := constDesc(t)
	return &node{op: opCall, src: x, fn: functions["anon"], desc: d, x: &node{op: opConst, desc: d, mul: 1, div: 1}, mul: 1, div: 1}
}

// aggregateDesc is the rule of avg, max and min: a singular instant value,
// of type t (or the operand's type when t is 0).
func aggregateDesc(t pmapi.Type) func(n *node) string {
	return func(n *node) string {
		n.desc.Sem = pmapi.SemInstant
		n.desc.InDom = pmapi.InDomNull
		if t != 0 {
			n.desc.Type = t
		}
		return ""
	}
}

// sumDesc: a singular value keeping the operand's semantics.
func sumDesc(n *node) string {
	n.desc.InDom = pmapi.InDomNull
	return ""
}

// countDesc: a singular U32 instant count.
func countDesc(n *node) string {
	n.desc.Type = pmapi.TypeU32
	n.desc.Units = pmapi.Units{DimCount: 1}
	n.desc.Sem = pmapi.SemInstant
	n.desc.InDom = pmapi.InDomNull
	return ""
}

// deltaDesc: instant, signed and wide enough: U32 becomes 64, U64 DOUBLE.
func deltaDesc(n *node) string {
	n.desc.Sem = pmapi.SemInstant
	switch n.desc.Type {
	case pmapi.TypeU32:
		n.desc.Type = pmapi.Type64
	case pmapi.TypeU64:
		n.desc.Type = pmapi.TypeDouble
	}
	n.x.history = true
	return ""
}

// rateDesc: an instant DOUBLE with the time dimension one less, per
// second, or a time utilisation (no time dimension) for a time operand.
func rateDesc(n *node) string {
	if t := n.x.desc.Units.DimTime; t != 0 && t != 1 {
		return reasonRateTime
	}
	n.desc.Sem = pmapi.SemInstant
	n.desc.Type = pmapi.TypeDouble
	n.desc.Units.DimTime--
	n.desc.Units.ScaleTime = pmapi.TimeSec
	if n.desc.Units.DimTime == 0 {
		n.desc.Units.ScaleTime = 0
	}
	n.x.history = true
	return ""
}

// instantDesc: a counter's current value is instant; other semantics stay.
func instantDesc(n *node) string {
	if n.desc.Sem == pmapi.SemCounter {
		n.desc.Sem = pmapi.SemInstant
	}
	return ""
}

// definedDesc is never used: defined() is settled in check.
func definedDesc(n *node) string { return "" }

// anonDesc: the anonymous metrics of event records keep their constant's
// descriptor.
func anonDesc(n *node) string { return "" }

// scalarDesc: the operand without its instance domain.
func scalarDesc(n *node) string {
	n.desc.InDom = pmapi.InDomNull
	return ""
}

// rescaleDesc: the operand in other units of the same dimension.
func rescaleDesc(n *node) string {
	if _, err := pmapi.ConvScale(atomOf(n.desc.Type, val{u: one(n.desc.Type)}), n.x.desc.Units, n.units); err != nil {
		return reasonRescaleDims
	}
	n.desc.Units = n.units
	return ""
}

// one is 1 in type t.
func one(t pmapi.Type) uint64 { return fromBool(t, true) }

func compilePass(n *node, s *slotTable) evalFunc { return n.x.compile(s) }

func compileDefined(n *node, s *slotTable) evalFunc {
	return constant(val{inst: pmapi.InNull, u: n.konst.Uint64()})
}

// compileAnon: anonymous metrics have no values of their own.
func compileAnon(n *node, s *slotTable) evalFunc {
	return func(*frame) ([]val, pmapi.Errno) { return nil, 0 }
}

// compileCount is the number of the operand's values, 0 when fetching it
// fails.
func compileCount(n *node, s *slotTable) evalFunc {
	xf := n.x.compile(s)
	out := []val{{inst: pmapi.InNull}}
	return func(f *frame) ([]val, pmapi.Errno) {
		xs, err := xf(f)
		out[0].u = 0
		if err == 0 {
			out[0].u = uint64(len(xs))
		}
		return out, 0
	}
}

// compileScalar is the operand's first value, without its instance.
func compileScalar(n *node, s *slotTable) evalFunc {
	xf := n.x.compile(s)
	out := []val{{}}
	return func(f *frame) ([]val, pmapi.Errno) {
		xs, err := xf(f)
		if err != 0 {
			return nil, err
		}
		if len(xs) == 0 {
			return out[:0], 0
		}
		out[0] = xs[0]
		out[0].inst = pmapi.InNull
		return out, 0
	}
}

// compileAvg is the mean of the operand's values, accumulated in float as
// libpcp does: the sum of each value divided by the count.
func compileAvg(n *node, s *slotTable) evalFunc {
	xf := n.x.compile(s)
	conv := toFloat32(n.x.desc.Type)
	out := []val{{inst: pmapi.InNull}}
	return func(f *frame) ([]val, pmapi.Errno) {
		xs, err := xf(f)
		if err != 0 {
			return nil, err
		}
		var acc float32
		cnt := float32(len(xs))
		for _, v := range xs {
			acc += conv(v.u) / cnt
		}
		out[0].u = math.Float64bits(float64(acc))
		return out, 0
	}
}

// compileSum adds up the operand's values in its type.
func compileSum(n *node, s *slotTable) evalFunc {
	xf := n.x.compile(s)
	add := sumFunc(n.desc.Type)
	out := []val{{inst: pmapi.InNull}}
	return func(f *frame) ([]val, pmapi.Errno) {
		xs, err := xf(f)
		if err != 0 {
			return nil, err
		}
		var acc uint64
		if n.desc.Type == pmapi.TypeFloat || n.desc.Type == pmapi.TypeDouble {
			acc = math.Float64bits(0)
		}
		for _, v := range xs {
			acc = add(acc, v.u)
		}
		out[0].u = acc
		return out, 0
	}
}

// sumFunc is + in type t.
func sumFunc(t pmapi.Type) binFunc {
	switch t {
	case pmapi.Type32:
		return int32Arith(lang.OpAdd)
	case pmapi.TypeU32:
		return uint32Arith(lang.OpAdd)
	case pmapi.Type64, pmapi.TypeU64:
		return uint64Arith(lang.OpAdd)
	case pmapi.TypeFloat:
		return floatArith(lang.OpAdd, toFloat32(t), toFloat32(t))
	}
	return doubleArith(lang.OpAdd, math.Float64frombits, math.Float64frombits)
}

// compileExtreme is max (or min) of the operand's values. With no values
// the previous result stays, as in libpcp.
func compileExtreme(isMax bool) func(n *node, s *slotTable) evalFunc {
	return func(n *node, s *slotTable) evalFunc {
		xf := n.x.compile(s)
		less := logicalFunc(lang.OpLT, n.desc.Type, n.desc.Type, n.desc.Type)
		out := []val{{inst: pmapi.InNull}}
		return func(f *frame) ([]val, pmapi.Errno) {
			xs, err := xf(f)
			if err != 0 {
				return nil, err
			}
			for i, v := range xs {
				better := less(out[0].u, v.u) == 1
				if !isMax {
					better = less(v.u, out[0].u) == 1
				}
				if i == 0 || better {
					out[0].u = v.u
				}
			}
			return out, 0
		}
	}
}

// history keeps the operand of delta() or rate(): this fetch's values and
// the previous fetch's, each either values or an error.
type history struct {
	cur, last       []val
	curErr, lastErr pmapi.Errno
}

// advance makes the current sample the previous one and records a new one.
func (h *history) advance(xs []val, err pmapi.Errno) {
	h.cur, h.last = h.last, h.cur
	h.curErr, h.lastErr = err, h.curErr
	h.cur = append(h.cur[:0], xs...)
}

// pairs calls fn for each current value with the previous value of the
// same instance, as libpcp matches them (instances found in both samples,
// in the current order); it returns the error that stands for the pair of
// samples, if any.
func (h *history) pairs(fn func(cur, last *val)) pmapi.Errno {
	if h.curErr != 0 {
		return h.curErr
	}
	if h.lastErr != 0 {
		return h.lastErr
	}
	if len(h.cur) == 0 || len(h.last) == 0 {
		return 0
	}
	for i := range h.cur {
		j := i
		if j >= len(h.last) {
			j = 0
		}
		if h.cur[i].inst != h.last[j].inst {
			for j = 0; j < len(h.last) && h.last[j].inst != h.cur[i].inst; j++ {
			}
			if j == len(h.last) {
				continue
			}
		}
		fn(&h.cur[i], &h.last[j])
	}
	return 0
}

// deltaFunc is the difference of two values of type t, in delta()'s
// result type.
func deltaFunc(t pmapi.Type) binFunc {
	switch t {
	case pmapi.Type32:
		return int32Arith(lang.OpSub)
	case pmapi.TypeU32:
		return func(a, b uint64) uint64 { return uint64(int64(uint32(a)) - int64(uint32(b))) }
	case pmapi.Type64:
		return int64Arith(lang.OpSub)
	case pmapi.TypeU64:
		return func(a, b uint64) uint64 { return math.Float64bits(float64(a) - float64(b)) }
	case pmapi.TypeFloat:
		return floatArith(lang.OpSub, toFloat32(t), toFloat32(t))
	}
	return doubleArith(lang.OpSub, math.Float64frombits, math.Float64frombits)
}

// compileDelta is the difference between this fetch's and the previous
// fetch's value of each instance in both.
func compileDelta(n *node, s *slotTable) evalFunc {
	xf := n.x.compile(s)
	diff := deltaFunc(n.x.desc.Type)
	var h history
	var out []val
	add := func(cur, last *val) { out = append(out, val{inst: cur.inst, u: diff(cur.u, last.u)}) }
	return func(f *frame) ([]val, pmapi.Errno) {
		xs, err := xf(f)
		h.advance(xs, err)
		if err != 0 {
			return nil, err
		}
		out = out[:0]
		if err := h.pairs(add); err != 0 {
			return nil, err
		}
		return out, 0
	}
}

// rateDiff is the difference of two values of type t as a double, the
// subtraction done in t (wrapping for integers) as libpcp does.
func rateDiff(t pmapi.Type) func(a, b uint64) float64 {
	switch t {
	case pmapi.Type32:
		return func(a, b uint64) float64 { return float64(int32(a) - int32(b)) }
	case pmapi.TypeU32:
		return func(a, b uint64) float64 { return float64(uint32(a) - uint32(b)) }
	case pmapi.Type64:
		return func(a, b uint64) float64 { return float64(int64(a) - int64(b)) }
	case pmapi.TypeU64:
		return func(a, b uint64) float64 { return float64(a - b) }
	case pmapi.TypeFloat:
		return func(a, b uint64) float64 {
			return float64(float32(math.Float64frombits(a)) - float32(math.Float64frombits(b)))
		}
	}
	return func(a, b uint64) float64 { return math.Float64frombits(a) - math.Float64frombits(b) }
}

// timeUtilisation is the factor that turns a rate of a time counter in
// time scale sc into a fraction of the elapsed time, computed as libpcp
// does (dividing by 1000 per step below seconds, multiplying by 60 per
// step above).
func timeUtilisation(sc int8) float64 {
	f := 1.0
	for i := int8(pmapi.TimeSec); i < sc; i++ {
		f *= 60
	}
	for i := sc; i < pmapi.TimeSec; i++ {
		f /= 1000
	}
	return f
}

// compileRate is delta() divided by the seconds between the two fetches,
// and for a time counter scaled to a utilisation.
func compileRate(n *node, s *slotTable) evalFunc {
	xf := n.x.compile(s)
	diff := rateDiff(n.x.desc.Type)
	scale := 1.0
	if n.x.desc.Units.DimTime == 1 {
		scale = timeUtilisation(n.x.desc.Units.ScaleTime)
	}
	var h history
	var stamp, lastStamp pmapi.Time
	var secs float64
	var out []val
	add := func(cur, last *val) {
		v := diff(cur.u, last.u) / secs
		if scale != 1 {
			v *= scale
		}
		out = append(out, val{inst: cur.inst, u: math.Float64bits(v)})
	}
	return func(f *frame) ([]val, pmapi.Errno) {
		xs, err := xf(f)
		h.advance(xs, err)
		if err != 0 {
			return nil, err
		}
		lastStamp, stamp = stamp, f.stamp
		secs = f.secs.seconds(stamp - lastStamp)
		out = out[:0]
		if err := h.pairs(add); err != 0 {
			return nil, err
		}
		return out, 0
	}
}

// secondsCache converts time differences to seconds as libpcp's
// pmtimespecToReal does, remembering the last answer (in one fetch every
// rate() sees the same interval).
type secondsCache struct {
	d    pmapi.Time
	secs float64
	ok   bool
}

func (c *secondsCache) seconds(d pmapi.Time) float64 {
	if !c.ok || d != c.d {
		c.d, c.secs, c.ok = d, longDoubleSeconds(d), true
	}
	return c.secs
}

// compileRescale converts each value to the new units as pmConvScale
// does, leaving out values it cannot convert.
func compileRescale(n *node, s *slotTable) evalFunc {
	t, from, to := n.desc.Type, n.x.desc.Units, n.units
	return perValue(n.x.compile(s), func(v val) (val, bool) {
		a, err := pmapi.ConvScale(atomOf(t, v), from, to)
		return val{inst: v.inst, u: a.Uint64()}, err == nil
	})
}
