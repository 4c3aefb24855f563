package eval

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gopcp/pmie/lang"
)

// Rules evaluated at the same times (one schedule of package rules) often
// have sub-expressions in common: a metric several rules read, a
// comparison repeated. pmie builds and computes each rule's tree apart;
// here, once a Group's rules are compiled, the sub-expressions of theirs
// that would compute the same values at every step are made one node,
// computed at its first use in a step and read by every rule that has it
// (the trees become a graph). A metric is then fetched, converted to
// canonical units and to a rate once, however many rules read it.
//
// Two sub-expressions are the same when they have the same operators,
// metrics (host, name, instances, rate conversion), constants and shapes,
// so that, starting from the same state, each step leaves them in the
// same state with the same values; and they start from the same state
// when both are new (compiled together, never evaluated). The history of
// a node shared so (samples, rates, rising and falling memory) is then
// what each rule's own node would have had, so every value, binding and
// action is pmie's. Sub-expressions are not shared where that would not
// hold: under a rule of a ruleset after the first (evaluated only when
// the ones before are not true), over metrics whose metadata is still
// awaited (their trees are reshaped when it comes), and between rules
// that do not read the same hosts (a host lost live makes every value of
// the rules reading it unknown, not of the others).
//
// A reload carries the trees of unchanged rules, with their history, into
// the new Groups, and compiles the others anew: Regroup shares among the
// new rules only, and gives a Group of its own a copy of any node that
// rules now in different Groups had shared.

// Group is rules evaluated together, at the same times: one schedule's.
// The sub-expressions they have in common are computed once a step for
// all of them (see Regroup).
type Group struct {
	Rules []*Rule
	step  uint64 // the current step; nodes shared by the rules remember theirs
}

// Begin starts a new step of g's rules, before they are evaluated: a
// sub-expression they share is computed at its first use after this.
func (g *Group) Begin() { g.step++ }

// Regroup makes the sub-expressions that the rules of each group have in
// common one node, computed once a step (see Group), among the rules for
// which fresh is true: rules compiled together and never evaluated, whose
// trees are not shared yet. The other rules keep the trees they have
// (with what they share). A node that rules of two groups share (the rules
// of a group of a program now reloaded having been shared out between
// groups) is copied, with its state, for each further group. Each rule's
// Metrics are listed again, as its tree now reads them.
func Regroup(groups []*Group, fresh func(*Rule) bool) {
	// the maps below are made the size they will need, so that they are
	// not grown step by step (a large part of the cost of starting up)
	sizes := make([]int, len(groups))
	total := 0
	for i, g := range groups {
		if g.step == 0 {
			g.step = 1
		}
		sizes[i] = g.size()
		total += sizes[i]
	}
	if len(groups) > 1 { // no node of a single group's is another's
		owner := make(map[*Node]*Group, total)
		for _, g := range groups {
			s := separator{g: g, owner: owner}
			for _, r := range g.Rules {
				s.node(&r.Root)
			}
		}
	}
	for i, g := range groups {
		m := merger{ids: make(map[*Node]int32, sizes[i]), keys: make(map[shareKey]int32, sizes[i]),
			sets: map[*metricSet]*metricSet{}}
		for _, r := range g.Rules {
			if fresh(r) {
				m.rule(r)
			}
		}
		g.link(sizes[i])
		g.compact(sizes[i])
	}
}

// size is the number of nodes of g's rules' trees, a node reached twice
// counted twice: what maps of g's nodes can need.
func (g *Group) size() int {
	var count func(x *Node) int
	count = func(x *Node) int {
		if x == nil {
			return 0
		}
		return 1 + count(x.Arg1) + count(x.Arg2)
	}
	n := 0
	for _, r := range g.Rules {
		n += count(r.Root)
	}
	return n
}

// shareable reports whether x is a node that may be shared: one computed
// each step from its operands (not a constant, nor part of a rule's
// actions, nor a rule or ruleset, whose evaluation runs actions).
func shareable(x *Node) bool {
	switch x.Op {
	case OpRule, OpRuleset, OpOther, OpArg:
		return false
	}
	return x.Op.evaluable() && x.eval != nil && !x.Op.action()
}

