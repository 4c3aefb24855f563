package lang

import (
	"fmt"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar of a pmie statement, over the tokens the scanner
// produced (macros already expanded). As for derived metrics, operators are
// captured flat and folded by precedence climbing in pmieBuilder, here with
// pmie's typed rules (pmieShift). pmieChecker has already decided that the
// statement is legal; this grammar only has to give it structure.
// Token positions handed to participle are indexes into the token list.

type pmieStatement struct {
	Name *pmieIdent `parser:"( @@ '=':Punct )?"`
	X    *pmieExpr  `parser:"@@"`
}

type pmieIdent struct {
	Tokens []lexer.Token
	Value  string `parser:"@( Name | Quoted )"`
}

type pmieExpr struct {
	Head *pmieOperand `parser:"@@"`
	Tail []*pmieTail  `parser:"@@*"`
}

type pmieTail struct {
	Tokens []lexer.Token
	Op     string       `parser:"@( '->':Punct | '&&':Punct | '||':Punct | '&':Punct | '|':Punct | '==':Punct | '!=':Punct | '<':Punct | '>':Punct | '<=':Punct | '>=':Punct | '+':Punct | '-':Punct | '*':Punct | '/':Punct )"`
	Y      *pmieOperand `parser:"@@"`
}

type pmieOperand struct {
	Prefix []*pmiePrefixOp `parser:"@@*"`
	Prim   *pmiePrimary    `parser:"@@"`
}

type pmiePrefixOp struct {
	Tokens []lexer.Token
	Op     string        `parser:"  @( '!':Punct | '-':Punct | 'rising':Keyword | 'falling':Keyword | 'rate':Keyword | 'instant':Keyword )"`
	Domain *pmieDomainOp `parser:"| @@"`
	Match  *pmieMatch    `parser:"| @@"`
}

type pmieDomainOp struct {
	Percent string `parser:"( @Float '%_':Keyword"`
	Op      string `parser:"| @( 'some_':Keyword | 'all_':Keyword | 'sum_':Keyword | 'avg_':Keyword | 'max_':Keyword | 'min_':Keyword | 'count_':Keyword ) )"`
	Domain  string `parser:"@( '_inst':Keyword | '_host':Keyword | '_sample':Keyword )"`
}

type pmieMatch struct {
	Op      string      `parser:"@( 'match_inst':Keyword | 'nomatch_inst':Keyword )"`
	Pattern *pmieString `parser:"@@"`
}

type pmiePrimary struct {
	Tokens  []lexer.Token
	Paren   *pmieExpr    `parser:"  '(':Punct @@ ')':Punct"`
	Ruleset *pmieRuleset `parser:"| @@"`
	Action  *pmieAction  `parser:"| @@"`
	Fetch   *pmieFetch   `parser:"| @@"`
	Number  *pmieNumber  `parser:"| @@"`
	Var     string       `parser:"| @Var"`
	String  *pmieString  `parser:"| @@"`
	Bool    string       `parser:"| @( 'true':Keyword | 'false':Keyword )"`
}

type pmieString struct {
	Tokens []lexer.Token
	Value  string `parser:"@String"`
}

type pmieRuleset struct {
	Rules     []*pmieExpr `parser:"'ruleset':Keyword @@ ( 'else':Keyword @@ )*"`
	Unknown   *pmieExpr   `parser:"( 'unknown':Keyword '->':Punct @@ )?"`
	Otherwise *pmieExpr   `parser:"( 'otherwise':Keyword '->':Punct @@ )?"`
}

type pmieAction struct {
	Word    string        `parser:"@( 'shell':Keyword | 'alarm':Keyword | 'syslog':Keyword | 'print':Keyword | 'stomp':Keyword )"`
	Holdoff *pmieNumber   `parser:"@@?"`
	Args    []*pmieString `parser:"@@+"`
}

type pmieFetch struct {
	Tokens  []lexer.Token
	Name    string         `parser:"@( Name | Quoted )"`
	Hosts   []*pmieIdent   `parser:"( ':':Punct @@ )*"`
	Insts   []*pmieIdent   `parser:"( '#':Punct @@ )*"`
	Samples *pmieSampleSel `parser:"( '@':Punct @@ )?"`
}

type pmieSampleSel struct {
	Tokens []lexer.Token
	From   string `parser:"@Float"`
	To     string `parser:"( '..':Punct @Float )?"`
}

type pmieNumber struct {
	Tokens []lexer.Token
	Value  string      `parser:"@Float"`
	Units  []*pmieUnit `parser:"@@*"`
}

type pmieUnit struct {
	Tokens []lexer.Token
	Per    bool   `parser:"@'/':Unit?"`
	Word   string `parser:"@Unit"`
	Power  string `parser:"( '^':Punct @Float )?"`
}

var pmieParser = sync.OnceValue(func() *participle.Parser[pmieStatement] {
	return participle.MustBuild[pmieStatement](participle.Lexer(tokenDef{}), participle.UseLookahead(3))
})

// pmieTokens hands a statement's tokens to participle, each positioned at
// its index in toks.
func pmieTokens(toks []token) *lexer.PeekingLexer {
	l := &tokenList{}
	for i, t := range toks {
		l.toks = append(l.toks, lexer.Token{Type: lexer.TokenType(t.kind), Value: t.val,
			Pos: lexer.Position{Offset: i, Line: 1, Column: i + 1}})
	}
	l.toks = append(l.toks, lexer.EOFToken(lexer.Position{Offset: len(toks), Line: 1, Column: len(toks) + 1}))
	pl, err := lexer.Upgrade(l)
	if err != nil {
		panic(err)
	}
	return pl
}

// build turns a checked statement's tokens into a Stmt.
func (s *pmieSession) build(toks []token, name *token) *Stmt {
	g, err := pmieParser().ParseFromLexer(pmieTokens(toks))
	if err != nil {
		s.file.Diags = append(s.file.Diags, &Diagnostic{Severity: Error, Src: s.src,
			Span: s.src.Span(toks[0].start, toks[len(toks)-1].end),
			Msg:  fmt.Sprintf("internal error: the checker accepted a statement the grammar does not: %v", err)})
		return nil
	}
	b := &pmieBuilder{s: s, toks: toks}
	x, _ := b.expr(g.X, typeAny, 0)
	st := &Stmt{Loc: b.loc(0, len(toks)-1), Kind: StmtExpr, X: x}
	if name != nil {
		st.NameSpan = s.src.Span(name.start, name.end)
	}
	return st
}

type pmieBuilder struct {
	s    *pmieSession
	toks []token
}

func (b *pmieBuilder) loc(first, last int) Loc {
	f, l := b.toks[first], b.toks[last]
	return Loc{Span: b.s.src.Span(f.start, max(l.end, f.start)), From: f.from}
}

func (b *pmieBuilder) at(ts []lexer.Token) Loc {
	return b.loc(ts[0].Pos.Offset, ts[len(ts)-1].Pos.Offset)
}

func (b *pmieBuilder) tok(t lexer.Token) token { return b.toks[t.Pos.Offset] }

// pmieFold folds one flat expression.
type pmieFold struct {
	b     *pmieBuilder
	opnds []*pmieOperand
	tails []*pmieTail
	k     int // operand being built
	pre   int // its prefixes already used
}

func (b *pmieBuilder) expr(e *pmieExpr, want Type, prec int) (Expr, Type) {
	f := &pmieFold{b: b, opnds: []*pmieOperand{e.Head}, tails: e.Tail}
	for _, t := range e.Tail {
		f.opnds = append(f.opnds, t.Y)
	}
	return f.parse(want, prec)
}

func (f *pmieFold) parse(want Type, prec int) (Expr, Type) {
	x, xt := f.unary(want)
	for f.k < len(f.tails) {
		t := f.tails[f.k]
		op := infixOps[t.Op]
		if !pmieShift(op, xt, want, prec) {
			break
		}
		f.k++
		y, _ := f.parse(op.Operand, op.prec)
		l := Loc{Span: Span{Start: x.Where().Span.Start, End: y.Where().Span.End}, From: x.Where().From}
		switch t.Op {
		case "->":
			x = &Rule{Loc: l, Cond: x, Action: y}
		default:
			x = &Binary{Loc: l, Op: binaryOps[t.Op], OpPos: f.b.at(t.Tokens[:1]).Span.Start, X: x, Y: y}
		}
		xt = op.Result
	}
	return x, xt
}

func (f *pmieFold) unary(want Type) (Expr, Type) {
	o := f.opnds[f.k]
	if f.pre < len(o.Prefix) {
		p := o.Prefix[f.pre]
		f.pre++
		return f.b.prefix(p, f)
	}
	f.pre = 0
	return f.b.primary(o.Prim, want)
}

var unaryOps = map[string]UnaryOp{"!": OpNot, "-": OpNeg, "rising": OpRising, "falling": OpFalling, "rate": OpRate, "instant": OpInstant}

// prefix builds prefix operator p and its operand.
func (b *pmieBuilder) prefix(p *pmiePrefixOp, f *pmieFold) (Expr, Type) {
	start := b.at(p.Tokens)
	span := func(x Expr) Loc {
		return Loc{Span: Span{Start: start.Span.Start, End: x.Where().Span.End}, From: start.From}
	}
	switch {
	case p.Op != "":
		pp := prefixOps[p.Op]
		x, _ := f.parse(pp.Operand, pp.prec)
		return &Unary{Loc: span(x), Op: unaryOps[p.Op], X: x}, pp.Result
	case p.Match != nil:
		mo := matchOps[p.Match.Op]
		x, _ := f.parse(mo.Operand, mo.prec)
		pat := p.Match.Pattern
		return &MatchInst{Loc: span(x), Negate: p.Match.Op == "nomatch_inst", Pattern: pat.Value,
			PatternSpan: b.at(pat.Tokens).Span, X: x}, TypeBool
	}
	d := p.Domain
	dom := pmieDomains[strings.TrimPrefix(d.Domain, "_")]
	word := d.Op
	if word == "" {
		word = "%_"
	}
	pp := prefixOps[word]
	x, _ := f.parse(pp.Operand, pp.prec)
	name := strings.TrimSuffix(word, "_")
	if pp.Class == Aggregate {
		return &Aggr{Loc: span(x), Op: name, Dom: dom, X: x}, pp.Result
	}
	q := &Quant{Loc: span(x), Op: name, Dom: dom, X: x}
	if name == "%" {
		q.Percent = b.tok(p.Tokens[0]).num
	}
	return q, pp.Result
}

func (b *pmieBuilder) primary(p *pmiePrimary, want Type) (Expr, Type) {
	l := b.at(p.Tokens)
	switch {
	case p.Paren != nil:
		x, xt := b.expr(p.Paren, parenTypes(want), 0)
		return &Paren{Loc: l, X: x}, xt
	case p.Ruleset != nil:
		return b.ruleset(p.Ruleset, l), TypeRuleset
	case p.Action != nil:
		a := &Action{Loc: l, Op: p.Action.Word}
		if p.Action.Holdoff != nil {
			a.Holdoff = b.number(p.Action.Holdoff)
		}
		for _, s := range p.Action.Args {
			a.Args = append(a.Args, &String{Loc: b.at(s.Tokens), Value: s.Value})
		}
		return a, TypeAction
	case p.Fetch != nil:
		return b.fetch(p.Fetch), TypeArith
	case p.Number != nil:
		return b.number(p.Number), TypeArith
	case p.Var != "":
		m := b.tok(p.Tokens[0]).macro
		v := &Var{Loc: l, Name: p.Var}
		if m != nil {
			v.Value = m.value
		}
		return v, TypeArith
	case p.String != nil:
		return &String{Loc: l, Value: p.String.Value}, TypeString
	}
	return &Bool{Loc: l, Value: p.Bool == "true"}, TypeBool
}

func (b *pmieBuilder) ruleset(r *pmieRuleset, l Loc) *Ruleset {
	rs := &Ruleset{Loc: l}
	for _, e := range r.Rules {
		x, _ := b.expr(e, TypeRule, 0)
		// A rule may be parenthesised; the Paren is dropped here so that
		// every branch is a *Rule.
		if rule, ok := Unparen(x).(*Rule); ok {
			rs.Rules = append(rs.Rules, rule)
		}
	}
	if r.Unknown != nil {
		rs.Unknown, _ = b.expr(r.Unknown, TypeAction, 0)
	}
	if r.Otherwise != nil {
		rs.Otherwise, _ = b.expr(r.Otherwise, TypeAction, 0)
	}
	return rs
}

func (b *pmieBuilder) fetch(f *pmieFetch) *Metric {
	m := &Metric{Loc: b.at(f.Tokens), Name: f.Name}
	qual := func(q *pmieIdent) *Qualifier {
		t := b.tok(q.Tokens[0])
		return &Qualifier{Loc: b.at(q.Tokens), Value: q.Value, Quoted: t.kind == tkQuoted}
	}
	for _, h := range f.Hosts {
		m.Hosts = append(m.Hosts, qual(h))
	}
	for _, i := range f.Insts {
		m.Insts = append(m.Insts, qual(i))
	}
	if sel := f.Samples; sel != nil {
		from := int(b.tok(sel.Tokens[0]).num)
		to := from
		if sel.To != "" {
			to = int(b.tok(sel.Tokens[len(sel.Tokens)-1]).num)
		}
		m.Samples = &Samples{Loc: b.at(sel.Tokens), From: min(from, to), To: max(from, to), Range: sel.To != ""}
	}
	return m
}

func (b *pmieBuilder) number(n *pmieNumber) *Number {
	t := b.tok(n.Tokens[0])
	num := &Number{Loc: b.at(n.Tokens), Lit: t.val, Kind: FloatNumber, Float: t.num}
	if strings.Trim(t.val, "0123456789") == "" && t.num < 1<<63 {
		num.Kind, num.Int = IntNumber, uint64(t.num)
	}
	if len(n.Units) > 0 {
		num.Scale = b.scale(n.Units)
	}
	return num
}

// scale computes a scale factor's dimensions as pmie's grammar does (see
// Scale). pmie keeps dimensions in 4-bit signed fields.
func (b *pmieBuilder) scale(units []*pmieUnit) *Scale {
	first, last := units[0].Tokens[0], units[len(units)-1].Tokens
	sc := &Scale{Loc: b.loc(first.Pos.Offset, last[len(last)-1].Pos.Offset)}
	for _, u := range units {
		key := strings.TrimSuffix(u.Word, "s")
		w := unitWords[key]
		dims := [3]int{}
		dims[w[0]] = 1
		term := ScaleTerm{Word: u.Word, Per: u.Per}
		if u.Power != "" {
			term.Raised = true
			term.Power = int(b.tok(u.Tokens[len(u.Tokens)-1]).num)
			dims[w[0]] = term.Power
		}
		for i := range dims {
			dims[i] = int(int8(dims[i]<<4) >> 4)
			if u.Per {
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
	return sc
}
