package eval

import (
	"github.com/gopcp/pmie/internal/posixre"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// Sem is the semantics of a node's values: a metric's semantics (counter,
// instant, discrete) or one of pmie's own kinds of value.
type Sem int8

// Value semantics: the first four are PCP's, the rest pmie's.
const (
	SemUnknown  Sem = 0 // not yet known (metric metadata unavailable)
	SemCounter  Sem = Sem(pmapi.SemCounter)
	SemInstant  Sem = Sem(pmapi.SemInstant)
	SemDiscrete Sem = Sem(pmapi.SemDiscrete)
	SemNumVar   Sem = 10 // a numeric variable such as $hour
	SemBoolean  Sem = 11 // a truth value
	SemChar     Sem = 12 // a string constant
	SemNumConst Sem = 13 // a numeric constant
	SemRegex    Sem = 14 // a compiled regular expression
)

// Units are a node's units in canonical scale, or unknown while the
// metadata they come from is unavailable.
type Units struct {
	pmapi.Units
	Known bool
}

// storage says which of a node's value buffers is in use.
type storage uint8

const (
	storeNone storage = iota
	storeNum
	storeTruth
	storeStr
)

// Node is one node of a rule's runtime tree. Like pmie's expression nodes
// it holds a ring buffer of the last nsmpls samples, each of tspan values
// (one per host x instance), with the newest sample first, and a count of
// how many consecutive samples are valid.
//
// The domain sizes hdom, idom and tdom follow pmie's conventions: a value
// of 1 or more is the cardinality, -1 means the dimension has collapsed to a
// single value, and 0 (for idom) means an empty instance domain.
type Node struct {
	// The fields read at every evaluation come first, so that evaluating
	// a node touches few cache lines (live, between evaluations, the
	// cache holds other processes' data).
	Op          Op
	store       storage
	sem         Sem
	dom         lang.Domain // an aggregate's or quantifier's
	sameMetrics bool        // see metrics

	eval       func(*Node) // the evaluator chosen for the node's shape
	Arg1, Arg2 *Node
	group      *Group // set for a node rules share: computed once a step
	seen       uint64 // the step of group it was last computed in
	valid      int    // number of consecutive valid samples, 0 if unknown
	tspan      int
	nsmpls     int
	slot       []int     // slot[k] is the buffer offset of sample k
	num        []float64 // the samples' values, numbers or truths
	tru        []Truth
	stamp      []float64 // stamp[k] is the timestamp of sample k

	hdom, idom, tdom int
	nvals            int
	str              []string

	// metrics are the per-host metrics of the primary operand (shared);
	// sameMetrics says that x has Arg1's (pmie's test, by identity, of
	// where the bindings are), as built: sharing (see Regroup) makes sets
	// of metrics one.
	metrics *metricSet
	units   Units
	// declared, for a use of a numeric macro, are the units the macro
	// was defined with, which pmie drops (see Builder.Macro)
	declared *Units

	Parent *Node
	more   []*Node // parents besides Parent, of a node rules share

	text   string          // string constant, or an action's message
	re     *posixre.Regexp // regular expression operand of match_inst
	memo   map[string]bool // its answers for instance names seen
	memoAt []nameMatch     // its answer at each position of the operand
	act    *actionState    // action leaves
}

// metricSet is the per-host metrics of one fetch node, shared by every node
// whose primary operand leads to it: pmie compares these by identity when
// it looks for the sub-expression that binds %h, %i and %v.
type metricSet struct {
	m []*Metric
}

// newNode builds a node as pmie does, inheriting the metrics of the primary
// operand. The caller allocates the value buffer.
func newNode(op Op, a1, a2 *Node, hdom, idom, tdom, nsmpls int, sem Sem) *Node {
	x := &Node{Op: op, Arg1: a1, Arg2: a2, hdom: hdom, idom: idom, tdom: tdom, nsmpls: nsmpls, sem: sem}
	if a1 != nil {
		a1.Parent = x
	}
	if a2 != nil {
		a2.Parent = x
	}
	x.tspan = spanOf(idom, hdom)
	x.nvals = x.tspan * nsmpls
	if a1 != nil {
		x.metrics = primary(a1, a2).metrics
		x.sameMetrics = x.metrics == a1.metrics
	}
	switch sem {
	case SemNumVar, SemNumConst, SemBoolean, SemChar, SemRegex:
		x.units = Units{Known: true}
	}
	return x
}

// spanOf is the number of values per sample for the given domains.
func spanOf(idom, hdom int) int {
	if idom >= 0 {
		return idom
	}
	if hdom < 0 {
		return -hdom
	}
	return hdom
}

// primary picks the operand whose domains and metrics a binary node
// inherits: a set-valued operand first, then one with metrics.
func primary(a1, a2 *Node) *Node {
	if a2 == nil || a1.nvals > 1 {
		return a1
	}
	if a2.nvals > 1 {
		return a2
	}
	if a1.metrics != nil && (a1.hdom != -1 || a1.idom != -1 || a1.tdom != -1) {
		return a1
	}
	if a2.metrics != nil && (a2.hdom != -1 || a2.idom != -1 || a2.tdom != -1) {
		return a2
	}
	return a1
}

// isStringMetric reports whether x's values come from a string-valued
// metric.
func (x *Node) isStringMetric() bool {
	return x.metrics != nil && len(x.metrics.m) > 0 && x.metrics.m[0].Desc.Type == pmapi.TypeString
}

// alloc (re)allocates x's value buffer for nsmpls samples of tspan values,
// zeroed, as pmie's newRingBfr does.
func (x *Node) alloc() {
	n := x.nsmpls * x.tspan
	if n < 0 {
		n = 0
	}
	x.num, x.tru, x.str = nil, nil, nil
	switch {
	case x.sem == SemBoolean || x.sem == SemChar:
		x.store = storeTruth
		x.tru = make([]Truth, n)
	case x.isStringMetric() && (x.Op == OpFetch || x.Op == OpDelay):
		// only fetches and sample windows hold a string metric's values;
		// every other node over one (count_inst of a comparison, say)
		// holds numbers, as pmie's evaluators write doubles there
		x.store = storeStr
		x.str = make([]string, n)
	default:
		x.store = storeNum
		x.num = make([]float64, n)
	}
	if cap(x.slot) >= x.nsmpls {
		x.slot = x.slot[:x.nsmpls]
	} else {
		x.slot = make([]int, x.nsmpls)
	}
	if len(x.stamp) != x.nsmpls {
		st := make([]float64, x.nsmpls)
		copy(st, x.stamp)
		x.stamp = st
	}
	for k := range x.slot {
		x.slot[k] = k * x.tspan
	}
}

// rotate makes room for a new sample: the oldest buffer slot becomes sample
// 0. The timestamp of sample 0 is left as it was until the evaluator sets
// it.
func (x *Node) rotate() {
	n := x.nsmpls - 1
	if n < 1 {
		return
	}
	last := x.slot[n]
	copy(x.slot[1:], x.slot[:n])
	copy(x.stamp[1:], x.stamp[:n])
	x.slot[0] = last
}

// offset is where sample k starts in x's buffer. A node of one sample
// (most are) has it at the start, so its slots need not be read.
func (x *Node) offset(k int) int {
	if k == 0 && x.nsmpls == 1 {
		return 0
	}
	return x.slot[k]
}

// nums is sample k of a numeric node.
func (x *Node) nums(k int) []float64 {
	off := x.offset(k)
	return x.num[off : off+x.tspan]
}

// truths is sample k of a boolean node.
func (x *Node) truths(k int) []Truth {
	off := x.offset(k)
	return x.tru[off : off+x.tspan]
}

// strs is sample k of a string-valued metric node.
func (x *Node) strs(k int) []string {
	off := x.offset(k)
	return x.str[off : off+x.tspan]
}

// num0 is the first value of the newest sample of a numeric node, as pmie
// reads a scalar operand.
func (x *Node) num0() float64 {
	if len(x.num) == 0 {
		return 0
	}
	return x.num[x.offset(0)]
}

// tru0 is the first value of the newest sample of a boolean node.
func (x *Node) tru0() Truth {
	if len(x.tru) == 0 {
		return False
	}
	return x.tru[x.offset(0)]
}

// setSamples changes how many samples x buffers (for rate, rising and
// falling, which need two), discarding its history.
func (x *Node) setSamples(n int) {
	if n == x.nsmpls {
		return
	}
	x.nsmpls = n
	x.nvals = x.tspan * n
	x.valid = 0
	x.alloc()
}

// evalArg evaluates an operand unless it is a constant or variable.
func evalArg(x *Node) {
	if !x.Op.evaluable() || x.eval == nil {
		return
	}
	if g := x.group; g != nil {
		if x.seen == g.step {
			return // computed already this step, for another rule
		}
		x.seen = g.step
	}
	x.eval(x)
}

// Valid is the number of consecutive valid samples x holds; 0 means its
// value is unknown.
func (x *Node) Valid() int { return x.valid }
