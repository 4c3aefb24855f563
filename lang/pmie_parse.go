package lang

import (
	"math"
	"strings"
)

// pmieParser parses a pmie statement into its syntax tree and, when the
// statement is not legal, reports and recovers as pmie 6.0.3 does. It is a
// recursive descent parser with typed precedence climbing over the
// operator table (pmie_ops.go) that models pmie's yacc parser closely
// enough to reproduce its error handling:
//
//   - pmie stops at the first token that cannot continue the statement and
//     prints "syntax error - near line N ...";
//   - it then goes back to the innermost place that was expecting an
//     operand or a particular token (a "recovery point"). If the offending
//     token (or, failing that, a later one) is an operator that such an
//     operand could have preceded, it says "X expected to precede OP" and
//     treats the missing operand as present; otherwise, if the construct
//     owning the point has a message of its own, it says "X expected to
//     follow OP" and treats the construct as complete; otherwise it drops
//     tokens up to the end of the statement;
//   - after each such message pmie skips its input to the next ";"; when
//     the ";" of the statement has already been read, that skips the whole
//     next statement too, which we copy;
//   - it then carries on parsing, which can lead to a second message.
//
// The statement is dropped whenever an error was found, so the tree is
// only built (and only complete) while none has been.

// rpoint is a recovery point: a place expecting an operand of a type in
// want (0 when it expects a particular token), and the message pmie gives
// when the construct owning it cannot go on ("" if none).
type rpoint struct {
	want   Type
	follow string
	after  string // if set, the message is "FOLLOW expected to follow AFTER"
	// reduces: the construct owning rp is completed before a binary
	// operator at the error (Operator.reduces)
	reduces bool
}

// message is what pmie says when the construct owning rp cannot go on
// ("" if nothing). It is put together only when said.
func (rp *rpoint) message() string {
	if rp.after == "" {
		return rp.follow
	}
	return rp.follow + " expected to follow " + rp.after
}

type outKind uint8

const (
	outPrecede outKind = iota // a missing operand stands in for an operand at rp
	outFollow                 // the construct owning rp is complete
	outAbort                  // the statement is abandoned
)

// outcome is the result of a recovery, travelling up to the recovery
// point's owner.
type outcome struct {
	kind outKind
	rp   *rpoint
	typ  Type // outPrecede: the type of what stands in for the operand
}

// pval is what pmie's parser has built for a piece of a statement: nothing
// (after an error), a constant (which pmie folds), or an expression.
// Which one decides whether pmie registers the statement, defines a macro
// or uses up an expr_N name.
type pval uint8

const (
	vNull pval = iota
	vConst
	vExpr
)

// both is the value of an operator pmie builds only from two values.
func both(a, b pval) pval {
	switch {
	case a == vNull || b == vNull:
		return vNull
	case a == vConst && b == vConst:
		return vConst
	}
	return vExpr
}

// leftOnly is the value of an operator pmie builds whenever its left
// operand is there (&&, ||, match_inst, ruleset branches).
func leftOnly(a, b pval) pval {
	switch {
	case a == vNull:
		return vNull
	case a == vConst && b == vConst:
		return vConst
	}
	return vExpr
}

// unaryVal is the value of a prefix operator; folds says pmie folds it.
func unaryVal(a pval, folds bool) pval {
	if a == vConst && folds {
		return vConst
	}
	if a == vNull {
		return vNull
	}
	return vExpr
}

// pv is a parsed piece: its type, its value and its tree (nil after an
// error). a, for an expression, is when pmie made it (nil: always, unless
// v is vNull); the parser sets it for the metrics and constructs it
// completes before the statement's first syntax error (settle), and
// combines their parts' for those after it.
type pv struct {
	t Type
	v pval
	x Expr
	a *Alive
}

var aliveAlways = &Alive{Op: AliveAlways}

// alive is when pmie made x: never (nil) after an error, always for a
// constant.
func (x pv) alive() *Alive {
	switch {
	case x.v == vNull:
		return nil
	case x.a == nil || x.v == vConst:
		return aliveAlways
	}
	return x.a
}

