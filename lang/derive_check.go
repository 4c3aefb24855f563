package lang

// derivedChecker decides whether a derived-metric expression is legal, and
// when it is not, where and how libpcp 6.0.3 reports it. It is a recursive
// descent parser with precedence climbing that keeps a stack of the
// constructs it is inside ("frames"). libpcp's parser stops at the first
// token that cannot continue the expression; it then reports the innermost
// enclosing construct that has an error message of its own at the point
// reached, or no reason at all when none has. The frames model exactly
// that. The checker also collects the tokens, which the participle grammar
// then turns into the syntax tree.

// Binding powers, lowest first, as libpcp's grammar declares them.
const (
	precTernary = 1 // ?: (left associative)
	precBool    = 2 // && ||
	precNot     = 3 // prefix !, binding looser than relational operators
	precRel     = 4 // < <= == >= > !=
	precAdd     = 5 // + - and prefix -
	precMul     = 6 // * /
)

var derivedBinPrec = map[string]int{
	"?": precTernary, "&&": precBool, "||": precBool,
	"<": precRel, "<=": precRel, "==": precRel, ">=": precRel, ">": precRel, "!=": precRel,
	"+": precAdd, "-": precAdd, "*": precMul, "/": precMul,
}

// derivedOpName is libpcp's name for each operator in its messages.
var derivedOpName = map[string]string{
	"+": "PLUS", "-": "MINUS", "*": "STAR", "/": "SLASH", "<": "LT", "<=": "LEQ", "==": "EQ",
	">=": "GEQ", ">": "GT", "!=": "NEQ", "&&": "AND", "||": "OR", "?": "QUEST", ":": "COLON",
	"neg": "NEG", "!": "NOT",
}

// derivedFollowName are the tokens libpcp lets follow a metric name without
// complaining "operator expected" at once.
var derivedFollowName = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "<": true, "<=": true, "==": true, ">=": true,
	">": true, "!=": true, "&&": true, "||": true, "?": true, ":": true, "(": true, ")": true, ",": true,
}

// derivedInitialOps are the tokens libpcp reports as "Unexpected initial"
// when an expression starts with them.
var derivedInitialOps = map[string]bool{
	"+": true, "*": true, "/": true, ")": true, "<": true, "<=": true, "==": true, ">=": true,
	">": true, "!=": true, "&&": true, "||": true, "?": true, ":": true,
}

// nameArgFuncs take a single metric name; the value is the message libpcp
// gives when something else is there ("" when it gives none).
var nameArgFuncs = map[string]string{
	"avg": "Metric name expected to follow avg(", "count": "Metric name expected to follow count(",
	"delta": "Metric name expected to follow delta(", "max": "Metric name expected to follow max(",
	"min": "Metric name expected to follow min(", "sum": "Metric name expected to follow sum(",
	"rate": "Metric name expected to follow rate(", "instant": "Metric name expected to follow instant(",
	"anon": "Metric name expected to follow anon(", "defined": "",
}

type frameKind uint8

const (
	frBinary    frameKind = iota // after a binary operator, parsing its right operand
	frPrefix                     // after prefix - or !, parsing its operand
	frTernary                    // after ? (stage 0) or : (stage 1)
	frParen                      // inside ( ); top says it is the expression's first token
	frNameArg                    // avg( count( ... awaiting a metric name and )
	frRescale                    // rescale( expr (stage 0) , "units" ) (stage 1)
	frMatchinst                  // matchinst( filter (0) , (1) expr ) (2)
	frScalar                     // scalar( expr )
	frMkconst                    // mkconst( ... )
)

type frame struct {
	kind  frameKind
	op    string // operator or function name
	stage int
	top   bool
}

// message is libpcp's complaint for an error inside f, or "".
func (f frame) message() string {
	switch f.kind {
	case frBinary:
		if f.op == "&&" || f.op == "||" {
			return "Boolean expression expected to follow " + derivedOpName[f.op]
		}
		return "Arithmetic expression expected to follow " + derivedOpName[f.op]
	case frPrefix:
		if f.op == "!" {
			return "Boolean expression expected to follow NOT"
		}
		return "Arithmetic expression expected to follow NEG"
	case frTernary:
		if f.stage == 0 {
			return "Arithmetic expression expected to follow QUEST"
		}
		return "Arithmetic expression expected to follow COLON"
	case frParen:
		if f.top {
			return "Unexpected initial '('"
		}
	case frNameArg:
		return nameArgFuncs[f.op]
	case frRescale:
		if f.stage == 0 {
			return "Arithmetic or relational or boolean operator expected to follow rescale("
		}
		return "Units string expected to follow rescale(<expr>,"
	case frMatchinst:
		return [...]string{"<filter>, <expr>) expected to follow matchinst(",
			", <expr>) expected to follow matchinst(<filter>",
			"<expr>) expected to follow matchinst(<filter>,"}[f.stage]
	case frScalar:
		return "<expr> expected to follow scalar("
	}
	return ""
}

