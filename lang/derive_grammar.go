package lang

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar of derived-metric expressions. Operators are
// captured flat (operand, operator, operand, ...) and folded into a tree by
// precedence climbing in derivedBuilder; prefix operators stay attached to
// their operand until then, because "!" binds looser than the relational
// operators that follow it. The grammar accepts a little more than libpcp
// does (any function may take any arguments); derivedChecker decides what
// is legal before this grammar runs.
//
// Every global derived metric is parsed when a command starts, so how
// participle is used is shaped for cost (participle allocates for every
// alternative, repetition and capture it enters, and its Build lexes every
// field's tag several times):
//
//   - the tokens it sees say what they are (derivedKinds): a binary
//     operator, a prefix operator, mkconst or matchinst, another function,
//     so that each alternative fails at its first token;
//   - the structs hold structure only, in five fields: which alternative
//     an operand is, and what an operator, name, number or string is, are
//     read from the tokens. Only an operand records its tokens; each token
//     participle sees carries as its offset its index among the checker's
//     tokens, and every value and position comes from those (the shape of
//     each construct is fixed, see derivedBuilder);
//   - so what participle gives back depends only on the shape of the token
//     list (each token's kind, and the text of punctuation), and
//     derivedStructure parses each shape once per process: PCP's 62 global
//     derived metrics have 14 shapes.

// derivedExpr is operands joined by operators: Head, then each of Ys. The
// operators are read from the tokens; each "?" among them takes the next
// of Mids as the expression between "?" and ":".
type derivedExpr struct {
	Head *derivedOperand   `parser:"@@"`
	Mids []*derivedExpr    `parser:"( ( BinOp | '?':Punct @@ ':':Punct )"`
	Ys   []*derivedOperand `parser:"@@ )*"`
}

// derivedOperand is a primary and perhaps an instance, or a prefix
// operator and the operand it applies to (Operand). Its first token says
// which: a name, number or string; a function (Sub holds the arguments),
// mkconst, "(" (Sub holds the expression) or matchinst (Sub holds the
// expression matched); or a prefix operator. Everything else is read from
// the tokens.
type derivedOperand struct {
	Tokens []lexer.Token

	Sub     []*derivedExpr  `parser:"( ( Name | Int | String | Float ) | Func '(':Punct @@ ( ',':Punct @@ )* ')':Punct | MkConst '(':Punct ( Int | Float ) ( ',':Punct Keyword '=':Punct ( String | Name | Int ) )+ ')':Punct | '(':Punct @@ ')':Punct | MatchInst '(':Punct Prefix? Pattern ',':Punct @@ ')':Punct"`
	Operand *derivedOperand `parser:"| Prefix @@ ) InstName?"`
}

// derivedKinds calls f with the index of each token of ts, up to any
// end-of-input token, and the kind participle sees for it: "-" is a prefix
// operator unless it follows an operand (a name, number, string, instance
// or ")"), "!" always is one, and mkconst and matchinst have kinds of
// their own among the functions.
func derivedKinds(ts []token, f func(i int, k tokKind)) {
	afterOperand := false
	for i, t := range ts {
		k := t.kind
		switch {
		case k == tkEOF:
			return
		case k == tkPunct && (t.val == "!" || t.val == "-" && !afterOperand):
			k = tkPrefix
		case k == tkPunct && t.val != "?" && derivedBinPrec[t.val] != 0:
			k = tkBinOp
		case k == tkFunc && t.val == "mkconst":
			k = tkMkConst
		case k == tkFunc && t.val == "matchinst":
			k = tkMatchInst
		}
		switch k {
		case tkName, tkInt, tkFloat, tkString, tkInstName:
			afterOperand = true
		default:
			afterOperand = k == tkPunct && t.val == ")"
		}
		f(i, k)
	}
}

// derivedShape appends to key the shape of ts: the kind of each token as
// participle sees it, with the text of punctuation, which the grammar
// matches (it matches every other token by its kind alone).
func derivedShape(key []byte, ts []token) []byte {
	derivedKinds(ts, func(i int, k tokKind) {
		key = append(key, byte(k))
		if k == tkPunct {
			key = append(append(key, ts[i].val...), 0)
		}
	})
	return key
}

// derivedTokens gives participle the tokens of ts, each with its kind from
// derivedKinds and its index in ts as its offset.
func derivedTokens(ts []token) []lexer.Token {
	out := make([]lexer.Token, 0, len(ts)+1)
	derivedKinds(ts, func(i int, k tokKind) {
		out = append(out, lexer.Token{Type: lexer.TokenType(k), Value: ts[i].val, Pos: lexer.Position{Offset: i, Line: 1, Column: i + 1}})
	})
	n := len(out)
	return append(out, lexer.EOFToken(lexer.Position{Offset: n, Line: 1, Column: n + 1}))
}