// allAlive is made when both a and b are; anyAlive when either is.
func allAlive(a, b *Alive) *Alive {
	switch {
	case a == nil || b == nil:
		return nil
	case a.Op == AliveAlways:
		return b
	case b.Op == AliveAlways:
		return a
	}
	return &Alive{Op: AliveAll, Of: [2]*Alive{a, b}}
}

func anyAlive(a, b *Alive) *Alive {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.Op == AliveAlways || b.Op == AliveAlways:
		return aliveAlways
	}
	return &Alive{Op: AliveAny, Of: [2]*Alive{a, b}}
}

// settle makes x, just completed, depend on itself alone if the statement
// has had no syntax error yet: pmie built it then, and what building it
// made decides.
func (c *pmieParser) settle(x pv) pv {
	if c.s.errs == 0 && x.v == vExpr && x.x != nil {
		x.a = &Alive{Op: AliveLeaf, Leaf: x.x}
	}
	return x
}

type pmieParser struct {
	lookahead // over the statement's tokens
	s         *pmieSession
	// resumed is, where the statement goes on after a missing left
	// operand of an operator was reported (pmie's "... expected to
	// precede"), the type of what the operator makes
	resumed   Type
	rps       []*rpoint
	out       *outcome
	errstatus int  // tokens pmie still has to shift before it reports a new error
	failed    bool // an error was found
	// reduced is called when pmie would reduce the whole statement, with
	// its name, the parsed piece and the tokens up to there.
	reduced func(name *token, x pv, toks []token)
}

// advance consumes the lookahead.
func (c *pmieParser) advance() token {
	t := c.take()
	if c.errstatus > 0 {
		c.errstatus--
	}
	return t
}

func (c *pmieParser) is(kind tokKind, val string) bool {
	t := c.peek()
	return t.kind == kind && (val == "" || t.val == val)
}

func (c *pmieParser) isIdent() bool {
	t := c.peek()
	return t.kind == tkName || t.kind == tkQuoted
}

func (c *pmieParser) push(rp *rpoint) { c.rps = append(c.rps, rp) }
func (c *pmieParser) pop()            { c.rps = c.rps[:len(c.rps)-1] }

// mine reports whether the pending outcome is a follow at rp, and takes it.
func (c *pmieParser) mine(rp *rpoint) bool {
	if c.out != nil && c.out.rp == rp && c.out.kind == outFollow {
		c.out = nil
		return true
	}
	return false
}

// fail reports a syntax error at the lookahead and recovers at the
// innermost recovery point, leaving the outcome in c.out.
func (c *pmieParser) fail() {
	c.failed = true
	rp := c.rps[len(c.rps)-1]
	switch {
	case c.errstatus == 0:
		c.s.syntaxError(c.peek())
	case c.errstatus == 3 && c.peek().kind == tkEOF:
		c.out = &outcome{kind: outAbort, rp: rp}
		return
	case c.errstatus == 3:
		c.have = false // pmie drops the token that it could not use
	}
	c.errstatus = 3
	for {
		t := c.peek()
		op := t.val
		if (t.kind == tkPunct && binopOf(t) != nil) || (t.kind == tkKeyword && op == "%_") {
			if rp.want != 0 && !rp.reduces && precedeOK(op, rp.want) {
				c.advance()
				c.s.gramerr(t, precedeMessage(op))
				c.out = &outcome{kind: outPrecede, rp: rp, typ: precedeResult(op)}
				return
			}
		}
		if rp.follow != "" {
			c.s.gramerr(t, rp.message())
			c.out = &outcome{kind: outFollow, rp: rp}
			return
		}
		if t.kind == tkEOF {
			c.out = &outcome{kind: outAbort, rp: rp}
			return
		}
		c.have = false
	}
}