// shareKey is what makes two nodes compute the same values from the
// same state: everything of the node's shape, its operands (by their
// ids), and the hosts of its rule.
type shareKey struct {
	op                   Op
	dom                  lang.Domain
	sem                  Sem
	units                Units
	store                storage
	ar                   arity
	hdom, idom, tdom     int
	tspan, nsmpls, nvals int
	valid                int
	a1, a2               int32
	bits                 uint64   // a constant's value
	variable             *float64 // a reserved variable's
	text                 string   // a string constant or pattern; a fetch's metrics
	conns                string   // the hosts of the rule
}

// merger shares the new rules' common sub-expressions within a group.
type merger struct {
	ids   map[*Node]int32    // each node's sub-expression; 0: not shared
	keys  map[shareKey]int32 // the sub-expressions seen
	canon []*Node            // the node that computes each, by id
	sets  map[*metricSet]*metricSet
	conns string // the hosts of the rule being looked at
	buf   []byte // where fetch nodes' keys are built
}

// rule shares r's sub-expressions with those of the new rules before it.
func (m *merger) rule(r *Rule) {
	m.conns = connsOf(r)
	m.id(r.Root, false)
	m.replace(&r.Root)
}

// connsOf lists the hosts r reads.
func connsOf(r *Rule) string {
	var cs []string
	for _, mt := range r.Metrics {
		cs = append(cs, mt.Conn)
	}
	slices.Sort(cs)
	return strings.Join(slices.Compact(cs), "\x00")
}

// id finds the sub-expression x computes, or 0 when x is not to be
// shared; cond says that x is evaluated only at some steps.
func (m *merger) id(x *Node, cond bool) int32 {
	if id, ok := m.ids[x]; ok {
		return id
	}
	var a1, a2 int32
	switch x.Op {
	case OpRuleset:
		first := true
		for op := x.Arg1; op != nil; op = op.Arg2 {
			r := op
			if op.Op != OpRule {
				r = op.Arg1
			}
			m.id(r, cond || !first)
			first = false
			if op.Op == OpRule {
				break
			}
		}
		if x.Arg2 != nil {
			m.id(x.Arg2, true)
		}
	default:
		if x.Arg1 != nil {
			a1 = m.id(x.Arg1, cond)
		}
		if x.Arg2 != nil {
			a2 = m.id(x.Arg2, cond)
		}
	}
	id := int32(0)
	if k, ok := m.key(x, a1, a2, cond); ok {
		if id = m.keys[k]; id == 0 {
			id = int32(len(m.keys) + 1)
			m.keys[k] = id
		}
	}
	m.ids[x] = id
	return id
}

// key is x's shareKey, if x may be shared: a constant (whose id stands
// for its value in its users' keys), or a node computed each step of all
// whose operands may be shared.
func (m *merger) key(x *Node, a1, a2 int32, cond bool) (shareKey, bool) {
	k := shareKey{op: x.Op, dom: x.dom, sem: x.sem, units: x.units, store: x.store,
		hdom: x.hdom, idom: x.idom, tdom: x.tdom, tspan: x.tspan, nsmpls: x.nsmpls, nvals: x.nvals,
		valid: x.valid, a1: a1, a2: a2}
	switch {
	case x.Op == OpNop:
		k.text = x.text
		switch {
		case len(x.num) > 0:
			k.bits = math.Float64bits(x.num[0])
		case len(x.tru) > 0:
			k.bits = uint64(x.tru[0])
		}
		return k, true
	case x.Op == OpVar:
		if len(x.num) == 0 {
			return k, false
		}
		k.variable = &x.num[0]
		return k, true
	case cond || !shareable(x):
		return k, false
	case x.Arg1 != nil && a1 == 0, x.Arg2 != nil && a2 == 0:
		return k, false
	}
	k.ar = arityOf(x)
	k.conns = m.conns
	if x.Op == OpFetch {
		var ok bool
		if k.text, m.buf, ok = fetchKey(x, m.buf); !ok {
			return k, false
		}
	}
	return k, true
}