// derivedParser is built on first use: package variables such as the token
// symbol table must be initialised first.
var derivedParser = sync.OnceValue(func() *participle.Parser[derivedExpr] {
	return participle.MustBuild[derivedExpr](participle.Lexer(tokenDef{}), participle.UseLookahead(2))
})

// maxShapes bounds the shapes derivedStructure remembers.
const maxShapes = 512

// shapes holds what participle made of each shape of token list parsed so
// far. The structures are never changed once made, so any goroutine may
// build from them.
var shapes struct {
	sync.Mutex
	m   map[string]*derivedExpr
	key []byte
}

// derivedStructure is participle's parse of the checker's tokens ts, made
// once for each shape of token list.
func derivedStructure(ts []token) (*derivedExpr, error) {
	shapes.Lock()
	shapes.key = derivedShape(shapes.key[:0], ts)
	root := shapes.m[string(shapes.key)]
	shapes.Unlock()
	if root != nil {
		return root, nil
	}
	root, err := derivedParser().ParseFromLexer(mustUpgrade(derivedTokens(ts)))
	if err != nil {
		return nil, err
	}
	shapes.Lock()
	defer shapes.Unlock()
	if shapes.m == nil {
		shapes.m = map[string]*derivedExpr{}
	}
	if len(shapes.m) < maxShapes {
		shapes.m[string(derivedShape(shapes.key[:0], ts))] = root
	}
	return root, nil
}

// derivedBuilder turns the grammar structs into the syntax tree. It takes
// every value and position from the checker's tokens, by the index each
// token participle gives back carries as its offset: the structs may have
// been made from another token list of the same shape.
type derivedBuilder struct {
	src  *Source
	base int     // offset of the expression in src.Text
	toks []token // the checker's tokens, in order
}

// tok is the checker's token that participle gave back as t.
func (b *derivedBuilder) tok(t lexer.Token) token { return b.toks[t.Pos.Offset] }

func (b *derivedBuilder) loc(start, end int) Loc {
	return Loc{Span: b.src.Span(b.base+start, b.base+end)}
}

// tokLoc spans the tokens from first to last.
func (b *derivedBuilder) tokLoc(first, last lexer.Token) Loc {
	return b.loc(b.tok(first).start, b.tok(last).end)
}

func (b *derivedBuilder) spanOf(ts []lexer.Token) Loc {
	return b.tokLoc(ts[0], ts[len(ts)-1])
}

// pos is the position of t's first character.
func (b *derivedBuilder) pos(t lexer.Token) Pos { return b.src.Pos(b.base + b.tok(t).start) }

func span(a, z Node) Loc {
	return Loc{Span: Span{Start: a.Where().Span.Start, End: z.Where().Span.End}}
}

// climber folds one flat derivedExpr by precedence climbing.
type climber struct {
	b   *derivedBuilder
	e   *derivedExpr
	k   int             // operand being parsed: Head, then Ys[k-1]
	cur *derivedOperand // what is left of it (below prefixes already used)
	mid int             // the next of e.Mids
}

func (b *derivedBuilder) expr(e *derivedExpr) Expr {
	c := climber{b: b, e: e, cur: e.Head}
	return c.parse(0)
}

// operand is operand k: e.Head, then e.Ys.
func (c *climber) operand(k int) *derivedOperand {
	if k == 0 {
		return c.e.Head
	}
	return c.e.Ys[k-1]
}

func (c *climber) parse(minPrec int) Expr {
	lhs := c.unary()
	for c.k < len(c.e.Ys) {
		// the operator is the token after its left operand's last
		left := c.operand(c.k).Tokens
		opTok := c.b.toks[left[len(left)-1].Pos.Offset+1]
		prec := derivedBinPrec[opTok.val]
		if prec < minPrec {
			break
		}
		c.k++
		c.cur = c.operand(c.k)
		if opTok.val == "?" {
			mid := c.b.expr(c.e.Mids[c.mid])
			c.mid++
			rhs := c.parse(prec + 1)
			lhs = &Ternary{Loc: span(lhs, rhs), Cond: lhs, Then: mid, Else: rhs}
			continue
		}
		rhs := c.parse(prec + 1)
		lhs = &Binary{Loc: span(lhs, rhs), Op: binaryOps[opTok.val], OpPos: c.b.src.Pos(c.b.base + opTok.start), X: lhs, Y: rhs}
	}
	return lhs
}