// statement parses one statement. pmie acts on a statement when its
// parser reduces it, which can happen before an error after it is found
// (a complete logical expression, action, rule or ruleset followed by a
// stray token is registered, then the token is reported); c.reduced is
// called then.
func (c *pmieParser) statement() {
	rp := &rpoint{want: typeAny}
	c.push(rp)
	if c.peek().kind == tkEOF {
		return
	}
	var name, pre *token
	if c.isIdent() {
		t := c.advance()
		if c.is(tkPunct, "=") {
			c.advance()
			name = &t
		} else {
			pre = &t
		}
	}
	x, ok := c.operandAt(rp, typeAny, 0, pre, nil)
	for ok {
		if c.is(tkEOF, "") {
			c.reduced(name, x, c.toks)
			return
		}
		if x.t&(TypeArith|TypeString) == 0 {
			c.reduced(name, x, c.toks) // reduced before the error is seen
			name = nil
		}
		c.fail()
		if c.out.kind != outPrecede {
			return
		}
		st := pv{t: c.out.typ}
		c.out = nil
		c.resumed = st.t
		x, ok = c.operandAt(rp, typeAny, 0, nil, &st)
	}
}

// operandAt parses an operand at recovery point rp (already pushed), of a
// type in want, inside a construct that binds with power prec. pre is an
// identifier already consumed; start, when set, is an operand pmie's
// recovery put there, to continue from.
func (c *pmieParser) operandAt(rp *rpoint, want Type, prec int, pre *token, start *pv) (pv, bool) {
	var x pv
	ok := true
	if start != nil {
		x = *start
	} else {
		x, ok = c.unary(want, pre)
	}
	for {
		if !ok {
			if c.out == nil || c.out.rp != rp || c.out.kind != outPrecede {
				return pv{}, false
			}
			x, c.out = pv{t: c.out.typ}, nil
			c.resumed = x.t
		}
		x, ok = c.climb(x, want, prec)
		if !ok {
			continue
		}
		if x.t&want == 0 {
			c.fail()
			ok = false
			continue
		}
		return x, true
	}
}

// climb applies binary operators to operand x while pmie would.
func (c *pmieParser) climb(x pv, want Type, prec int) (pv, bool) {
	for {
		t := c.peek()
		op := binopOf(t)
		if op == nil || !pmieShift(op, x.t, want, prec) {
			return x, true
		}
		c.advance()
		y, ok, missing := c.operandOf(&rpoint{want: op.Operand, follow: op.follow, after: t.val}, op.prec)
		switch {
		case !ok:
			return pv{}, false
		case missing:
			x = pv{t: op.Result}
		default:
			if t.val == "->" && x.v != vNull && y.v != vNull {
				c.s.stmt.Rules++ // pmie counts the rule as it builds it
				if c.s.errs > 0 && x.x != nil && y.x == nil {
					// the actions lost a part to the error: pmie builds
					// the rule of what is left, in its recovery
					c.s.stmt.Late = append(c.s.stmt.Late, LateRule{Cond: x.x, At: c.s.scanPos()})
					c.s.stmt.LateDiag = len(c.s.file.Diags)
				}
			}
			x = c.settle(pv{t: op.Result, v: binopValue(t.val, x.v, y.v), x: c.binary(t, x.x, y.x), a: binopAlive(t.val, x, y)})
		}
	}
}

// binary is the node of binary operator t over x and y.
func (c *pmieParser) binary(t token, x, y Expr) Expr {
	if x == nil || y == nil {
		return nil
	}
	l := Loc{Span: Span{Start: x.Where().Span.Start, End: y.Where().Span.End}, From: x.Where().From, Last: y.Where().Last}
	if t.val == "->" {
		return c.built(&Rule{Loc: l, Cond: x, Action: y})
	}
	return c.built(&Binary{Loc: l, Op: binaryOps[t.val], OpPos: c.s.src.Pos(t.start), X: x, Y: y})
}

// built records x, a construct pmie's parser has just completed, in the
// statement's Built if the statement has had no error yet, in place of
// the constructs it is made of, and returns it.
func (c *pmieParser) built(x Expr) Expr {
	if c.s.errs > 0 {
		return x
	}
	b, sp := c.s.stmt.Built, x.Where().Span
	for len(b) > 0 {
		in := b[len(b)-1].Where().Span
		if in.Start.Offset < sp.Start.Offset || in.End.Offset > sp.End.Offset {
			break
		}
		b = b[:len(b)-1]
	}
	c.s.stmt.Built = append(b, x)
	return x
}