// CheckKind says which value a Checker is asked about.
type CheckKind uint8

// The values libpcp checks while it parses, in the order it meets them.
const (
	CheckType      CheckKind = iota // mkconst type=VALUE, at the value
	CheckSemantics                  // mkconst semantics=VALUE, at the value
	CheckUnits                      // mkconst units=VALUE, at the value
	CheckMkConst                    // end of mkconst: Value is the last type= value ("" if none), at ")"
	CheckRescale                    // rescale(x, "UNITS"), at the closing ")"
	CheckPattern                    // matchinst(/PATTERN/, x), at the pattern
)

// Check describes one value libpcp checks during parsing.
type Check struct {
	Kind  CheckKind
	Value string
	Float bool // CheckMkConst: the constant has a decimal point
}

// Checker inspects values that libpcp checks while parsing (mkconst
// parameters, rescale units, matchinst patterns), which need knowledge of
// units, types and regular expressions that lang does not have. It returns
// libpcp's reason when the value is bad, and "" when it is fine. A failed
// check stops the parse there, as it does in libpcp.
type Checker func(Check) string

// derivedFail is how the checker stops: the error token and the reason.
type derivedFail struct {
	tok    token
	reason string // libpcp's reason; "" when it gives none
}

type derivedChecker struct {
	lookahead
	lx     derivedLexer
	frames []frame
	check  Checker
	fail   *derivedFail
}

func (c *derivedChecker) advance() token { return c.take() }

func (c *derivedChecker) is(kind tokKind, val string) bool {
	t := c.peek()
	return t.kind == kind && (val == "" || t.val == val)
}

// failAt stops the parse at t with reason; a scanner error token keeps the
// scanner's own reason, as in libpcp.
func (c *derivedChecker) failAt(t token, reason string) {
	if c.fail != nil {
		return
	}
	if t.kind == tkError {
		reason = t.err
	}
	c.fail = &derivedFail{tok: t, reason: reason}
}

// failHere stops at the current token with the innermost frame's message.
func (c *derivedChecker) failHere() {
	reason := ""
	for i := len(c.frames) - 1; i >= 0 && reason == ""; i-- {
		reason = c.frames[i].message()
	}
	c.failAt(c.peek(), reason)
}

// expect consumes a token of the given kind (and value, if not "").
func (c *derivedChecker) expect(kind tokKind, val string) (token, bool) {
	if c.fail != nil {
		return token{}, false
	}
	if !c.is(kind, val) {
		c.failHere()
		return token{}, false
	}
	return c.advance(), true
}

// push enters a construct and returns its index in c.frames.
func (c *derivedChecker) push(f frame) int {
	c.frames = append(c.frames, f)
	return len(c.frames) - 1
}

func (c *derivedChecker) pop() { c.frames = c.frames[:len(c.frames)-1] }

func (c *derivedChecker) runCheck(at token, k Check) {
	if c.fail != nil || c.check == nil {
		return
	}
	if reason := c.check(k); reason != "" {
		c.fail = &derivedFail{tok: at, reason: reason}
	}
}

// top parses a whole expression.
func (c *derivedChecker) top() {
	t := c.peek()
	if t.kind == tkPunct && derivedInitialOps[t.val] {
		c.advance()
		c.failAt(c.peek(), "Unexpected initial '"+t.val+"'")
		return
	}
	c.expr(0)
	if c.fail != nil {
		return
	}
	t = c.peek()
	switch {
	case t.kind == tkEOF:
	case t.kind == tkPunct && (t.val == "(" || t.val == ")"):
		c.advance()
		c.failAt(c.peek(), "Unexpected '"+t.val+"'")
	default:
		c.failHere()
	}
}

// expr parses operands joined by binary operators of at least minPrec.
func (c *derivedChecker) expr(minPrec int) {
	if c.fail != nil {
		return
	}
	c.operand()
	for c.fail == nil {
		t := c.peek()
		prec, ok := derivedBinPrec[t.val]
		if t.kind != tkPunct || !ok || prec < minPrec {
			return
		}
		c.advance()
		if t.val == "?" {
			f := c.push(frame{kind: frTernary})
			c.expr(0)
			if _, ok := c.expect(tkPunct, ":"); ok {
				c.frames[f].stage = 1
				c.expr(prec + 1)
			}
		} else {
			c.push(frame{kind: frBinary, op: t.val})
			c.expr(prec + 1)
		}
		c.pop()
	}
}

