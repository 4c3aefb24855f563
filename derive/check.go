package derive

import (
	"errors"

	"github.com/gopcp/pmie/internal/posixre"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// This file is the checker: it walks a parsed expression and builds a new,
// typed tree of nodes, each with the descriptor (type, semantics, units,
// instance domain) libpcp 6.0.3 gives it, and the scale factors its parent
// applies to its values. The syntax tree is never changed.

// op is what a node computes.
type op uint8

// The node operations. They follow libpcp's node types.
const (
	opName      op = iota // a metric of the context (or, beyond libpcp, another derived metric)
	opConst               // an integer or floating constant, or mkconst()
	opBinary              // + - * / < <= == >= > != && ||
	opNot                 // !x
	opNeg                 // -x
	opTernary             // x ? y : z
	opCall                // a function from the function table
	opInstExact           // x[inst]
	opMatchInst           // matchinst([!]/re/, x)
)

// node is one checked node of a derived metric's expression.
type node struct {
	op   op
	src  lang.Expr
	desc pmapi.Desc
	x    *node // the operand, or left operand, or ternary guard
	y    *node // right operand, or ternary "true" operand
	z    *node // ternary "false" operand

	// mul and div are libpcp's scale factors for this node's values,
	// set by a binary parent that promotes to double to convert scales.
	mul, div int32

	bin     lang.BinaryOp // opBinary
	fn      *function     // opCall
	name    string        // opName: the metric; opInstExact: the instance
	pmid    pmapi.PMID    // opName: the metric's PMID
	ref     *node         // opName naming another derived metric: its tree
	konst   pmapi.Atom    // opConst, and defined() (fixed at bind time)
	isConst bool          // a constant, as libpcp's N_INTEGER and N_DOUBLE
	units   pmapi.Units   // rescale(): the target units
	re      *posixre.Regexp
	negate  bool
	history bool // delta() and rate() keep this node's previous values
}

// binder is what the checker needs from a context: the metric an operand
// names.
type binder interface {
	// operand resolves name as libpcp's pmLookupName and pmLookupDesc do
	// for an operand: a metric of the context, else a derived metric. For
	// a derived metric it returns its checked tree.
	operand(name string) (pmapi.PMID, pmapi.Desc, *node, error)
}

// checker checks one derived metric.
type checker struct {
	m     *def
	b     binder
	diags []Diagnostic
	cycle []string // the cycle of derived metrics found, if any
}

// check checks metric m's expression, returning its typed tree, or nil and
// the reasons it cannot be used, with the cycle of derived metrics it is
// in, if that is a reason.
func check(m *def, b binder) (*node, []Diagnostic, []string) {
	if m.anon {
		// libpcp's anonymous metrics: what the check of anon(PM_TYPE_X)
		// gives, known from X without making the tree
		return anonNode(m.anonType, nil), nil, nil
	}
	root, d := m.expr.Tree()
	if d != nil {
		return nil, []Diagnostic{m.internalError(d.Msg)}, nil
	}
	c := &checker{m: m, b: b}
	n := c.expr(root)
	if n == nil {
		return nil, c.diags, c.cycle
	}
	return n, nil, nil
}

func (c *checker) fail(d Diagnostic) *node {
	c.diags = append(c.diags, d)
	return nil
}

// expr checks x. It returns nil when x or anything under it is in error;
// the errors are in c.diags.
func (c *checker) expr(x lang.Expr) *node {
	switch x := x.(type) {
	case *lang.Paren:
		return c.expr(x.X)
	case *lang.Metric:
		return c.metric(x)
	case *lang.Number:
		return c.number(x)
	case *lang.MkConst:
		return c.mkconst(x)
	case *lang.Binary:
		return c.binary(x)
	case *lang.Unary:
		return c.unary(x)
	case *lang.Ternary:
		return c.ternary(x)
	case *lang.Call:
		return c.call(x)
	case *lang.InstSelect:
		return c.instSelect(x)
	case *lang.MatchInst:
		return c.matchInst(x)
	}
	// lang's derived-metric parser makes no other nodes
	return c.fail(c.m.semanticError(x, "unexpected expression"))
}

func (c *checker) metric(x *lang.Metric) *node {
	id, desc, ref, err := c.b.operand(x.Name)
	if err != nil {
		return c.operandFailed(x, err)
	}
	desc.PMID = pmapi.PMIDNull
	return &node{op: opName, src: x, desc: desc, name: x.Name, pmid: id, ref: ref, mul: 1, div: 1}
}

// operandFailed fails the check for operand x, which the binder could not
// give for err.
func (c *checker) operandFailed(x *lang.Metric, err error) *node {
	if d, ok := err.(cycleErr); ok {
		c.cycle = d.path
		return c.fail(c.m.cycleError(x, d.path))
	}
	return c.fail(c.m.lookupError(x, err))
}

// missingName reports whether err, from binder.operand, says only that the
// context has no metric of that name (derived or not): the name is there
// but unusable for a failed derived metric, a cycle, or a descriptor the
// context cannot give.
func missingName(err error) bool {
	var de descError
	var ce cycleErr
	return !errors.Is(err, pmapi.ErrBadDerive) && !errors.As(err, &de) && !errors.As(err, &ce)
}

// constDesc is the descriptor libpcp gives a constant: U32 for an
// integer, DOUBLE for a real, discrete and dimensionless.
func constDesc(t pmapi.Type) pmapi.Desc {
	return pmapi.Desc{PMID: pmapi.PMIDNull, Type: t, InDom: pmapi.InDomNull, Sem: pmapi.SemDiscrete}
}

func (c *checker) number(x *lang.Number) *node {
	d := constDesc(pmapi.TypeU32)
	if x.Kind == lang.FloatNumber {
		d.Type = pmapi.TypeDouble
	}
	return &node{op: opConst, src: x, desc: d, konst: constValue(x, d.Type), isConst: true, mul: 1, div: 1}
}

func (c *checker) mkconst(x *lang.MkConst) *node {
	d := constDesc(pmapi.TypeU32)
	if x.Value.Kind == lang.FloatNumber {
		d.Type = pmapi.TypeDouble
	}
	for _, p := range x.Params {
		switch p.Tag {
		case "type":
			d.Type, _ = typeNamed(p.Value)
		case "semantics":
			d.Sem, _ = semNamed(p.Value)
		case "units":
			d.Units, _, _ = pmapi.ParseUnits(p.Value)
		}
	}
	return &node{op: opConst, src: x, desc: d, konst: constValue(x.Value, d.Type), isConst: true, mul: 1, div: 1}
}

func (c *checker) unary(x *lang.Unary) *node {
	v := c.expr(x.X)
	if v == nil {
		return nil
	}
	n := &node{src: x, x: v, desc: v.desc, mul: 1, div: 1}
	if x.Op == lang.OpNot {
		// libpcp leaves ! with its operand's descriptor
		n.op = opNot
		return n
	}
	n.op = opNeg
	if !v.desc.Type.Numeric() {
		return c.fail(c.m.semanticError(x, reasonNegType))
	}
	n.desc.Sem = pmapi.SemInstant
	switch v.desc.Type {
	case pmapi.TypeU32:
		n.desc.Type = pmapi.Type32
	case pmapi.TypeU64:
		n.desc.Type = pmapi.Type64
	}
	return n
}

func (c *checker) ternary(x *lang.Ternary) *node {
	g, t, f := c.expr(x.Cond), c.expr(x.Then), c.expr(x.Else)
	if g == nil || t == nil || f == nil {
		return nil
	}
	td, fd := t.desc, f.desc
	d := td
	switch {
	case td.Type != fd.Type:
		return c.fail(c.m.colonError(x, reasonTernaryType))
	case td.InDom != fd.InDom && td.InDom != pmapi.InDomNull && fd.InDom != pmapi.InDomNull:
		return c.fail(c.m.colonError(x, reasonTernaryIndom))
	case td.Sem != fd.Sem:
		return c.fail(c.m.colonError(x, reasonTernarySem))
	case td.Units.DimSpace != fd.Units.DimSpace || td.Units.ScaleSpace != fd.Units.ScaleSpace:
		return c.fail(c.m.colonError(x, reasonTernarySpace))
	case td.Units.DimTime != fd.Units.DimTime || td.Units.ScaleTime != fd.Units.ScaleTime:
		return c.fail(c.m.colonError(x, reasonTernaryTime))
	case td.Units.DimCount != fd.Units.DimCount || td.Units.ScaleCount != fd.Units.ScaleCount:
		return c.fail(c.m.colonError(x, reasonTernaryCount))
	}
	if td.InDom == pmapi.InDomNull {
		d.InDom = fd.InDom
	}
	if !g.desc.Type.Numeric() {
		return c.fail(c.m.semanticError(x, reasonGuardType))
	}
	if td.InDom == pmapi.InDomNull && fd.InDom == pmapi.InDomNull && g.desc.InDom != pmapi.InDomNull {
		return c.fail(c.m.semanticError(x, reasonGuardScalar))
	}
	return &node{op: opTernary, src: x, desc: d, x: g, y: t, z: f, mul: 1, div: 1}
}

func (c *checker) instSelect(x *lang.InstSelect) *node {
	v := c.expr(x.X)
	if v == nil {
		return nil
	}
	return &node{op: opInstExact, src: x, desc: v.desc, x: v, name: x.Inst, mul: 1, div: 1}
}

func (c *checker) matchInst(x *lang.MatchInst) *node {
	v := c.expr(x.X)
	if v == nil {
		return nil
	}
	re, err := compilePattern(x.Pattern)
	if err != "" {
		// lang asked us about the pattern while parsing; this cannot
		// happen for a tree that parsed
		return c.fail(c.m.semanticError(x, err))
	}
	return &node{op: opMatchInst, src: x, desc: v.desc, x: v, re: re, negate: x.Negate, mul: 1, div: 1}
}

func (c *checker) call(x *lang.Call) *node {
	fn := functions[x.Func]
	if fn == nil {
		return c.fail(c.m.semanticError(x, "unknown function "+x.Func))
	}
	return fn.check(c, x)
}