// binopValue is what pmie builds for a binary operator.
func binopValue(op string, a, b pval) pval {
	switch op {
	case "->":
		// pmie's rule: the condition alone when the action failed, the
		// action alone when the condition did
		switch {
		case a == vNull:
			return b
		case b == vNull:
			return a
		}
		return vExpr
	case "&", "|":
		if a == vNull {
			return vNull
		}
		return vExpr
	case "&&", "||":
		return leftOnly(a, b)
	}
	return both(a, b)
}

// binopAlive is when pmie made a binary operator of x and y, as
// binopValue decides its value.
func binopAlive(op string, x, y pv) *Alive {
	switch op {
	case "->":
		return anyAlive(x.alive(), y.alive())
	case "&", "|", "&&", "||":
		return x.alive()
	}
	return allAlive(x.alive(), y.alive())
}

// loc is the location of the tokens of the statement from index first to
// the last one consumed.
func (c *pmieParser) loc(first int) Loc {
	f, l := c.toks[first], c.toks[len(c.toks)-1]
	return Loc{Span: c.s.src.Span(f.start, max(l.end, f.start)), From: f.from, Last: l.seq + 1}
}

// unary parses an operand: prefix operators and a primary.
func (c *pmieParser) unary(want Type, pre *token) (pv, bool) {
	if pre != nil {
		return c.fetch(len(c.toks) - 1)
	}
	t := c.peek()
	first := len(c.toks)
	if p := prefixOf(t); p != nil {
		if reach(p.Result)&want == 0 {
			c.fail()
			return pv{}, false
		}
		c.advance()
		var dom token
		if t.kind == tkKeyword && strings.HasSuffix(t.val, "_") {
			dom = c.advance() // the domain token always follows
		}
		x, ok := c.prefixed(p)
		if ok {
			x.x = c.prefixNode(p, first, dom, x.x)
		}
		return c.settle(x), ok
	}
	can := func(t Type) bool { return reach(t)&want != 0 }
	switch {
	case t.kind == tkKeyword && matchOps[t.val] != nil && can(TypeBool):
		return c.match(t.val)
	case t.kind == tkFloat && can(TypeArith):
		c.advance()
		if c.is(tkKeyword, "%_") && can(TypeBool) {
			c.advance()
			dom := c.advance()
			p := prefixOps["%_"]
			x, ok := c.prefixed(p)
			if ok {
				x.x = c.prefixNode(p, first, dom, x.x)
			}
			return c.settle(x), ok
		}
		n, ok := c.number(first)
		return pv{t: TypeArith, v: vConst, x: n}, ok
	case (t.kind == tkName || t.kind == tkQuoted) && can(TypeArith):
		c.advance()
		return c.fetch(first)
	case t.kind == tkVar && can(TypeArith):
		c.advance()
		v := &Var{Loc: c.loc(first), Name: t.val}
		if t.macro != nil && t.macro.kind == macroReserved {
			return pv{t: TypeArith, v: vExpr, x: v}, true
		}
		if t.macro != nil {
			v.Value = t.macro.value
		}
		return pv{t: TypeArith, v: vConst, x: v}, true
	case t.kind == tkString && can(TypeString):
		c.advance()
		return pv{t: TypeString, v: vConst, x: &String{Loc: c.loc(first), Value: t.val}}, true
	case t.kind == tkKeyword && (t.val == "true" || t.val == "false") && can(TypeBool):
		c.advance()
		return pv{t: TypeBool, v: vConst, x: &Bool{Loc: c.loc(first), Value: t.val == "true"}}, true
	case t.kind == tkPunct && t.val == "(" && parenTypes(want) != 0:
		return c.paren(want)
	case t.kind == tkKeyword && t.val == "ruleset" && want&TypeRuleset != 0:
		return c.ruleset()
	case t.kind == tkKeyword && actionOps[t.val] != nil && want&TypeAction != 0:
		return c.action(t.val)
	}
	c.fail()
	return pv{}, false
}