// fetchKey says what a fetch node reads, and how: its metrics (each
// ready) and whether counters become rates. The key is built in buf,
// which it returns for the next key.
func fetchKey(x *Node, buf []byte) (string, []byte, bool) {
	b := strconv.AppendBool(buf[:0], x.wantsRate())
	for _, mt := range x.metrics.m {
		if !mt.Ready() || mt.down {
			return "", b, false
		}
		d := mt.Desc
		for _, s := range [...]string{mt.Conn, mt.Host, mt.Name} {
			b = append(append(b, 0), s...)
		}
		for _, n := range [...]int64{int64(d.PMID), int64(d.Type), int64(d.InDom), int64(d.Sem),
			int64(d.Units.DimSpace), int64(d.Units.DimTime), int64(d.Units.DimCount),
			int64(d.Units.ScaleSpace), int64(d.Units.ScaleTime), int64(d.Units.ScaleCount),
			int64(mt.specinst), int64(mt.nidom), int64(math.Float64bits(mt.conv))} {
			b = strconv.AppendInt(append(b, ' '), n, 10)
		}
		for i, id := range mt.iids {
			b = strconv.AppendInt(append(b, 1), int64(id), 10)
			if i < len(mt.inames) {
				b = append(append(b, '='), mt.inames[i]...)
			}
		}
	}
	return string(b), b, true
}

// replace puts, in the tree under *ref, the node computing each shared
// sub-expression in place of its copies, and makes the nodes left read
// the metrics of the nodes they now have as operands.
func (m *merger) replace(ref **Node) {
	x := *ref
	if id := m.ids[x]; id != 0 && shareable(x) {
		if int(id) >= len(m.canon) {
			m.canon = append(m.canon, make([]*Node, int(id)+1-len(m.canon))...)
		}
		if c := m.canon[id]; c != nil && c != x {
			mapSets(x, c, m.sets, map[*Node]bool{})
			*ref = c
			return
		}
		m.canon[id] = x
	}
	if x.Arg1 != nil {
		m.replace(&x.Arg1)
	}
	if x.Arg2 != nil {
		m.replace(&x.Arg2)
	}
	if s, ok := m.sets[x.metrics]; ok {
		x.metrics = s
	}
}

// mapSets records, for each node of x's tree, that the metrics it read
// are now those of the same node in c's (a tree of the same shape).
func mapSets(x, c *Node, sets map[*metricSet]*metricSet, seen map[*Node]bool) {
	if x == nil || c == nil || seen[x] {
		return
	}
	seen[x] = true
	if x.metrics != nil && c.metrics != nil && x.metrics != c.metrics {
		sets[x.metrics] = c.metrics
	}
	mapSets(x.Arg1, c.Arg1, sets, seen)
	mapSets(x.Arg2, c.Arg2, sets, seen)
}

// separator gives the rules of group g their own copy of each node that
// rules of another group share with them (one copy for all of g's).
type separator struct {
	g       *Group
	owner   map[*Node]*Group
	nodes   map[*Node]*Node // the copies made for g
	metrics map[*Metric]*Metric
	sets    map[*metricSet]*metricSet
}

// node walks the tree under *ref.
func (s *separator) node(ref **Node) {
	x := *ref
	if x == nil || !x.Op.evaluable() {
		return
	}
	switch s.owner[x] {
	case s.g:
		return // walked already, for another rule of the group
	case nil:
		s.owner[x] = s.g
	default:
		if s.nodes == nil {
			s.nodes, s.metrics, s.sets = map[*Node]*Node{}, map[*Metric]*Metric{}, map[*metricSet]*metricSet{}
		}
		c := copyTree(x, s.nodes, s.metrics, s.sets)
		s.own(c)
		*ref = c
		return
	}
	s.node(&x.Arg1)
	s.node(&x.Arg2)
	if c, ok := s.sets[x.metrics]; ok {
		x.metrics = c
	}
}

// own marks a copied tree as g's.
func (s *separator) own(x *Node) {
	if x == nil || !x.Op.evaluable() || s.owner[x] == s.g {
		return
	}
	s.owner[x] = s.g
	s.own(x.Arg1)
	s.own(x.Arg2)
}

