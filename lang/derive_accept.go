package lang

import "sync"

// Accepted is a derived-metric expression that libpcp accepts, whose
// syntax tree is made only when first asked for (Tree). A command loads
// every global derived metric when it starts, and a context that lacks an
// operand of one never needs its tree: what the checker learnt on the
// way (Operands, Span) decides that without one.
//
// An Accepted may be used from several goroutines.
type Accepted struct {
	src         *Source
	base, end   int // the expression is src.Text[base:end]
	first, last int // its first token's start and last token's end, from base
	// inMatchinst is libpcp's matchinst state when the expression was
	// read, which the tokens depend on (see DerivedParser)
	inMatchinst bool
	check       Checker
	operands    []Operand

	once sync.Once
	x    Expr
	d    *Diagnostic
}

// Operand is a metric name an expression uses, as a *Metric of its tree.
// Func is the function it is the whole first argument of, as in
// delta(name), anon(PM_TYPE_U32) or rescale(name, "units"), or "".
type Operand struct {
	Name, Func string
}

// Accept decides whether libpcp accepts expr, as Parse does (with the same
// diagnostic when it does not), and returns it ready to be parsed (Tree).
func (p *DerivedParser) Accept(expr string) (*Accepted, *Diagnostic) {
	return p.acceptAt(NewSource("<expr>", expr), 0, len(expr))
}

// AcceptEntry is Accept for the expression of a DerivedDef entry, as
// ParseEntry parses it.
func (p *DerivedParser) AcceptEntry(cfg *DerivedConfig, e *DerivedEntry) (*Accepted, *Diagnostic) {
	return p.acceptAt(cfg.Src, e.exprStart(cfg), e.exprEnd)
}

func (p *DerivedParser) acceptAt(src *Source, base, end int) (a *Accepted, d *Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			a, d = nil, internalError(src, base, r)
		}
	}()
	a = &Accepted{src: src, base: base, end: end, inMatchinst: p.inMatchinst, check: p.Check}
	toks, d := p.scan(src, base, end)
	if d != nil {
		return nil, d
	}
	if len(toks) > 0 {
		a.first, a.last = toks[0].start, toks[len(toks)-1].end
	}
	a.operands = derivedOperands(toks)
	return a, nil
}

// derivedOperands lists the metric names among accepted tokens: every
// name but a mkconst parameter's value (which follows "="), with the
// function whose "(" and ")" or "," enclose just the name.
func derivedOperands(ts []token) []Operand {
	n := 0
	for _, t := range ts {
		if t.kind == tkName {
			n++
		}
	}
	out := make([]Operand, 0, n)
	for i, t := range ts {
		if t.kind != tkName || i > 0 && ts[i-1].kind == tkPunct && ts[i-1].val == "=" {
			continue
		}
		o := Operand{Name: t.val}
		if i >= 2 && ts[i-1].kind == tkPunct && ts[i-1].val == "(" && ts[i-2].kind == tkFunc &&
			i+1 < len(ts) && ts[i+1].kind == tkPunct && (ts[i+1].val == ")" || ts[i+1].val == ",") {
			o.Func = ts[i-2].val // the name is the function's (first) argument
		}
		out = append(out, o)
	}
	return out
}

// Tree is the expression's syntax tree, as Parse gives it, made on the
// first call. The diagnostic, if any, is an internal error of the parser.
func (a *Accepted) Tree() (Expr, *Diagnostic) {
	a.once.Do(func() {
		// the tokens are read again from libpcp's state at the time
		p := DerivedParser{Check: a.check, inMatchinst: a.inMatchinst}
		a.x, a.d = p.parseAt(a.src, a.base, a.end)
	})
	return a.x, a.d
}

// Operands lists the metric names the expression uses, in order, as the
// *Metric nodes of its tree would (a name used twice is listed twice).
func (a *Accepted) Operands() []Operand { return a.operands }

// Span is the span of the whole expression, its tree's root's.
func (a *Accepted) Span() Span { return a.src.Span(a.base+a.first, a.base+a.last) }

// Source is the text the expression's positions refer to.
func (a *Accepted) Source() *Source { return a.src }
