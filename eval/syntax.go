package eval

import (
	"strconv"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// Syntax renders x in pmie's rule syntax, for pmie --check-units's
// messages: operands in parentheses unless they are simple, constants by
// value. pmie's debugger lists rules otherwise (Rule.Listing).
func (x *Node) Syntax() string {
	var b strings.Builder
	x.syntax(&b)
	return b.String()
}

// simpleOperand reports whether x is printed without parentheses as an
// operand.
func (x *Node) simpleOperand() bool {
	switch x.Op {
	case OpNop, OpDelay, OpFetch, OpRate, OpInstant:
		return true
	}
	return x.Op.aggregate()
}

func (x *Node) syntax(b *strings.Builder) {
	switch {
	case x.Op == OpNop || x.Op == OpVar:
		b.WriteString(strings.TrimLeft(string(x.AppendValue(nil)), " "))
	case x.Op == OpFetch || x.Op == OpDelay:
		f := x
		if x.Op == OpDelay {
			f = x.Arg1
		}
		ms := f.metrics.m
		b.WriteString(ms[0].Name)
		if len(ms) > 1 {
			for _, m := range ms {
				b.WriteString(" :" + m.Host)
			}
		}
		if ms[0].specinst > 0 {
			for i := 0; i < ms[0].nidom && i < len(ms[0].inames); i++ {
				b.WriteString(" #" + quoteInst(ms[0].inames[i]))
			}
		}
		switch {
		case x.Op == OpFetch && x.tdom > 1:
			b.WriteString(" @0.." + strconv.Itoa(x.tdom-1))
		case x.Op == OpDelay && x.tdom == f.tdom-1:
			b.WriteString(" @" + strconv.Itoa(x.tdom))
		case x.Op == OpDelay:
			b.WriteString(" @" + strconv.Itoa(x.tdom) + ".." + strconv.Itoa(x.tdom+f.tdom-1))
		}
	case x.Op.action():
		b.WriteString(x.Op.String())
		if x.Arg2 != nil {
			b.WriteByte(' ')
			x.Arg2.syntax(b)
		}
		for _, a := range x.act.args {
			b.WriteString(" " + strconv.Quote(a))
		}
	case x.Op == OpPcnt:
		b.WriteString(x.opName() + " " + strconv.Itoa(int(x.pcntOf()*100+0.5)) + "% ")
		x.Arg1.operand(b)
	case x.Op == OpMatch || x.Op == OpNomatch:
		b.WriteString(x.Op.String() + " \"" + x.Arg2.text + "\" (")
		x.Arg1.syntax(b)
		b.WriteByte(')')
	case x.Arg1 != nil && x.Arg2 != nil:
		if x.Op == OpRule {
			x.Arg1.syntax(b)
		} else {
			x.Arg1.operand(b)
		}
		b.WriteString(" " + x.Op.String() + " ")
		if x.Op == OpRule {
			x.Arg2.syntax(b)
		} else {
			x.Arg2.operand(b)
		}
	case x.Arg1 != nil:
		b.WriteString(x.opName() + " ")
		x.Arg1.operand(b)
	}
}

// quoteInst quotes an instance name unless it is a plain identifier.
func quoteInst(s string) string {
	for i, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return "'" + s + "'"
		}
	}
	return s
}

// operand renders x as the operand of another operator.
func (x *Node) operand(b *strings.Builder) {
	if x.simpleOperand() {
		x.syntax(b)
		return
	}
	b.WriteByte('(')
	x.syntax(b)
	b.WriteByte(')')
}

// UnitsString renders units as pmUnitsStr does ("byte / sec"), or "none".
func UnitsString(u pmapi.Units) string {
	if s := u.String(); s != "" {
		return s
	}
	return "none"
}

// Mixed is a comparison between values of different dimensions.
type Mixed struct {
	Left, Right           string // the operands, in rule syntax
	LeftUnits, RightUnits string
}

// checkedUnits are the units --check-units sees in x: a macro's are
// those it was defined with.
func (x *Node) checkedUnits() Units {
	if x.declared != nil {
		return *x.declared
	}
	return x.units
}

// MixedComparisons finds the comparisons in r whose operands have known
// units of different dimensions. A bare number (a dimensionless constant)
// goes with anything.
func MixedComparisons(r *Rule) []Mixed {
	var out []Mixed
	var walk func(x *Node)
	walk = func(x *Node) {
		if x == nil {
			return
		}
		switch x.Op {
		case OpEq, OpNeq, OpLt, OpLte, OpGt, OpGte:
			u1, u2 := x.Arg1.checkedUnits(), x.Arg2.checkedUnits()
			bare := func(x *Node, u Units) bool { return x.Op == OpNop && u.Dimensionless() }
			if u1.Known && u2.Known && !u1.SameDimension(u2.Units) && !bare(x.Arg1, u1) && !bare(x.Arg2, u2) {
				out = append(out, Mixed{Left: x.Arg1.Syntax(), Right: x.Arg2.Syntax(),
					LeftUnits: UnitsString(u1.Units), RightUnits: UnitsString(u2.Units)})
			}
		}
		walk(x.Arg1)
		walk(x.Arg2)
	}
	walk(r.Root)
	return out
}
