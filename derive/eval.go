package derive

import (
	"math"

	"github.com/gopcp/pmie/pmapi"
)

// This file compiles checked trees to closures and holds the evaluation of
// the nodes that are not functions. Each compiled node owns the buffer its
// values are computed into and any state it keeps between fetches (delta
// and rate history, matchinst's verdicts), so a compiled metric belongs to
// one context. In steady state an evaluation allocates nothing.

// val is one instance's value: the number as a pmapi.Atom holds it
// (signed types sign-extended, unsigned types zero-extended, FLOAT and
// DOUBLE as the bits of a float64) or the bytes of a string, aggregate or
// event record array.
type val struct {
	inst int32
	u    uint64
	s    string
}

// frame is what an evaluation sees of one fetch.
type frame struct {
	sets  []*pmapi.ValueSet // by operand slot: that metric's values in the fetch
	stamp pmapi.Time
	insts instances
	secs  *secondsCache

	// each operand's values, converted once per fetch for every node
	// that names it
	fetch  uint64   // counts fetches
	leafAt []uint64 // by slot: the fetch its values were converted for
	leaf   [][]val
}

// operand gives the values of the metric in slot s for this fetch.
func (f *frame) operand(s int) ([]val, pmapi.Errno) {
	set := f.sets[s]
	if set == nil {
		return nil, pmapi.ErrPMID
	}
	if set.Err != nil {
		return nil, errnoOf(set.Err)
	}
	if f.leafAt[s] == f.fetch {
		return f.leaf[s], 0
	}
	out := f.leaf[s][:0]
	for i := range set.Values {
		v := &set.Values[i]
		out = append(out, val{inst: v.Inst, u: v.Atom.Uint64(), s: v.Atom.Str()})
	}
	f.leaf[s], f.leafAt[s] = out, f.fetch
	return out, 0
}

// grow makes room for n operand slots.
func (f *frame) grow(n int) {
	for len(f.sets) < n {
		f.sets = append(f.sets, nil)
		f.leafAt = append(f.leafAt, 0)
		f.leaf = append(f.leaf, nil)
	}
}

// instances answers matchinst's and [inst]'s questions about instance
// names, at the time of the fetch.
type instances interface {
	// instName is pmNameInDom.
	instName(indom pmapi.InDom, inst int32) (string, bool)
	// instID is pmLookupInDom.
	instID(indom pmapi.InDom, name string) (int32, bool)
}

// evalFunc computes a node's values for a fetch. The values stay valid
// until the node is evaluated again; they are not to be changed (a
// metric's values are shared by every node that names it). A failure is a PCP error code, which
// libpcp passes up as the derived metric's numval.
type evalFunc func(f *frame) ([]val, pmapi.Errno)

// program is a compiled derived metric.
type program struct {
	eval     evalFunc
	desc     pmapi.Desc
	operands []pmapi.PMID // the metrics it takes values from
}

// slotTable numbers the operand metrics of a context's compiled metrics.
type slotTable struct {
	ids   []pmapi.PMID
	index map[pmapi.PMID]int
}

func (s *slotTable) slot(id pmapi.PMID) int {
	if i, ok := s.index[id]; ok {
		return i
	}
	if s.index == nil {
		s.index = make(map[pmapi.PMID]int)
	}
	s.index[id] = len(s.ids)
	s.ids = append(s.ids, id)
	return len(s.ids) - 1
}

// compile makes the closure that evaluates n.
func (n *node) compile(s *slotTable) evalFunc {
	switch n.op {
	case opName:
		if n.ref != nil {
			return n.ref.compile(s)
		}
		return compileName(s.slot(n.pmid))
	case opConst:
		return constant(val{inst: pmapi.InNull, u: n.konst.Uint64(), s: n.konst.Str()})
	case opBinary:
		return compileBinary(n, s)
	case opNot:
		return compileNot(n, s)
	case opNeg:
		return compileNeg(n, s)
	case opTernary:
		return compileTernary(n, s)
	case opCall:
		return n.fn.compile(n, s)
	case opInstExact:
		return compileInstExact(n, s)
	case opMatchInst:
		return compileMatchInst(n, s)
	}
	panic("derive: compile of unknown node")
}

// constant always gives the one value v.
func constant(v val) evalFunc {
	out := []val{v}
	return func(*frame) ([]val, pmapi.Errno) { return out, 0 }
}

// compileName takes a metric's values from the fetch.
func compileName(slot int) evalFunc {
	return func(f *frame) ([]val, pmapi.Errno) { return f.operand(slot) }
}

// errnoOf is err as a PCP error code, never 0.
func errnoOf(err error) pmapi.Errno {
	if c := pmapi.Code(err); c != 0 {
		return c
	}
	return pmapi.ErrGeneric
}

// isTrue reports whether v, of type t, is not zero.
func isTrue(t pmapi.Type, u uint64) bool {
	switch t {
	case pmapi.Type32, pmapi.TypeU32:
		return uint32(u) != 0
	case pmapi.TypeFloat, pmapi.TypeDouble:
		return math.Float64frombits(u) != 0
	}
	return u != 0
}

// fromBool is 0 or 1 in type t.
func fromBool(t pmapi.Type, b bool) uint64 {
	switch {
	case !b && (t == pmapi.TypeFloat || t == pmapi.TypeDouble):
		return math.Float64bits(0)
	case t == pmapi.TypeFloat || t == pmapi.TypeDouble:
		return math.Float64bits(1)
	case b:
		return 1
	}
	return 0
}