// copyTree copies the tree under x with its state (values, history,
// metrics) for a rule of another group, recording in sets which metrics
// the copies read instead of the originals'. Constants stay shared.
func copyTree(x *Node, nodes map[*Node]*Node, metrics map[*Metric]*Metric, sets map[*metricSet]*metricSet) *Node {
	if x == nil || !x.Op.evaluable() {
		return x
	}
	if c := nodes[x]; c != nil {
		return c
	}
	c := new(Node)
	*c = *x
	nodes[x] = c
	c.Parent, c.more, c.group, c.memo, c.memoAt = nil, nil, nil, nil, nil
	c.num = slices.Clone(x.num)
	c.tru = slices.Clone(x.tru)
	c.str = slices.Clone(x.str)
	c.slot = slices.Clone(x.slot)
	c.stamp = slices.Clone(x.stamp)
	c.Arg1 = copyTree(x.Arg1, nodes, metrics, sets)
	c.Arg2 = copyTree(x.Arg2, nodes, metrics, sets)
	if x.metrics != nil {
		if s, ok := sets[x.metrics]; ok {
			c.metrics = s
		} else {
			s := &metricSet{m: make([]*Metric, len(x.metrics.m))}
			for i, mt := range x.metrics.m {
				s.m[i] = copyMetric(mt, metrics)
			}
			sets[x.metrics] = s
			c.metrics = s
		}
	}
	if x.Op == OpFetch {
		for _, mt := range c.metrics.m {
			mt.node = c
		}
	}
	return c
}

// copyMetric copies a metric with its state, once.
func copyMetric(m *Metric, done map[*Metric]*Metric) *Metric {
	if c := done[m]; c != nil {
		return c
	}
	c := new(Metric)
	*c = *m
	c.inames = slices.Clone(m.inames)
	c.iids = slices.Clone(m.iids)
	c.vals = slices.Clone(m.vals)
	done[m] = c
	return c
}

// link makes the nodes of g's rules know their operators (each shared
// node all of them), marks the nodes used more than once to be computed
// once a step, and lists each rule's metrics. size is g.size().
func (g *Group) link(size int) {
	refs := make(map[*Node]int, size)
	var walk func(x, parent *Node)
	walk = func(x, parent *Node) {
		if x == nil || !x.Op.evaluable() {
			return
		}
		n, seen := refs[x]
		refs[x] = n + 1
		if !seen {
			x.Parent, x.more = parent, nil
		} else if parent != nil && x.Parent != parent && !slices.Contains(x.more, parent) {
			if x.Parent == nil {
				x.Parent = parent
			} else {
				x.more = append(x.more, parent)
			}
		}
		if seen {
			return
		}
		walk(x.Arg1, x)
		walk(x.Arg2, x)
	}
	for _, r := range g.Rules {
		walk(r.Root, nil)
	}
	for x, n := range refs {
		x.group, x.seen = nil, 0
		if n > 1 && shareable(x) {
			x.group = g
		}
	}
	seen := make(map[*Node]int, len(refs)) // the last rule (from 1) a node was met in
	for i, r := range g.Rules {
		r.Metrics = r.Metrics[:0]
		r.Root.metricsOf(&r.Metrics, seen, i+1)
	}
}

// metricsOf appends the metrics of the fetch nodes under x to ms, for
// the rule numbered rule: seen has the last rule each node was met in.
func (x *Node) metricsOf(ms *[]*Metric, seen map[*Node]int, rule int) {
	if x == nil || !x.Op.evaluable() || seen[x] == rule {
		return
	}
	seen[x] = rule
	if x.Op == OpFetch && x.metrics != nil {
		*ms = append(*ms, x.metrics.m...)
	}
	x.Arg1.metricsOf(ms, seen, rule)
	x.Arg2.metricsOf(ms, seen, rule)
}

// eachParent calls f with each node x is an operand of.
func (x *Node) eachParent(f func(p *Node)) {
	if x.Parent != nil {
		f(x.Parent)
	}
	for _, p := range x.more {
		f(p)
	}
}