// prefixNode is the node of prefix operator p, written from token index
// first (dom its domain token, if it has one), over x.
func (c *pmieParser) prefixNode(p *Operator, first int, dom token, x Expr) Expr {
	if x == nil {
		return nil
	}
	t := c.toks[first]
	l := Loc{Span: Span{Start: c.s.src.Pos(t.start), End: x.Where().Span.End}, From: t.from, Last: x.Where().Last}
	d := pmieDomains[strings.TrimPrefix(dom.val, "_")]
	switch p.Class {
	case Aggregate:
		return c.built(&Aggr{Loc: l, Op: p.Name, Dom: d, X: x})
	case Quantifier:
		q := &Quant{Loc: l, Op: p.Name, Dom: d, X: x}
		if p.Name == "%" {
			q.Percent = t.num
		}
		return c.built(q)
	}
	return c.built(&Unary{Loc: l, Op: unaryOps[p.Name], X: x})
}

// prefixed parses the operand of prefix operator p (already consumed).
func (c *pmieParser) prefixed(p *Operator) (pv, bool) {
	x, ok, missing := c.operandOf(&rpoint{want: p.Operand, follow: p.follow, reduces: p.reduces}, p.prec)
	switch {
	case !ok:
		return pv{}, false
	case missing:
		return pv{t: p.Result}, true
	}
	return pv{t: p.Result, v: unaryVal(x.v, p.folds), x: x.x, a: x.alive()}, true
}

// operandOf parses the operand of an operator, of a type in rp.want,
// binding with power prec, at recovery point rp: its follow (and after)
// is what pmie says when the operand is missing. missing is set when
// pmie's recovery completed the operator without it.
func (c *pmieParser) operandOf(rp *rpoint, prec int) (x pv, ok, missing bool) {
	c.push(rp)
	x, ok = c.operandAt(rp, rp.want, prec, nil, nil)
	c.pop()
	if !ok && c.mine(rp) {
		return pv{}, true, true
	}
	return x, ok, false
}

// match parses match_inst "re" expr (or nomatch_inst).
func (c *pmieParser) match(word string) (pv, bool) {
	first := len(c.toks)
	c.advance()
	rp := &rpoint{follow: "regular expression", after: word}
	c.push(rp)
	if !c.is(tkString, "") {
		c.fail()
		c.pop()
		return pv{t: TypeBool}, c.mine(rp)
	}
	pat := c.advance()
	c.pop()
	x, ok := c.prefixed(matchOps[word])
	if ok && x.x != nil {
		t := c.toks[first]
		x.x = c.built(&MatchInst{Loc: Loc{Span: Span{Start: c.s.src.Pos(t.start), End: x.x.Where().Span.End}, From: t.from, Last: x.x.Where().Last},
			Negate: word == "nomatch_inst", Pattern: pat.val, PatternSpan: c.s.src.Span(pat.start, max(pat.end, pat.start)), X: x.x})
	}
	return c.settle(x), ok
}

// paren parses a parenthesised expression where want is needed.
func (c *pmieParser) paren(want Type) (pv, bool) {
	first := len(c.toks)
	c.advance()
	inner := parenTypes(want)
	rp := &rpoint{want: inner}
	c.push(rp)
	defer c.pop()
	x, ok := c.operandAt(rp, inner, 0, nil, nil)
	for ok {
		if c.is(tkPunct, ")") {
			c.advance()
			if x.x != nil {
				x.x = c.built(&Paren{Loc: c.loc(first), X: x.x})
			}
			return c.settle(x), true
		}
		c.fail()
		if c.out.kind != outPrecede {
			return pv{}, false
		}
		st := pv{t: c.out.typ}
		c.out = nil
		x, ok = c.operandAt(rp, inner, 0, nil, &st)
	}
	return pv{}, false
}

// ruleset parses "ruleset R else R ... [unknown -> A] [otherwise -> A]".
func (c *pmieParser) ruleset() (pv, bool) {
	first := len(c.toks)
	c.advance()
	rp := &rpoint{want: TypeRule}
	c.push(rp)
	defer c.pop()
	var start *pv
	for {
		rs := &Ruleset{}
		list, ok := c.rules(rp, start, rs)
		if !ok {
			return pv{}, false
		}
		start = nil
		var unknown, otherwise pv
		// Each option's recovery point stays on the stack until both
		// are read: pmie's parser still holds the unknown option's
		// action while it reads an otherwise option (the two are one
		// production), and recovers from an error there as in that
		// action.
		n := len(c.rps)
		if c.is(tkKeyword, "unknown") {
			unknown, ok = c.option()
		}
		if ok && c.is(tkKeyword, "otherwise") {
			otherwise, ok = c.option()
		}
		c.rps = c.rps[:n]
		if ok {
			rs.Unknown, rs.Otherwise = unknown.x, otherwise.x
			// pmie builds a rule of each option's action once the
			// options are complete
			for _, o := range []pv{unknown, otherwise} {
				if o.x != nil && o.v != vNull {
					c.s.stmt.Rules++
				}
			}
			rs.Loc = c.loc(first)
			return pv{t: TypeRuleset, v: unaryVal(list.v, false), x: rs, a: list.alive()}, true
		}
		if c.out.kind != outPrecede || c.out.rp != rp {
			return pv{}, false
		}
		start = &pv{t: c.out.typ}
		c.out = nil
	}
}

