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
// does (any function may take any arguments, an instance may follow any
// operand); derivedChecker decides what is legal before this grammar runs.

type derivedRoot struct {
	X *derivedExpr `parser:"@@"`
}

type derivedExpr struct {
	Head *derivedOperand `parser:"@@"`
	Tail []*derivedTail  `parser:"@@*"`
}

type derivedTail struct {
	Tokens []lexer.Token
	Quest  *derivedExpr    `parser:"( '?':Punct @@ ':':Punct"`
	Op     string          `parser:"| @( '&&':Punct | '||':Punct | '<':Punct | '<=':Punct | '==':Punct | '>=':Punct | '>':Punct | '!=':Punct | '+':Punct | '-':Punct | '*':Punct | '/':Punct ) )"`
	Y      *derivedOperand `parser:"@@"`
}

type derivedOperand struct {
	Tokens []lexer.Token
	Prefix []string        `parser:"@( '-':Punct | '!':Punct )*"`
	Prim   *derivedPrimary `parser:"@@"`
	Inst   *instName       `parser:"@@?"`
}

type instName struct {
	Tokens []lexer.Token
	Value  string `parser:"@InstName"`
}

type derivedPrimary struct {
	Tokens  []lexer.Token
	Paren   *derivedExpr   `parser:"  '(':Punct @@ ')':Punct"`
	MkConst *mkconstCall   `parser:"| @@"`
	Match   *matchinstCall `parser:"| @@"`
	Call    *funcCall      `parser:"| @@"`
	Int     string         `parser:"| @Int"`
	Float   string         `parser:"| @Float"`
	Name    string         `parser:"| @Name"`
	String  *stringLit     `parser:"| @@"`
}

type stringLit struct {
	Value string `parser:"@String"`
}

type funcCall struct {
	Tokens []lexer.Token
	Func   string         `parser:"@Func '(':Punct"`
	Args   []*derivedExpr `parser:"( @@ ( ',':Punct @@ )* )? ')':Punct"`
}

type mkconstCall struct {
	Tokens []lexer.Token
	Int    string          `parser:"'mkconst':Func '(':Punct ( @Int"`
	Float  string          `parser:"| @Float )"`
	Params []*mkconstParam `parser:"( ',':Punct @@ )+ ')':Punct"`
}

type mkconstParam struct {
	Tokens []lexer.Token
	Tag    string     `parser:"@Keyword '=':Punct"`
	Str    *stringLit `parser:"( @@"`
	Name   string     `parser:"| @Name"`
	Int    string     `parser:"| @Int )"`
}

type matchinstCall struct {
	Tokens  []lexer.Token
	Negate  bool         `parser:"'matchinst':Func '(':Punct @'!':Punct?"`
	Pattern string       `parser:"@Pattern ',':Punct"`
	X       *derivedExpr `parser:"@@ ')':Punct"`
}

// derivedParser is built on first use: package variables such as the token
// symbol table must be initialised first.
var derivedParser = sync.OnceValue(func() *participle.Parser[derivedRoot] {
	return participle.MustBuild[derivedRoot](participle.Lexer(tokenDef{}), participle.UseLookahead(2))
})

// derivedBuilder turns the grammar structs into the syntax tree.
type derivedBuilder struct {
	src  *Source
	base int         // offset of the expression in src.Text
	ends map[int]int // token start offset -> end offset (relative)
}

func (b *derivedBuilder) loc(start, end int) Loc {
	return Loc{Span: b.src.Span(b.base+start, b.base+end)}
}

// tokLoc spans the tokens from first to last.
func (b *derivedBuilder) tokLoc(first, last lexer.Token) Loc {
	return b.loc(first.Pos.Offset, b.ends[last.Pos.Offset])
}

func (b *derivedBuilder) spanOf(ts []lexer.Token) Loc {
	return b.tokLoc(ts[0], ts[len(ts)-1])
}

func span(a, z Node) Loc {
	return Loc{Span: Span{Start: a.Where().Span.Start, End: z.Where().Span.End}}
}

// climber folds one flat derivedExpr by precedence climbing.
type climber struct {
	b     *derivedBuilder
	opnds []*derivedOperand // operand k is joined to operand k+1 by tails[k]
	tails []*derivedTail
	k     int // operand being parsed
	pre   int // prefixes of operand k already used
}

func (b *derivedBuilder) expr(e *derivedExpr) Expr {
	c := &climber{b: b, opnds: []*derivedOperand{e.Head}, tails: e.Tail}
	for _, t := range e.Tail {
		c.opnds = append(c.opnds, t.Y)
	}
	return c.parse(0)
}

