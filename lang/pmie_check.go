package lang

import "strings"

// pmieChecker decides whether a pmie statement is legal and, when it is
// not, reports and recovers as pmie 6.0.3 does. It is a recursive descent
// parser with typed precedence climbing (pmie_types.go) that models pmie's
// parser closely enough to reproduce its error handling:
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
// The statement is dropped whenever an error was found.

// rpoint is a recovery point: a place expecting an operand of a type in
// want (0 when it expects a particular token), and the message pmie gives
// when the construct owning it cannot go on ("" if none).
type rpoint struct {
	want   Type
	follow string
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

// pv is a parsed piece: its type and its value.
type pv struct {
	t Type
	v pval
}

type pmieChecker struct {
	s         *pmieSession
	look      token
	have      bool
	toks      []token // tokens of the statement, for the tree builder
	rps       []*rpoint
	out       *outcome
	errstatus int  // tokens pmie still has to shift before it reports a new error
	failed    bool // an error was found
	// reduced is called when pmie would reduce the whole statement, with
	// its name, value, type and the tokens up to there.
	reduced func(name *token, x pv, toks []token)
}

func (c *pmieChecker) peek() token {
	if !c.have {
		c.look = c.s.lx.next()
		c.have = true
	}
	return c.look
}

// advance consumes the lookahead.
func (c *pmieChecker) advance() token {
	t := c.peek()
	c.have = false
	c.toks = append(c.toks, t)
	if c.errstatus > 0 {
		c.errstatus--
	}
	return t
}

func (c *pmieChecker) is(kind tokKind, val string) bool {
	t := c.peek()
	return t.kind == kind && (val == "" || t.val == val)
}

func (c *pmieChecker) isIdent() bool {
	t := c.peek()
	return t.kind == tkName || t.kind == tkQuoted
}

func (c *pmieChecker) push(rp *rpoint) { c.rps = append(c.rps, rp) }
func (c *pmieChecker) pop()            { c.rps = c.rps[:len(c.rps)-1] }

// mine reports whether the pending outcome is a follow at rp, and takes it.
func (c *pmieChecker) mine(rp *rpoint) bool {
	if c.out != nil && c.out.rp == rp && c.out.kind == outFollow {
		c.out = nil
		return true
	}
	return false
}

// fail reports a syntax error at the lookahead and recovers at the
// innermost recovery point, leaving the outcome in c.out.
func (c *pmieChecker) fail() {
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
			if rp.want != 0 && precedeOK(op, rp.want) {
				c.advance()
				c.s.gramerr(t, precedeMessage(op))
				c.out = &outcome{kind: outPrecede, rp: rp, typ: precedeResult(op)}
				return
			}
		}
		if rp.follow != "" {
			c.s.gramerr(t, rp.follow)
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
func (c *pmieChecker) statement() {
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
		st := pv{c.out.typ, vNull}
		c.out = nil
		x, ok = c.operandAt(rp, typeAny, 0, nil, &st)
	}
}

// operandAt parses an operand at recovery point rp (already pushed), of a
// type in want, inside a construct that binds with power prec. pre is an
// identifier already consumed; start, when set, is an operand pmie's
// recovery put there, to continue from.
func (c *pmieChecker) operandAt(rp *rpoint, want Type, prec int, pre *token, start *pv) (pv, bool) {
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
			x, c.out = pv{c.out.typ, vNull}, nil
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
func (c *pmieChecker) climb(x pv, want Type, prec int) (pv, bool) {
	for {
		t := c.peek()
		op := binopOf(t)
		if op == nil || !pmieShift(op, x.t, want, prec) {
			return x, true
		}
		c.advance()
		rp := &rpoint{want: op.Operand, follow: op.follow + " expected to follow " + t.val}
		c.push(rp)
		y, ok := c.operandAt(rp, op.Operand, op.prec, nil, nil)
		c.pop()
		if !ok {
			if !c.mine(rp) {
				return pv{}, false
			}
			x = pv{op.Result, vNull}
			continue
		}
		x = pv{op.Result, binopValue(t.val, x.v, y.v)}
	}
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

// unary parses an operand: prefix operators and a primary.
func (c *pmieChecker) unary(want Type, pre *token) (pv, bool) {
	if pre != nil {
		return c.fetch()
	}
	t := c.peek()
	if p := prefixOf(t); p != nil {
		if reach(p.Result)&want == 0 {
			c.fail()
			return pv{}, false
		}
		c.advance()
		if t.kind == tkKeyword && strings.HasSuffix(t.val, "_") {
			c.advance() // the domain token always follows
		}
		return c.prefixed(p)
	}
	can := func(t Type) bool { return reach(t)&want != 0 }
	switch {
	case t.kind == tkKeyword && (t.val == "match_inst" || t.val == "nomatch_inst") && can(TypeBool):
		return c.match(t.val)
	case t.kind == tkFloat && can(TypeArith):
		c.advance()
		if c.is(tkKeyword, "%_") && can(TypeBool) {
			c.advance()
			c.advance() // domain
			return c.prefixed(prefixOps["%_"])
		}
		return pv{TypeArith, vConst}, c.units()
	case (t.kind == tkName || t.kind == tkQuoted) && can(TypeArith):
		c.advance()
		return c.fetch()
	case t.kind == tkVar && can(TypeArith):
		c.advance()
		if t.macro != nil && t.macro.kind == macroReserved {
			return pv{TypeArith, vExpr}, true
		}
		return pv{TypeArith, vConst}, true
	case t.kind == tkString && can(TypeString):
		c.advance()
		return pv{TypeString, vConst}, true
	case t.kind == tkKeyword && (t.val == "true" || t.val == "false") && can(TypeBool):
		c.advance()
		return pv{TypeBool, vConst}, true
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

// prefixed parses the operand of prefix operator p (already consumed).
func (c *pmieChecker) prefixed(p *Operator) (pv, bool) {
	rp := &rpoint{want: p.Operand, follow: p.follow}
	c.push(rp)
	x, ok := c.operandAt(rp, p.Operand, p.prec, nil, nil)
	c.pop()
	if !ok {
		if !c.mine(rp) {
			return pv{}, false
		}
		return pv{p.Result, vNull}, true
	}
	return pv{p.Result, unaryVal(x.v, p.folds)}, true
}

// match parses match_inst "re" expr (or nomatch_inst).
func (c *pmieChecker) match(word string) (pv, bool) {
	c.advance()
	rp := &rpoint{follow: "regular expression expected to follow " + word}
	c.push(rp)
	if !c.is(tkString, "") {
		c.fail()
		c.pop()
		return pv{TypeBool, vNull}, c.mine(rp)
	}
	c.advance()
	c.pop()
	x, ok := c.prefixed(matchOps[word])
	return x, ok
}

// paren parses a parenthesised expression where want is needed.
func (c *pmieChecker) paren(want Type) (pv, bool) {
	c.advance()
	inner := parenTypes(want)
	rp := &rpoint{want: inner}
	c.push(rp)
	defer c.pop()
	x, ok := c.operandAt(rp, inner, 0, nil, nil)
	for ok {
		if c.is(tkPunct, ")") {
			c.advance()
			return x, true
		}
		c.fail()
		if c.out.kind != outPrecede {
			return pv{}, false
		}
		st := pv{c.out.typ, vNull}
		c.out = nil
		x, ok = c.operandAt(rp, inner, 0, nil, &st)
	}
	return pv{}, false
}

// ruleset parses "ruleset R else R ... [unknown -> A] [otherwise -> A]".
func (c *pmieChecker) ruleset() (pv, bool) {
	c.advance()
	rp := &rpoint{want: TypeRule}
	c.push(rp)
	defer c.pop()
	var start *pv
	for {
		list, ok := c.rules(rp, start)
		if !ok {
			return pv{}, false
		}
		start = nil
		if c.is(tkKeyword, "unknown") {
			ok = c.option()
		}
		if ok && c.is(tkKeyword, "otherwise") {
			ok = c.option()
		}
		if ok {
			return pv{TypeRuleset, unaryVal(list, false)}, true
		}
		if c.out.kind != outPrecede || c.out.rp != rp {
			return pv{}, false
		}
		start = &pv{c.out.typ, vNull}
		c.out = nil
	}
}

// rules parses the rules of a ruleset, from the first (at rp) on, and
// returns the value of the list (pmie chains the rules right to left).
func (c *pmieChecker) rules(rp *rpoint, start *pv) (pval, bool) {
	n := len(c.rps)
	defer func() { c.rps = c.rps[:n] }()
	at := rp
	var vals []pval
	for {
		x, ok := c.operandAt(at, TypeRule, 0, nil, start)
		if !ok {
			return vNull, false
		}
		vals = append(vals, x.v)
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
		v = leftOnly(vals[i], v)
	}
	return v, true
}

// option parses "unknown -> action" or "otherwise -> action".
func (c *pmieChecker) option() bool {
	c.advance()
	if !c.is(tkPunct, "->") {
		c.fail()
		return false
	}
	c.advance()
	rp := &rpoint{want: TypeAction}
	c.push(rp)
	defer c.pop()
	_, ok := c.operandAt(rp, TypeAction, 0, nil, nil)
	return ok
}

// action parses an action: the word, an optional holdoff time, strings.
func (c *pmieChecker) action(word string) (pv, bool) {
	c.advance()
	rp := &rpoint{follow: "(time interval optional) and string expected to follow " + word}
	c.push(rp)
	defer c.pop()
	failed := pv{TypeAction, vNull}
	if c.is(tkFloat, "") {
		c.advance()
		if !c.units() {
			return failed, c.mine(rp)
		}
	}
	if !c.is(tkString, "") {
		c.fail()
		return failed, c.mine(rp)
	}
	for c.is(tkString, "") {
		c.advance()
	}
	return pv{TypeAction, vExpr}, true
}

// fetch parses the qualifiers after a metric name. pmie builds nothing
// for a metric once the statement has had an error.
func (c *pmieChecker) fetch() (pv, bool) {
	done := func() (pv, bool) {
		if c.s.errs > 0 {
			return pv{TypeArith, vNull}, true
		}
		return pv{TypeArith, vExpr}, true
	}
	for _, q := range []struct{ op, what string }{{":", "host name"}, {"#", "instance name"}} {
		for c.is(tkPunct, q.op) {
			c.advance()
			rp := &rpoint{follow: q.what + " expected to follow " + q.op}
			c.push(rp)
			if c.isIdent() {
				c.advance()
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
	for first := true; ; first = false {
		if !c.is(tkFloat, "") {
			c.fail()
			if !c.mine(rp) {
				return pv{}, false
			}
			return done()
		}
		c.advance()
		if !first || !c.is(tkPunct, "..") {
			return done()
		}
		c.advance()
	}
}

// units parses the scale factor after a number.
func (c *pmieChecker) units() bool {
	for {
		switch {
		case c.is(tkUnit, "/"):
			c.advance()
			if !c.is(tkUnit, "") || c.is(tkUnit, "/") {
				c.fail()
				return false
			}
		case c.is(tkUnit, ""):
		default:
			return true
		}
		c.advance()
		if c.is(tkPunct, "^") {
			c.advance()
			if !c.is(tkFloat, "") {
				c.fail()
				return false
			}
			c.advance()
		}
	}
}
