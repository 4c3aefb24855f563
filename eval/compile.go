package eval

import (
	"strconv"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// Compiler turns the parsed statements of pmie rule files into rules,
// keeping track of the sample interval ("delta = ...") as it goes.
type Compiler struct {
	B     *Builder
	Prog  *Program
	Delta float64 // seconds; starts as the -t interval
	Clock *Clock
	// Src is the rule file the statements come from, which diagnostics
	// point into (nil: they have no place), and Scan where pmie's
	// scanner was in it after each token, which pmie reports.
	Src  *lang.Source
	Scan lang.Scan
	// Mode restricts what statements may be (pmie's -x and -X).
	Mode Mode
}

// Statement compiles one statement, adding any rule to the program.
func (c *Compiler) Statement(s *lang.Stmt) *Rule {
	c.B.Begin()
	c.at(s.Loc)
	defer func() { c.B.here = here{} }()
	switch s.Kind {
	case lang.StmtDelta:
		x := c.expr(s.X)
		if x != nil && x.Op == OpNop && x.store == storeNum {
			c.Delta = x.num0()
		}
		c.B.metrics = nil
		return nil
	}
	x := c.expr(s.X)
	name := s.Name
	if s.Anonymous {
		name = "" // numbered here: pmie skips statements whose metrics fail
	}
	if s.NameSpan.Start.IsValid() {
		c.B.here.loc = lang.Loc{Span: s.NameSpan}
	}
	r := c.B.Statement(c.Prog, name, x, c.Delta)
	if p, ok := c.Scan.After(s.Loc); ok {
		// pmie completed the statement on reading the token after it: its
		// ";", or a stray token it then reports
		c.B.here.pos = p
	}
	if !c.restrict(!s.Anonymous, x, r != nil, r) {
		return nil
	}
	if r != nil {
		r.Key = name + "\x00" + lang.FormatPmie(s.X) + "\x00" + strconv.FormatFloat(c.Delta, 'g', -1, 64)
	}
	return r
}

// at puts the Builder at the statement (or part) l, which pmie reports
// near the line past the statement's end.
func (c *Compiler) at(l lang.Loc) {
	c.B.here = here{src: c.Src, loc: l}
	c.B.here.pos, _ = c.Scan.Ending(l)
}

// Dropped does what pmie does with a statement the parser drops before
// it drops it, with the same messages as for a statement kept (nothing of
// it is kept): a statement with a syntax error has the metrics parsed
// before the error looked up and its rules counted; one whose rule name
// is taken is made whole, and only if that makes an expression does pmie
// say that the name is taken (Dropped reports whether it does).
//
// A statement the parser completed before a stray token after it
// (d.Reduced) is built as pmie builds it, with its metrics looked up: if
// that makes an expression, an unnamed one uses up an expr_N name, and
// one without errors takes its name (made lists the names taken), but
// none is evaluated. An unnamed statement of which pmie built something
// (d.Anon, decided by what building its constructs made) uses up an
// expr_N name.
//
// late, when not nil, builds the rules pmie completes after the error
// (d.Late), for their diagnostics: call it once the file's first
// d.LateDiag diagnostics are reported.
func (c *Compiler) Dropped(d *lang.Dropped) (dup bool, made []string, late func()) {
	b := c.B
	b.Begin()
	defer func() { b.here, b.metrics = here{}, nil }()
	if d.Stmt != nil {
		c.at(d.Stmt.Loc)
		return c.expr(d.Stmt.X) != nil, nil, nil
	}
	rules := b.rules + d.Rules
	if len(d.Reduced) > 0 {
		for _, st := range d.Reduced {
			if name, ok := c.reduced(st); ok {
				made = append(made, name)
			}
		}
		b.rules = rules
		return false, made, nil
	}
	// pmie looked each metric up as it parsed it, and built what it
	// completed before the error, with its checks: the metrics inside a
	// construct built are looked up as it is
	alive := map[lang.Expr]bool{} // whether building each construct and metric made something
	built := d.Built
	conds := make([]*Node, len(d.Late)) // of the rules built late
	builtLate := false                  // some condition was built
	build := func(x lang.Expr) {
		n := c.built(x)
		alive[x] = n != nil
		for i, l := range d.Late {
			if l.Cond == x && n != nil {
				conds[i], builtLate = n, true
			}
		}
	}
	for _, m := range d.Metrics {
		start := m.Span.Start.Offset
		for len(built) > 0 && built[0].Where().Span.Start.Offset <= start {
			build(built[0])
			built = built[1:]
		}
		if !inside(m, d.Built) {
			c.at(m.Loc)
			alive[m] = c.metric(m) != nil
		}
	}
	for _, x := range built {
		build(x)
	}
	b.rules = rules
	if d.Anon.Eval(func(x lang.Expr) bool { return alive[x] }) {
		b.NextName()
	}
	if !builtLate {
		return false, nil, nil
	}
	return false, nil, func() {
		b.Begin()
		defer func() { b.here = here{} }()
		for i, l := range d.Late {
			if n := conds[i]; n != nil {
				b.here = here{src: c.Src, loc: l.Cond.Where(), pos: l.At}
				b.ruleCond(n)
			}
		}
	}
}

// built builds x, a construct of a dropped statement that pmie completed
// before the statement's error, for its diagnostics and for what pmie
// made of it (nil: nothing).
func (c *Compiler) built(x lang.Expr) *Node {
	c.at(x.Where())
	return c.expr(x)
}

// inside reports whether metric m is in one of the constructs xs.
func inside(m *lang.Metric, xs []lang.Expr) bool {
	at := m.Span.Start.Offset
	for _, x := range xs {
		if sp := x.Where().Span; sp.Start.Offset <= at && at < sp.End.Offset {
			return true
		}
	}
	return false
}

// reduced builds st as pmie does a statement it completes before finding
// an error after it, and reports the name it takes, if any.
func (c *Compiler) reduced(st *lang.Stmt) (string, bool) {
	c.at(st.Loc)
	x := c.expr(st.X)
	if p, ok := c.Scan.After(st.Loc); ok {
		// pmie completed the statement on reading the stray token
		c.B.here.pos = p
	}
	if x == nil {
		c.restrict(!st.Anonymous, nil, false, nil)
		return "", false
	}
	name := st.Name
	if st.Anonymous {
		name = c.B.NextName()
	}
	ok := c.B.errs == 0 && x.Op != OpNop
	c.restrict(!st.Anonymous, x, ok, nil)
	return name, ok
}

// expr compiles an expression bottom up, operands left to right as pmie's
// parser builds them; what the Builder reports while it builds e's node
// is reported at e.
func (c *Compiler) expr(e lang.Expr) *Node {
	b := c.B
	outer := b.here
	b.here.loc = e.Where()
	if p, ok := c.Scan.After(b.here.loc); ok {
		// pmie builds e having read the token after it
		b.here.pos = p
	}
	defer func() { b.here.loc, b.here.pos = outer.loc, outer.pos }()
	switch e := e.(type) {
	case *lang.Paren:
		return c.expr(e.X)
	case *lang.Number:
		return b.NumConst(e.Float, scaleUnits(e.Scale))
	case *lang.String:
		return b.StrConst(e.Value)
	case *lang.Bool:
		if e.Value {
			return b.BoolConst(True)
		}
		return b.BoolConst(False)
	case *lang.Var:
		return c.variable(e)
	case *lang.Metric:
		return c.metric(e)
	case *lang.Unary:
		return c.unary(e)
	case *lang.Binary:
		return c.binary(e)
	case *lang.MatchInst:
		op := OpMatch
		if e.Negate {
			op = OpNomatch
		}
		x := c.expr(e.X)
		if x == nil {
			return nil
		}
		return b.Binary(op, x, b.StrConst(e.Pattern))
	case *lang.Quant:
		op, ok := opOf(lang.Quantifier, e.Op)
		if !ok {
			break
		}
		x := c.expr(e.X)
		defer c.reducedAt(e)()
		if op == OpPcnt {
			return b.Percent(e.Percent, e.Dom, x)
		}
		return b.Domain(op, e.Dom, x)
	case *lang.Aggr:
		op, ok := opOf(lang.Aggregate, e.Op)
		if !ok {
			break
		}
		x := c.expr(e.X)
		defer c.reducedAt(e)()
		return b.Domain(op, e.Dom, x)
	case *lang.Action:
		return c.action(e)
	case *lang.Rule:
		cond := c.expr(e.Cond)
		return b.Rule(cond, c.expr(e.Action))
	case *lang.Ruleset:
		return c.ruleset(e)
	}
	b.synerr("unexpected expression")
	return nil
}

// variable compiles a macro reference: a reserved variable, or the value
// of a numeric or truth macro.
func (c *Compiler) variable(v *lang.Var) *Node {
	if v.Value == nil {
		var slot []float64
		switch v.Name {
		case "delta":
			slot = c.Clock.Delta
		case "minute":
			slot = c.Clock.Minute
		case "hour":
			slot = c.Clock.Hour
		case "day":
			slot = c.Clock.Day
		case "month":
			slot = c.Clock.Month
		case "year":
			slot = c.Clock.Year
		case "day_of_week":
			slot = c.Clock.Weekday
		default:
			c.B.failed("undefined macro name $" + v.Name)
			return nil
		}
		return c.B.Var(slot)
	}
	return c.B.Macro(c.expr(v.Value))
}

// metric compiles a metric with its qualifiers.
func (c *Compiler) metric(m *lang.Metric) *Node {
	var hosts, insts []string
	for _, h := range m.Hosts {
		hosts = append(hosts, h.Value)
	}
	for _, i := range m.Insts {
		insts = append(insts, i.Value)
	}
	t1, t2 := 0, 0
	if m.Samples != nil {
		t1, t2 = m.Samples.From, m.Samples.To
	}
	return c.B.Fetch(m.Name, hosts, insts, t1, t2)
}

func (c *Compiler) unary(e *lang.Unary) *Node {
	b := c.B
	op, ok := opOf(lang.Prefix, e.Op.String())
	if !ok {
		b.synerr("unexpected expression")
		return nil
	}
	x := c.expr(e.X)
	if x == nil {
		return nil
	}
	defer c.reducedAt(e)()
	switch op {
	case OpRate:
		return b.Rate(x)
	case OpRise, OpFall:
		return b.Edge(op, x)
	}
	return b.Unary(op, x)
}

func (c *Compiler) binary(e *lang.Binary) *Node {
	b := c.B
	op, ok := opOf(lang.Infix, e.Op.String())
	if !ok {
		b.synerr("unexpected expression")
		return nil
	}
	x := c.expr(e.X)
	y := c.expr(e.Y)
	defer c.reducedAt(e)()
	switch {
	case e.Op.IsRelational():
		return b.Rel(op, x, y)
	case ops[op].operand == lang.TypeAction:
		if x != nil && y == nil {
			return b.Partial(op, x)
		}
		return b.Actions(op, x, y)
	}
	if x != nil && y == nil && (op == OpAnd || op == OpOr) {
		return b.Partial(op, x)
	}
	if x == nil || y == nil {
		return nil
	}
	return b.Binary(op, x, y)
}

func (c *Compiler) action(a *lang.Action) *Node {
	var hold *Node
	if a.Holdoff != nil {
		hold = c.expr(a.Holdoff)
	}
	args := make([]string, len(a.Args))
	for i, s := range a.Args {
		args[i] = s.Value
	}
	op, ok := opOf(lang.ActionWord, a.Op)
	if !ok {
		c.B.synerr("unexpected expression")
		return nil
	}
	return c.B.Action(op, args, hold)
}

func (c *Compiler) ruleset(rs *lang.Ruleset) *Node {
	var rules []*Node
	for _, r := range rs.Rules {
		x := c.expr(r)
		if x == nil {
			return nil
		}
		rules = append(rules, x)
	}
	var unknown, otherwise *Node
	if rs.Unknown != nil {
		if unknown = c.expr(rs.Unknown); unknown == nil {
			return nil
		}
	}
	if rs.Otherwise != nil {
		if otherwise = c.expr(rs.Otherwise); otherwise == nil {
			return nil
		}
	}
	return c.B.Ruleset(rules, unknown, otherwise)
}

// scaleUnits converts a scale factor to units.
func scaleUnits(s *lang.Scale) pmapi.Units {
	if s == nil {
		return pmapi.Units{}
	}
	return pmapi.Units{
		DimSpace: int8(s.DimSpace), DimTime: int8(s.DimTime), DimCount: int8(s.DimCount),
		ScaleSpace: int8(s.ScaleSpace), ScaleTime: int8(s.ScaleTime), ScaleCount: int8(s.ScaleCount),
	}
}

// reducedAt has the diagnostics of what is built next (x's node) say
// where pmie reduced x (see here.at) when its parser did so having
// read x's last token but not the one after it; the function it returns
// undoes that.
func (c *Compiler) reducedAt(x lang.Expr) func() {
	if !reducedEarly(x) {
		return func() {}
	}
	p, ok := c.Scan.At(x.Where())
	if !ok {
		return func() {}
	}
	c.B.here.at = &p
	return func() { c.B.here.at = nil }
}

// reducedEarly reports whether pmie's parser reduces x as soon as it has
// read x's last token: x ends with a token that nothing can extend (a ")",
// a string compared with == or !=, the last number of a sample qualifier
// @N..M but not @N's, true or false), and every construct between that token and x is
// one that nothing after it can extend either (a prefix operator, an
// aggregate or quantifier, the right operand of &&, ||, * or /, which
// bind at least as tightly as anything that could follow). Anything
// ending in another number, a metric without @, or an action could go
// on, as could the right operand of + or - (by * or /), so pmie reads
// the next token first.
func reducedEarly(x lang.Expr) bool {
	if x == nil {
		return false
	}
	switch x := x.(type) {
	case *lang.Paren:
		return true
	case *lang.Metric:
		// after @N the scanner reads on, for a ".." that would make it
		// @N..M
		return x.Samples != nil && x.Samples.Range
	case *lang.Bool:
		return true
	case *lang.Binary:
		switch {
		case x.Op.IsRelational():
			_, str := x.Y.(*lang.String)
			return str
		case x.Op == lang.OpAnd || x.Op == lang.OpOr || x.Op == lang.OpMul || x.Op == lang.OpDiv:
			return reducedEarly(x.Y)
		}
	case *lang.Unary:
		return reducedEarly(x.X)
	case *lang.Quant:
		return reducedEarly(x.X)
	case *lang.Aggr:
		return reducedEarly(x.X)
	case *lang.MatchInst:
		return reducedEarly(x.X)
	}
	return false
}