// rules parses the rules of a ruleset, from the first (at rp) on, into
// rs, and returns the value of the list (pmie chains the rules right to
// left, each else keeping its left operand).
func (c *pmieParser) rules(rp *rpoint, start *pv, rs *Ruleset) (pv, bool) {
	n := len(c.rps)
	defer func() { c.rps = c.rps[:n] }()
	at := rp
	var vals []pv
	for {
		x, ok := c.operandAt(at, TypeRule, 0, nil, start)
		if !ok {
			return pv{}, false
		}
		vals = append(vals, x)
		// a rule may be parenthesised; the Paren is dropped so that
		// every branch is a *Rule
		if r, ok := Unparen(x.x).(*Rule); ok {
			rs.Rules = append(rs.Rules, r)
		}
		start = nil
		if !c.is(tkKeyword, "else") {
			break
		}
		c.advance()
		at = &rpoint{want: TypeRule}
		c.push(at)
	}
	v := vals[len(vals)-1]
	for i := len(vals) - 2; i >= 0; i-- {
		v = pv{v: leftOnly(vals[i].v, v.v), a: vals[i].alive()}
	}
	return v, true
}

// option parses "unknown -> action" or "otherwise -> action", leaving
// the action's recovery point on the stack for the caller to take off.
func (c *pmieParser) option() (pv, bool) {
	c.advance()
	if !c.is(tkPunct, "->") {
		c.fail()
		return pv{}, false
	}
	c.advance()
	rp := &rpoint{want: TypeAction}
	c.push(rp)
	return c.operandAt(rp, TypeAction, 0, nil, nil)
}

// action parses an action: the word, an optional holdoff time, strings.
func (c *pmieParser) action(word string) (pv, bool) {
	first := len(c.toks)
	c.advance()
	rp := &rpoint{follow: "(time interval optional) and string", after: word}
	c.push(rp)
	defer c.pop()
	failed := pv{t: TypeAction}
	a := &Action{Op: word}
	if c.is(tkFloat, "") {
		c.advance()
		n, ok := c.number(len(c.toks) - 1)
		if !ok {
			return failed, c.mine(rp)
		}
		a.Holdoff = n
	}
	if !c.is(tkString, "") {
		c.fail()
		return failed, c.mine(rp)
	}
	for c.is(tkString, "") {
		s := c.advance()
		a.Args = append(a.Args, &String{Loc: c.loc(len(c.toks) - 1), Value: s.val})
	}
	a.Loc = c.loc(first)
	return c.settle(pv{t: TypeAction, v: vExpr, x: c.built(a)}), true
}

