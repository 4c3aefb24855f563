package lang

import (
	"fmt"
	"strings"
)

// DerivedParser parses derived-metric expressions as one libpcp process
// does. It carries libpcp's one piece of state between expressions: after a
// syntax error inside matchinst( ... ), libpcp goes on scanning "/" as the
// start of a pattern, in later expressions too, until a matchinst(...)
// parses completely. Use one DerivedParser for all the expressions one
// simulated libpcp process registers; the zero value is ready to use. A
// DerivedParser is not safe for concurrent use.
type DerivedParser struct {
	// Check, when set, is asked about the values libpcp checks while it
	// parses (see Checker). When nil those values are not checked.
	Check Checker

	inMatchinst bool

	// the checker, kept from one expression to the next so that its
	// storage (token list, construct stack) is reused
	c derivedChecker
}

// ParseDerived parses one derived-metric expression, the expr argument of
// pmRegisterDerived(3), with a fresh DerivedParser. On a syntax error the
// error is a *Diagnostic whose PCP form is what libpcp 6.0.3 reports (see
// PCPRegisterError).
//
// The tree is made of these nodes: *Number (integer or floating constant),
// *Metric (a metric name), *InstSelect (name[inst] or (expr)[inst]),
// *Paren, *Unary (OpNeg, OpNot), *Binary (arithmetic, relational, && ||),
// *Ternary, *Call (every function but mkconst and matchinst; its arguments
// are metric names, expressions or, for rescale, a *String), *MkConst and
// *MatchInst.
//
// Precedence is libpcp's, lowest first: ?: ; && and || (equal, left
// associative) ; prefix ! ; the relational operators (equal, left
// associative) ; + - and prefix - ; * /. So !a>b||c<d is (!(a>b))||(c<d)
// and -a*b is -(a*b). (pmRegisterDerived(3) says !a>b||c<d means
// !((a>b)||(c<d)); libpcp 6.0.3 does not do that, and we follow libpcp.)
func ParseDerived(expr string) (Expr, error) {
	var p DerivedParser
	x, d := p.Parse(expr)
	if d != nil {
		return nil, d
	}
	return x, nil
}

// Parse parses one expression; see ParseDerived.
func (p *DerivedParser) Parse(expr string) (Expr, *Diagnostic) {
	return p.parseAt(NewSource("<expr>", expr), 0, len(expr))
}

// parseAt parses the expression src.Text[base:end]; positions in the tree
// and the diagnostic are positions in src.
func (p *DerivedParser) parseAt(src *Source, base, end int) (x Expr, d *Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			x, d = nil, internalError(src, base, r)
		}
	}()
	toks, d := p.scan(src, base, end)
	if d != nil {
		return nil, d
	}
	return buildDerived(src, base, toks)
}

// scan runs the checker over src.Text[base:end]: libpcp's verdict, and
// the tokens of an expression it accepts, which stay valid until p is
// used again.
func (p *DerivedParser) scan(src *Source, base, end int) ([]token, *Diagnostic) {
	text := src.Text[base:end]
	if i := strings.IndexByte(text, 0); i >= 0 {
		text = text[:i] // libpcp reads a C string
	}
	c := &p.c
	*c = derivedChecker{lookahead: lookahead{toks: c.toks[:0]}, lx: derivedLexer{src: text, inMatchinst: &p.inMatchinst},
		check: p.Check, frames: c.frames[:0]}
	c.next = c.lx.next
	c.top()
	if c.fail != nil {
		return nil, derivedDiag(src, base, text, c.fail)
	}
	return c.toks, nil
}

// buildDerived makes the syntax tree of the accepted tokens toks, read
// from src.Text at base.
func buildDerived(src *Source, base int, toks []token) (Expr, *Diagnostic) {
	root, err := derivedStructure(toks)
	if err != nil {
		return nil, internalError(src, base, err)
	}
	b := &derivedBuilder{src: src, base: base, toks: toks}
	return b.expr(root), nil
}

func derivedDiag(src *Source, base int, text string, f *derivedFail) *Diagnostic {
	off := f.tok.start
	if f.tok.kind == tkEOF {
		off = len(text) - 1 // libpcp points at the last character
	}
	msg := f.reason
	if msg == "" {
		msg = "syntax error: unexpected " + f.tok.describe()
	}
	return &Diagnostic{
		Severity: Error,
		Src:      src,
		Span:     src.Span(base+f.tok.start, base+f.tok.end),
		Msg:      msg,
		PCP:      PCPForm{Reason: f.reason, Offset: off},
	}
}

func internalError(src *Source, base int, cause any) *Diagnostic {
	return &Diagnostic{Severity: Error, Src: src, Span: src.Span(base, base),
		Msg: fmt.Sprintf("internal error in the parser: %v", cause)}
}
