package derive

import (
	"fmt"
	"math"
	"slices"

	"github.com/gopcp/pmie/pmapi"
)

// This file rewrites fetches: a fetch of derived metrics asks the inner
// context for their operands instead (and for the other metrics asked for),
// evaluates the derived metrics over the answer, and hands back one value
// set per PMID asked for, as libpcp's __dmprefetch and __dmpostfetch do.

// fetchPlan is how one list of PMIDs is fetched. Plans are remembered, so
// a client fetching the same list every time does the work once.
type fetchPlan struct {
	ids     []pmapi.PMID // the list asked for
	list    []pmapi.PMID // what the inner context is asked for: ids, then operands
	derived []*metric    // per PMID asked for: its derived metric, or nil
	pos     []int        // per PMID asked for that is not derived: its index in list
	slotPos []int        // per operand slot: its index in list, or -1
}

// Fetch is pmFetch over the inner context with derived metrics evaluated.
// A derived metric that failed its checks gives pmapi.ErrPMID.
func (c *Context) Fetch(ids []pmapi.PMID, r *pmapi.Result) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("derive: internal error in fetch: %v", p)
		}
	}()
	c.refresh()
	if !c.anyDerived(ids) {
		return c.inner.Fetch(ids, r)
	}
	p := c.plan(ids)
	if err := c.inner.Fetch(p.list, &c.res); err != nil {
		return err
	}
	for s, i := range p.slotPos {
		c.frame.sets[s] = nil
		if i >= 0 && i < len(c.res.Sets) {
			c.frame.sets[s] = &c.res.Sets[i]
		}
	}
	c.frame.stamp = c.res.Time
	c.frame.fetch++
	r.Time = c.res.Time
	if cap(r.Sets) < len(ids) {
		r.Sets = append(r.Sets[:cap(r.Sets)], make([]pmapi.ValueSet, len(ids)-cap(r.Sets))...)
	}
	r.Sets = r.Sets[:len(ids)]
	for i, id := range ids {
		out := &r.Sets[i]
		vals := out.Values[:0]
		*out = pmapi.ValueSet{PMID: id}
		if m := p.derived[i]; m != nil {
			out.Values, out.Err = c.evaluate(m, vals)
			continue
		}
		if p.pos[i] >= len(c.res.Sets) {
			out.Values, out.Err = vals, pmapi.ErrPMID
			continue
		}
		in := &c.res.Sets[p.pos[i]]
		out.Err = in.Err
		out.Values = append(vals, in.Values...)
	}
	return nil
}

// anyDerived reports whether ids has a PMID of one of our derived metrics.
func (c *Context) anyDerived(ids []pmapi.PMID) bool {
	for _, id := range ids {
		if IsDerived(id) && c.byPMID[id] != nil {
			return true
		}
	}
	return false
}

// evaluate computes derived metric m's values into vals.
func (c *Context) evaluate(m *metric, vals []pmapi.Value) ([]pmapi.Value, error) {
	if m.prog == nil {
		return vals, pmapi.ErrPMID
	}
	vs, err := m.prog.eval(&c.frame)
	if err != 0 {
		return vals, errorOf(err)
	}
	switch t := m.prog.desc.Type; t {
	case pmapi.TypeDouble:
		for _, v := range vs {
			vals = append(vals, pmapi.Value{Inst: v.inst, Atom: pmapi.F64(math.Float64frombits(v.u))})
		}
	case pmapi.TypeU64:
		for _, v := range vs {
			vals = append(vals, pmapi.Value{Inst: v.inst, Atom: pmapi.U64(v.u)})
		}
	default:
		for _, v := range vs {
			vals = append(vals, pmapi.Value{Inst: v.inst, Atom: atomOf(t, v)})
		}
	}
	return vals, nil
}

// errorOf is code as an error; the common codes are made once, so that
// reporting them allocates nothing.
func errorOf(code pmapi.Errno) error {
	switch code {
	case pmapi.ErrPMID:
		return errPMID
	case pmapi.ErrValue:
		return errValue
	}
	return code
}

var (
	errPMID  error = pmapi.ErrPMID
	errValue error = pmapi.ErrValue
)

// plan returns the plan for ids, making it if ids differs from the last
// list fetched.
func (c *Context) plan(ids []pmapi.PMID) *fetchPlan {
	p := &c.fetch
	if p.ids != nil && slices.Equal(p.ids, ids) {
		return p
	}
	*p = fetchPlan{ids: slices.Clone(ids), derived: make([]*metric, len(ids)), pos: make([]int, len(ids))}
	index := map[pmapi.PMID]int{}
	add := func(id pmapi.PMID) int {
		if i, ok := index[id]; ok {
			return i
		}
		index[id] = len(p.list)
		p.list = append(p.list, id)
		return len(p.list) - 1
	}
	// like libpcp, the derived PMIDs stay in the list (the inner context
	// gives them no values): a list of nothing but constant expressions
	// still reads the next archive record
	for i, id := range ids {
		p.pos[i] = add(id)
		if m := c.byPMID[id]; IsDerived(id) && m != nil && !m.masked {
			c.bind(m)
			c.compile(m)
			p.derived[i] = m
		}
	}
	// operands come after everything asked for
	for _, m := range p.derived {
		if m != nil && m.prog != nil {
			for _, id := range m.prog.operands {
				add(id)
			}
		}
	}
	p.slotPos = make([]int, len(c.slots.ids))
	for s, id := range c.slots.ids {
		p.slotPos[s] = -1
		if i, ok := index[id]; ok {
			p.slotPos[s] = i
		}
	}
	c.frame.grow(len(c.slots.ids))
	return p
}

// compile compiles m's tree once.
func (c *Context) compile(m *metric) {
	if m.prog != nil || m.tree == nil {
		return
	}
	m.prog = &program{eval: m.tree.compile(&c.slots), desc: m.tree.desc, operands: operandsOf(m.tree, nil)}
}

// operandsOf lists the PMIDs of the metrics n takes values from.
func operandsOf(n *node, ids []pmapi.PMID) []pmapi.PMID {
	if n == nil {
		return ids
	}
	if n.op == opName {
		if n.ref != nil {
			return operandsOf(n.ref, ids)
		}
		if !slices.Contains(ids, n.pmid) {
			ids = append(ids, n.pmid)
		}
		return ids
	}
	return operandsOf(n.z, operandsOf(n.y, operandsOf(n.x, ids)))
}

// instName implements instances: pmNameInDom over the inner context, as
// of the time of the fetch being evaluated, as libpcp looks matchinst's
// names up (for archives it moves the context's time there and back: an
// interpolated fetch has moved it on by then, possibly past a change of
// the instance domain).
func (c *Context) instName(indom pmapi.InDom, inst int32) (string, bool) {
	insts, err := pmapi.InDomAt(c.inner, indom, c.frame.stamp)
	if err != nil {
		return "", false
	}
	for _, in := range insts {
		if in.ID == inst {
			return in.Name, true
		}
	}
	return "", false
}

// instID implements instances: pmLookupInDom (pmapi.LookupInDom: pmcd's
// PMDA decides, others are searched as libpcp searches archives), as of
// the context's current time (libpcp does not move it to the fetch's for
// [inst]).
func (c *Context) instID(indom pmapi.InDom, name string) (int32, bool) {
	if indom == pmapi.InDomNull {
		return pmapi.InNull, false
	}
	id, err := pmapi.LookupInDom(c.inner, indom, name)
	return id, err == nil
}