var binaryOps = map[string]BinaryOp{
	"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "<": OpLT, "<=": OpLE, "==": OpEQ,
	">=": OpGE, ">": OpGT, "!=": OpNE, "&&": OpAnd, "||": OpOr, "&": OpSeq, "|": OpAlt,
}

func (c *climber) unary() Expr {
	o := c.cur
	first := c.b.tok(o.Tokens[0])
	if o.Operand != nil {
		op, prec := OpNot, precNot+1
		if first.val == "-" {
			op, prec = OpNeg, precMul
		}
		c.cur = o.Operand
		x := c.parse(prec)
		return &Unary{Loc: Loc{Span: Span{Start: c.b.tokLoc(o.Tokens[0], o.Tokens[0]).Span.Start, End: x.Where().Span.End}}, Op: op, X: x}
	}
	prim := o.Tokens
	it := prim[len(prim)-1]
	hasInst := c.b.tok(it).kind == tkInstName
	if hasInst {
		prim = prim[:len(prim)-1]
	}
	x := c.b.primary(o, prim, first)
	if hasInst {
		l := c.b.tokLoc(it, it)
		x = &InstSelect{Loc: Loc{Span: Span{Start: x.Where().Span.Start, End: l.Span.End}}, X: x, Inst: c.b.tok(it).val, InstSpan: l.Span}
	}
	return x
}

// primary builds the primary of operand o, whose tokens are ts, the first
// of them first.
func (b *derivedBuilder) primary(o *derivedOperand, ts []lexer.Token, first token) Expr {
	l := b.spanOf(ts)
	switch {
	case first.kind == tkName:
		return &Metric{Loc: l, Name: first.val}
	case first.kind == tkString:
		return &String{Loc: l, Value: first.val}
	case first.kind == tkInt || first.kind == tkFloat:
		return numberNode(l, first)
	case first.kind == tkPunct: // "("
		return &Paren{Loc: l, X: b.expr(o.Sub[0])}
	case first.val == "mkconst":
		return b.mkconst(ts, l)
	case first.val == "matchinst":
		pt := ts[2] // matchinst ( [!] /pattern/
		negate := b.tok(pt).kind == tkPunct
		if negate {
			pt = ts[3]
		}
		return &MatchInst{Loc: l, Negate: negate, Pattern: b.tok(pt).val, PatternSpan: b.tokLoc(pt, pt).Span, X: b.expr(o.Sub[0])}
	case first.kind == tkFunc:
		call := &Call{Loc: l, Func: first.val, FuncSpan: b.tokLoc(ts[0], ts[0]).Span, Rparen: b.pos(ts[len(ts)-1]),
			Args: make([]Expr, len(o.Sub))}
		for i, a := range o.Sub {
			call.Args[i] = b.expr(a)
		}
		return call
	}
	panic(fmt.Sprintf("lang: empty derived primary at %v", l.Span.Start))
}

// numberNode is the integer or floating constant t.
func numberNode(l Loc, t token) *Number {
	if t.kind == tkInt {
		v, _ := strconv.ParseUint(t.val, 10, 64)
		return &Number{Loc: l, Lit: t.val, Kind: IntNumber, Int: v, Float: float64(v)}
	}
	// libpcp converts with strtod, which reads a lone "." as 0.
	v, _ := strconv.ParseFloat(t.val, 64)
	return &Number{Loc: l, Lit: t.val, Kind: FloatNumber, Float: v}
}

// mkconst builds mkconst(value, tag=value, ...) from its tokens ts: the
// value is ts[2], and parameter k is ts[4+4k] (tag) to ts[6+4k] (value).
func (b *derivedBuilder) mkconst(ts []lexer.Token, l Loc) *MkConst {
	vt := ts[2]
	out := &MkConst{Loc: l, Value: numberNode(b.tokLoc(vt, vt), b.tok(vt)), Rparen: b.pos(ts[len(ts)-1]),
		Params: make([]*MkConstParam, (len(ts)-3)/4)}
	for k := range out.Params {
		tt, vt := ts[4+4*k], ts[6+4*k]
		v := b.tok(vt)
		out.Params[k] = &MkConstParam{Loc: b.tokLoc(tt, vt), Tag: b.tok(tt).val, ValueSpan: b.tokLoc(vt, vt).Span,
			Value: v.val, Quoted: v.kind == tkString}
	}
	return out
}