// perValue is the evaluation of a node whose values are each made from
// one value of its operand, by fn; fn's false leaves the value out.
func perValue(xf evalFunc, fn func(v val) (val, bool)) evalFunc {
	var out []val
	return func(f *frame) ([]val, pmapi.Errno) {
		xs, err := xf(f)
		if err != 0 {
			return nil, err
		}
		out = out[:0]
		for _, v := range xs {
			if w, ok := fn(v); ok {
				out = append(out, w)
			}
		}
		return out, 0
	}
}

// compileNot is !x. libpcp keeps x's descriptor and stores a 32-bit 0 or 1
// in the value, which leaves 64-bit and floating point results undefined;
// we give 0 or 1 in the result's type.
func compileNot(n *node, s *slotTable) evalFunc {
	t := n.x.desc.Type
	return perValue(n.x.compile(s), func(v val) (val, bool) {
		return val{inst: v.inst, u: fromBool(t, !isTrue(t, v.u))}, true
	})
}

// compileNeg is -x, in x's type made signed.
func compileNeg(n *node, s *slotTable) evalFunc {
	var neg func(uint64) uint64
	switch n.x.desc.Type {
	case pmapi.Type32, pmapi.TypeU32:
		neg = func(u uint64) uint64 { return uint64(int64(-int32(u))) }
	case pmapi.Type64, pmapi.TypeU64:
		neg = func(u uint64) uint64 { return -u }
	default:
		neg = func(u uint64) uint64 { return math.Float64bits(-math.Float64frombits(u)) }
	}
	return perValue(n.x.compile(s), func(v val) (val, bool) {
		return val{inst: v.inst, u: neg(v.u)}, true
	})
}

// compileTernary is g ? t : f. As libpcp does it, values are picked by
// position: the i-th value is the i-th value of whichever operand the
// i-th guard value (or, past the guard's values, the last one) picks, or
// that operand's only value, and its instance is the i-th instance of
// the "true" operand (or of the "false" operand when only that one has an
// instance domain).
func compileTernary(n *node, s *slotTable) evalFunc {
	gf, tf, ff := n.x.compile(s), n.y.compile(s), n.z.compile(s)
	gt := n.x.desc.Type
	instFromFalse := n.y.desc.InDom == pmapi.InDomNull && n.z.desc.InDom != pmapi.InDomNull
	var out []val
	return func(f *frame) ([]val, pmapi.Errno) {
		gs, err := gf(f)
		if err != 0 {
			return nil, err
		}
		ts, err := tf(f)
		if err != 0 {
			return nil, err
		}
		fs, err := ff(f)
		if err != 0 {
			return nil, err
		}
		out = out[:0]
		if len(gs) == 0 || len(ts) == 0 || len(fs) == 0 {
			return out, 0
		}
		insts, other := ts, fs
		if instFromFalse {
			insts, other = fs, ts
		}
		pick := ts
		for i := 0; i < max(len(ts), len(fs)); i++ {
			if i < len(gs) {
				if isTrue(gt, gs[i].u) {
					pick = ts
				} else {
					pick = fs
				}
			}
			v := pick[0]
			if i < len(pick) {
				v = pick[i]
			}
			// libpcp reads past the end of the instance operand's values
			// when it has fewer than the other; we take the other's
			if i < len(insts) {
				v.inst = insts[i].inst
			} else {
				v.inst = other[i].inst
			}
			out = append(out, v)
		}
		return out, 0
	}
}

// compileInstExact is x[inst]: x's value for the instance of that name,
// looked up (and remembered) the first time x has values.
func compileInstExact(n *node, s *slotTable) evalFunc {
	xf := n.x.compile(s)
	indom, name := n.x.desc.InDom, n.name
	id, found := pmapi.InNull, false
	var out []val
	return func(f *frame) ([]val, pmapi.Errno) {
		xs, err := xf(f)
		if err != 0 {
			return nil, err
		}
		out = out[:0]
		if len(xs) == 0 {
			return out, 0
		}
		if !found {
			if id, found = f.insts.instID(indom, name); !found {
				return out, 0
			}
		}
		for _, v := range xs {
			if v.inst == id {
				out = append(out, v)
				break
			}
		}
		return out, 0
	}
}

// compileMatchInst is matchinst([!]/re/, x): x's values for the instances
// whose names (up to the first space) match re, or do not when negated.
// Each instance's verdict is worked out once. An instance whose name
// cannot be found never matches.
func compileMatchInst(n *node, s *slotTable) evalFunc {
	indom, re, negate := n.x.desc.InDom, n.re, n.negate
	verdict := map[int32]bool{}
	var insts instances
	match := perValue(n.x.compile(s), func(v val) (val, bool) {
		ok, seen := verdict[v.inst]
		if !seen {
			if name, known := insts.instName(indom, v.inst); known {
				ok = re.MatchString(firstWord(name)) != negate
			}
			verdict[v.inst] = ok
		}
		return v, ok
	})
	return func(f *frame) ([]val, pmapi.Errno) {
		insts = f.insts
		return match(f)
	}
}

// firstWord is an instance name up to its first space, the part libpcp's
// classic instance matching looks at.
func firstWord(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] == ' ' {
			return name[:i]
		}
	}
	return name
}

// atomOf is v as a pmapi.Atom of type t.
func atomOf(t pmapi.Type, v val) pmapi.Atom {
	switch t {
	case pmapi.Type32:
		return pmapi.I32(int32(v.u))
	case pmapi.TypeU32:
		return pmapi.U32(uint32(v.u))
	case pmapi.Type64:
		return pmapi.I64(int64(v.u))
	case pmapi.TypeU64:
		return pmapi.U64(v.u)
	case pmapi.TypeFloat:
		return pmapi.F32(float32(math.Float64frombits(v.u)))
	case pmapi.TypeDouble:
		return pmapi.F64(math.Float64frombits(v.u))
	case pmapi.TypeString:
		return pmapi.String(v.s)
	}
	return pmapi.Blob(t, v.s)
}