// fetch parses the qualifiers after a metric name, the token at index
// first. pmie builds nothing for a metric once the statement has had an
// error.
func (c *pmieParser) fetch(first int) (pv, bool) {
	m := &Metric{Name: c.toks[first].val}
	done := func() (pv, bool) {
		if c.s.errs > 0 {
			return pv{t: TypeArith}, true
		}
		m.Loc = c.loc(first)
		// pmie looks the metric up now, whatever becomes of the statement
		c.s.stmt.Metrics = append(c.s.stmt.Metrics, m)
		return c.settle(pv{t: TypeArith, v: vExpr, x: m}), true
	}
	for _, q := range []struct {
		op, what string
		to       *[]*Qualifier
	}{{":", "host name", &m.Hosts}, {"#", "instance name", &m.Insts}} {
		for c.is(tkPunct, q.op) {
			c.advance()
			rp := &rpoint{follow: q.what, after: q.op}
			c.push(rp)
			if c.isIdent() {
				t := c.advance()
				*q.to = append(*q.to, &Qualifier{Loc: c.loc(len(c.toks) - 1), Value: t.val, Quoted: t.kind == tkQuoted})
			} else {
				c.fail()
				if !c.mine(rp) {
					c.pop()
					return pv{}, false
				}
			}
			c.pop()
		}
	}
	if !c.is(tkPunct, "@") {
		return done()
	}
	c.advance()
	rp := &rpoint{follow: "sample number(s) expected to follow @"}
	c.push(rp)
	defer c.pop()
	// @N or @N..M; after a bad token the recovery completes the qualifier
	from := len(c.toks)
	for head := true; ; head = false {
		if !c.is(tkFloat, "") {
			c.fail()
			if !c.mine(rp) {
				return pv{}, false
			}
			return done()
		}
		c.advance()
		if !head || !c.is(tkPunct, "..") {
			m.Samples = c.samples(from)
			return done()
		}
		c.advance()
	}
}

// samples is the sample qualifier @N or @N..M whose numbers are the
// tokens from index first. pmie puts the smaller number first.
func (c *pmieParser) samples(first int) *Samples {
	a := sampleNumber(c.toks[first].num)
	b := sampleNumber(c.toks[len(c.toks)-1].num)
	return &Samples{Loc: c.loc(first), From: min(a, b), To: max(a, b), Range: len(c.toks)-1 > first}
}

// sampleNumber is a sample qualifier's number as a C int holds it, those
// beyond its range held at its ends (which are out of the range of sample
// numbers pmie can use anyway).
func sampleNumber(f float64) int {
	return int(max(min(f, math.MaxInt32), math.MinInt32))
}

// number parses the scale factor after the number at token index first.
func (c *pmieParser) number(first int) (*Number, bool) {
	t := c.toks[first]
	n := &Number{Lit: t.val, Kind: FloatNumber, Float: t.num}
	if strings.Trim(t.val, "0123456789") == "" && t.num < 1<<63 {
		n.Kind, n.Int = IntNumber, uint64(t.num)
	}
	sc, ok := c.units()
	n.Scale = sc
	n.Loc = c.loc(first)
	return n, ok
}

// units parses a scale factor, if any.
func (c *pmieParser) units() (*Scale, bool) {
	var sc *Scale
	first := len(c.toks)
	for {
		var term ScaleTerm
		switch {
		case c.is(tkUnit, "/"):
			c.advance()
			if !c.is(tkUnit, "") || c.is(tkUnit, "/") {
				c.fail()
				return nil, false
			}
			term.Per = true
		case c.is(tkUnit, ""):
		default:
			if sc != nil {
				sc.Loc = c.loc(first)
			}
			return sc, true
		}
		term.Word = c.advance().val
		if c.is(tkPunct, "^") {
			c.advance()
			if !c.is(tkFloat, "") {
				c.fail()
				return nil, false
			}
			term.Raised, term.Power = true, int(c.advance().num)
		}
		if sc == nil {
			sc = &Scale{}
		}
		sc.add(term)
	}
}

// add adds a term to a scale factor, computing its dimensions as pmie's
// grammar does (see Scale). pmie keeps dimensions in 4-bit signed fields.
func (sc *Scale) add(term ScaleTerm) {
	w := unitWords[strings.TrimSuffix(term.Word, "s")]
	dims := [3]int{}
	dims[w[0]] = 1
	if term.Raised {
		dims[w[0]] = term.Power
	}
	for i := range dims {
		dims[i] = int(int8(dims[i]<<4) >> 4)
		if term.Per {
			dims[i] = int(int8(-dims[i]<<4) >> 4)
		}
	}
	scales := [3]int{}
	scales[w[0]] = w[1]
	sc.Terms = append(sc.Terms, term)
	switch {
	case dims[0] != 0:
		sc.DimSpace, sc.ScaleSpace = dims[0], scales[0]
	case dims[1] != 0:
		sc.DimTime, sc.ScaleTime = dims[1], scales[1]
	default:
		sc.DimCount, sc.ScaleCount = dims[2], scales[2]
	}
}