func (c *derivedChecker) operand() {
	t := c.peek()
	if t.kind == tkPunct && (t.val == "-" || t.val == "!") {
		c.advance()
		prec := precNot + 1
		if t.val == "-" {
			prec = precMul
		}
		c.push(frame{kind: frPrefix, op: t.val})
		c.expr(prec)
		c.pop()
		return
	}
	c.primary()
}

func (c *derivedChecker) primary() {
	t := c.peek()
	switch {
	case t.kind == tkName:
		c.advance()
		n := c.peek()
		if n.kind == tkInstName {
			c.advance()
		} else if n.kind != tkEOF && !(n.kind == tkPunct && derivedFollowName[n.val]) {
			c.failAt(n, "Arithmetic or relational or boolean operator expected to follow NAME")
		}
	case t.kind == tkInt || t.kind == tkFloat:
		c.advance()
	case t.kind == tkPunct && t.val == "(":
		c.advance()
		c.push(frame{kind: frParen, top: len(c.toks) == 1})
		c.expr(0)
		c.expect(tkPunct, ")")
		c.pop()
		if c.fail == nil && c.is(tkInstName, "") {
			c.advance()
		}
	case t.kind == tkFunc:
		c.call()
	default:
		c.failHere()
	}
}

// call parses a function call; the scanner guarantees "(" follows.
func (c *derivedChecker) call() {
	fn := c.advance().val
	c.advance()
	switch fn {
	case "rescale":
		c.rescale()
	case "matchinst":
		c.matchinst()
	case "scalar":
		c.push(frame{kind: frScalar})
		c.expr(0)
		c.expect(tkPunct, ")")
		c.pop()
	case "mkconst":
		c.mkconst()
	default:
		c.push(frame{kind: frNameArg, op: fn})
		c.expect(tkName, "")
		c.expect(tkPunct, ")")
		c.pop()
	}
}

func (c *derivedChecker) rescale() {
	f := c.push(frame{kind: frRescale})
	c.expr(0)
	c.expect(tkPunct, ",")
	c.frames[f].stage = 1
	units, _ := c.expect(tkString, "")
	rp, ok := c.expect(tkPunct, ")")
	c.pop()
	if ok {
		c.runCheck(rp, Check{Kind: CheckRescale, Value: units.val})
	}
}

func (c *derivedChecker) matchinst() {
	f := c.push(frame{kind: frMatchinst})
	if c.is(tkPunct, "!") {
		c.advance()
	}
	if pat, ok := c.expect(tkPattern, ""); ok {
		c.runCheck(pat, Check{Kind: CheckPattern, Value: pat.val})
	}
	if c.fail == nil {
		c.frames[f].stage = 1
	}
	c.expect(tkPunct, ",")
	if c.fail == nil {
		c.frames[f].stage = 2
	}
	c.expr(0)
	c.expect(tkPunct, ")")
	c.pop()
	if c.fail == nil {
		*c.lx.inMatchinst = false
	}
}

func (c *derivedChecker) mkconst() {
	c.push(frame{kind: frMkconst})
	defer c.pop()
	val := c.peek()
	if val.kind != tkInt && val.kind != tkFloat {
		c.failHere()
		return
	}
	c.advance()
	c.expect(tkPunct, ",")
	typ := ""
	for c.fail == nil {
		tag, _ := c.expect(tkKeyword, "")
		c.expect(tkPunct, "=")
		v := c.peek()
		if c.fail == nil && v.kind != tkString && v.kind != tkName && v.kind != tkInt {
			c.failHere()
		}
		if c.fail != nil {
			return
		}
		c.advance()
		kind := map[string]CheckKind{"type": CheckType, "semantics": CheckSemantics, "units": CheckUnits}[tag.val]
		if kind == CheckType {
			typ = v.val
		}
		c.runCheck(v, Check{Kind: kind, Value: v.val})
		if c.fail != nil || !c.is(tkPunct, ",") {
			break
		}
		c.advance()
	}
	if rp, ok := c.expect(tkPunct, ")"); ok {
		c.runCheck(rp, Check{Kind: CheckMkConst, Value: typ, Float: val.kind == tkFloat})
	}
}
