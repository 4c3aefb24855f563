package lang

import (
	"fmt"
	"strconv"
	"strings"
)

// The printer writes trees back as source text in a canonical layout:
// single spaces around binary operators, ", " between arguments, and only
// the parentheses the tree has as Paren nodes plus those the language's
// precedence needs. Parsing the output gives the same tree again (apart
// from positions and any Paren nodes the printer had to add).

// precTable gives a language's binding powers: binary operators, and for
// prefix operators the power that their operand extends over (a prefix
// operator takes in every following binary operator that binds tighter).
type precTable struct {
	binary  map[BinaryOp]int
	prefix  func(Unary) int
	ternary int
}

var derivedPrec = precTable{
	binary: map[BinaryOp]int{
		OpAnd: precBool, OpOr: precBool,
		OpLT: precRel, OpLE: precRel, OpEQ: precRel, OpGE: precRel, OpGT: precRel, OpNE: precRel,
		OpAdd: precAdd, OpSub: precAdd, OpMul: precMul, OpDiv: precMul,
	},
	prefix: func(u Unary) int {
		if u.Op == OpNeg {
			return precAdd
		}
		return precNot
	},
	ternary: precTernary,
}

// FormatDerived prints a derived-metric expression.
func FormatDerived(x Expr) string {
	p := &printer{prec: derivedPrec}
	p.expr(x, 0, 0)
	return p.b.String()
}

type printer struct {
	b    strings.Builder
	prec precTable
	pmie bool // print pmie's forms of numbers, strings and metrics
}

// atomPrec is the binding power of anything that is not an operator.
const atomPrec = 100

// nodePrec is how tightly x's outermost operator binds; for a prefix
// operator it is the power its operand extends over, and prefix is set.
func (p *printer) nodePrec(x Expr) (prec int, prefix bool) {
	switch x := x.(type) {
	case *Binary:
		return p.prec.binary[x.Op], false
	case *Ternary:
		return p.prec.ternary, false
	case *Unary:
		return p.prec.prefix(*x), true
	}
	if p.pmie {
		return pmieNodePrec(x)
	}
	return atomPrec, false
}

// expr prints x where it must bind at least as tightly as min and is
// followed by an operator of power next (0 when nothing follows, or a
// closing bracket).
func (p *printer) expr(x Expr, min, next int) {
	prec, prefix := p.nodePrec(x)
	paren := !prefix && prec < min
	if prefix && next > prec {
		paren = true // the prefix operator would take in what follows
	}
	if paren {
		p.b.WriteByte('(')
		next = 0
	}
	p.node(x, next)
	if paren {
		p.b.WriteByte(')')
	}
}

func (p *printer) node(x Expr, next int) {
	switch x := x.(type) {
	case *Binary:
		prec := p.prec.binary[x.Op]
		p.expr(x.X, prec, prec)
		p.b.WriteString(" " + x.Op.String() + " ")
		p.expr(x.Y, prec+1, next)
	case *Ternary:
		p.expr(x.Cond, p.prec.ternary, p.prec.ternary)
		p.b.WriteString(" ? ")
		p.expr(x.Then, 0, 0)
		p.b.WriteString(" : ")
		p.expr(x.Else, p.prec.ternary+1, next)
	case *Unary:
		p.b.WriteString(x.Op.String())
		if x.Op != OpNeg && x.Op != OpNot {
			p.b.WriteByte(' ')
		}
		p.expr(x.X, p.prec.prefix(*x)+1, next)
	case *Paren:
		p.b.WriteByte('(')
		p.expr(x.X, 0, 0)
		p.b.WriteByte(')')
	default:
		if p.pmie && p.pmieLeaf(x) {
			return
		}
		if _, ok := x.(*MatchInst); ok && p.pmie {
			p.pmieNode(x, next)
			return
		}
		p.derivedNode(x, next)
	}
}

func (p *printer) derivedNode(x Expr, next int) {
	switch x := x.(type) {
	case *Number:
		p.b.WriteString(numberText(x))
	case *Metric:
		p.b.WriteString(x.Name)
	case *String:
		p.b.WriteString(`"` + x.Value + `"`)
	case *InstSelect:
		p.expr(x.X, atomPrec, 0)
		p.b.WriteString("[" + escapeWith(x.Inst, ']') + "]")
	case *Call:
		p.b.WriteString(x.Func + "(")
		for i, a := range x.Args {
			if i > 0 {
				p.b.WriteString(", ")
			}
			p.expr(a, 0, 0)
		}
		p.b.WriteByte(')')
	case *MkConst:
		p.b.WriteString("mkconst(" + numberText(x.Value))
		for _, prm := range x.Params {
			v := prm.Value
			if prm.Quoted {
				v = `"` + v + `"`
			}
			p.b.WriteString(", " + prm.Tag + "=" + v)
		}
		p.b.WriteByte(')')
	case *MatchInst:
		p.b.WriteString("matchinst(")
		if x.Negate {
			p.b.WriteByte('!')
		}
		p.b.WriteString("/" + escapeWith(x.Pattern, '/') + "/, ")
		p.expr(x.X, 0, 0)
		p.b.WriteByte(')')
	default:
		p.pmieNode(x, next)
	}
}

func typeName(x Expr) string { return fmt.Sprintf("%T", x) }

func numberText(n *Number) string {
	if n.Lit != "" {
		return n.Lit
	}
	if n.Kind == IntNumber {
		return strconv.FormatUint(n.Int, 10)
	}
	s := strconv.FormatFloat(n.Float, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// escapeWith puts a backslash before every backslash and close in s.
func escapeWith(s string, close byte) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' || s[i] == close {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