func (c *climber) parse(minPrec int) Expr {
	lhs := c.unary()
	for c.k < len(c.tails) {
		t := c.tails[c.k]
		op := t.Op
		if t.Quest != nil {
			op = "?"
		}
		prec := derivedBinPrec[op]
		if prec < minPrec {
			break
		}
		c.k++
		if t.Quest != nil {
			mid := c.b.expr(t.Quest)
			rhs := c.parse(prec + 1)
			lhs = &Ternary{Loc: span(lhs, rhs), Cond: lhs, Then: mid, Else: rhs}
			continue
		}
		rhs := c.parse(prec + 1)
		lhs = &Binary{Loc: span(lhs, rhs), Op: binaryOps[op], OpPos: c.b.src.Pos(c.b.base + t.Tokens[0].Pos.Offset), X: lhs, Y: rhs}
	}
	return lhs
}

var binaryOps = map[string]BinaryOp{
	"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "<": OpLT, "<=": OpLE, "==": OpEQ,
	">=": OpGE, ">": OpGT, "!=": OpNE, "&&": OpAnd, "||": OpOr, "&": OpSeq, "|": OpAlt,
}

func (c *climber) unary() Expr {
	o := c.opnds[c.k]
	if c.pre < len(o.Prefix) {
		tok := o.Tokens[c.pre]
		op, prec := OpNot, precNot+1
		if o.Prefix[c.pre] == "-" {
			op, prec = OpNeg, precMul
		}
		c.pre++
		x := c.parse(prec)
		return &Unary{Loc: Loc{Span: Span{Start: c.b.tokLoc(tok, tok).Span.Start, End: x.Where().Span.End}}, Op: op, X: x}
	}
	c.pre = 0
	x := c.b.primary(o.Prim)
	if o.Inst != nil {
		inst := c.b.spanOf(o.Inst.Tokens)
		x = &InstSelect{Loc: Loc{Span: Span{Start: x.Where().Span.Start, End: inst.Span.End}}, X: x, Inst: o.Inst.Value, InstSpan: inst.Span}
	}
	return x
}

func (b *derivedBuilder) primary(p *derivedPrimary) Expr {
	l := b.spanOf(p.Tokens)
	switch {
	case p.Paren != nil:
		return &Paren{Loc: l, X: b.expr(p.Paren)}
	case p.MkConst != nil:
		return b.mkconst(p.MkConst, l)
	case p.Match != nil:
		m := p.Match
		pt := m.Tokens[2]
		if m.Negate {
			pt = m.Tokens[3]
		}
		return &MatchInst{Loc: l, Negate: m.Negate, Pattern: m.Pattern, PatternSpan: b.tokLoc(pt, pt).Span, X: b.expr(m.X)}
	case p.Call != nil:
		call := &Call{Loc: l, Func: p.Call.Func, FuncSpan: b.tokLoc(p.Tokens[0], p.Tokens[0]).Span,
			Rparen: b.src.Pos(b.base + p.Tokens[len(p.Tokens)-1].Pos.Offset)}
		for _, a := range p.Call.Args {
			call.Args = append(call.Args, b.expr(a))
		}
		return call
	case p.Int != "" || p.Float != "":
		return numberNode(l, p.Int, p.Float)
	case p.Name != "":
		return &Metric{Loc: l, Name: p.Name}
	case p.String != nil:
		return &String{Loc: l, Value: p.String.Value}
	}
	panic(fmt.Sprintf("lang: empty derived primary at %v", l.Span.Start))
}

func numberNode(l Loc, intLit, floatLit string) *Number {
	if intLit != "" {
		v, _ := strconv.ParseUint(intLit, 10, 64)
		return &Number{Loc: l, Lit: intLit, Kind: IntNumber, Int: v, Float: float64(v)}
	}
	// libpcp converts with strtod, which reads a lone "." as 0.
	v, _ := strconv.ParseFloat(floatLit, 64)
	return &Number{Loc: l, Lit: floatLit, Kind: FloatNumber, Float: v}
}

func (b *derivedBuilder) mkconst(m *mkconstCall, l Loc) *MkConst {
	vt := m.Tokens[2]
	out := &MkConst{Loc: l, Value: numberNode(b.tokLoc(vt, vt), m.Int, m.Float),
		Rparen: b.src.Pos(b.base + m.Tokens[len(m.Tokens)-1].Pos.Offset)}
	for _, p := range m.Params {
		v := p.Tokens[len(p.Tokens)-1]
		mp := &MkConstParam{Loc: b.spanOf(p.Tokens), Tag: p.Tag, ValueSpan: b.tokLoc(v, v).Span}
		switch {
		case p.Str != nil:
			mp.Value, mp.Quoted = p.Str.Value, true
		case p.Name != "":
			mp.Value = p.Name
		default:
			mp.Value = p.Int
		}
		out.Params = append(out.Params, mp)
	}
	return out
}
