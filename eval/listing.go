package eval

import (
	"strconv"
	"strings"
)

// Listing is r as pmie's debugger lists it (its l command): the name, then
// the expression rewritten from the tree as bound, with each metric's
// hosts and instances made explicit, constants by value (folded and in
// canonical units) and operands in parentheses by pmie's rules.
func (r *Rule) Listing() string {
	var b strings.Builder
	b.WriteString(r.Name + " =\n")
	r.Root.list(&b)
	b.WriteString(";\n\n")
	return b.String()
}

// BindingListing is the sub-expression of r that gives the %h, %i and %v
// of its actions, as pmie's debugger lists it (its v command).
func (r *Rule) BindingListing() string {
	var b strings.Builder
	b.WriteString(r.Name + " (subexpression for %h, %i and %v bindings) =\n")
	findValues(findBindings(r.Root)).list(&b)
	b.WriteString("\n\n")
	return b.String()
}

// listedBare reports whether x is listed without parentheses as an
// operand of a binary operator: constants, metrics, rate, instant and the
// aggregates (a reserved variable, which pmie cannot list, is listed as a
// constant).
func (x *Node) listedBare() bool {
	switch x.Op {
	case OpNop, OpVar, OpFetch, OpDelay, OpRate, OpInstant:
		return true
	}
	return x.Op.aggregate()
}

// listOperand lists x in parentheses unless bare says it needs none.
func (x *Node) listOperand(b *strings.Builder, bare bool) {
	if bare {
		x.list(b)
		return
	}
	b.WriteByte('(')
	x.list(b)
	b.WriteByte(')')
}

func (x *Node) list(b *strings.Builder) {
	switch {
	case x.Op == OpNop || x.Op == OpVar:
		// pmie lists a constant's values; it cannot list a variable
		// ($hour: it stops on an assertion), which is listed by its
		// value here
		if x.nvals > 0 {
			b.WriteString(strings.TrimLeft(string(x.AppendValue(nil)), " "))
		}
	case x.Op == OpFetch || x.Op == OpDelay:
		x.listMetric(b)
	case x.Op.action():
		x.listAction(b)
	case x.Op == OpPcnt:
		b.WriteString(x.opName() + " " + strconv.Itoa(int(x.pcntOf()*100+0.5)) + "% ")
		x.Arg1.listOperand(b, x.Arg1.Op == OpNop || x.Arg1.Op == OpFetch || x.Arg1.Op == OpDelay)
	case x.Op == OpMatch || x.Op == OpNomatch:
		b.WriteString(x.Op.String() + " ")
		x.Arg2.list(b)
		b.WriteString(" (")
		x.Arg1.list(b)
		b.WriteByte(')')
	case x.Arg1 != nil && x.Arg2 != nil:
		x.Arg1.listOperand(b, x.Op == OpRule || x.Arg1.listedBare())
		b.WriteString(" " + x.Op.String() + " ")
		x.Arg2.listOperand(b, x.Op == OpRule || x.Arg2.listedBare())
	case x.Arg1 != nil:
		b.WriteString(x.opName() + " ")
		x.Arg1.listOperand(b, x.Arg1.Op == OpActSeq || x.Arg1.Op == OpActAlt)
	}
}

// listMetric lists a fetch (or a sample window of one): the metric, each
// host, the instances of the first host's and the samples.
func (x *Node) listMetric(b *strings.Builder) {
	ms := x.metrics.m
	b.WriteString(ms[0].Name)
	for i := 0; i < x.hdom && i < len(ms); i++ {
		b.WriteString(" :" + ms[i].Host)
	}
	m := ms[0]
	for i := 0; i < m.nidom && i < len(m.inames); i++ {
		b.WriteString(" #" + m.inames[i])
	}
	switch {
	case x.Op == OpFetch:
		if x.tdom > 1 {
			b.WriteString(" @0.." + strconv.Itoa(x.tdom-1))
		}
	case x.tdom == x.Arg1.tdom-1:
		b.WriteString(" @" + strconv.Itoa(x.tdom))
	default:
		b.WriteString(" @" + strconv.Itoa(x.tdom) + ".." + strconv.Itoa(x.tdom+x.Arg1.tdom-1))
	}
}

// listAction lists an action: its name, holdoff and arguments as the rule
// gave them; syslog's -p and -t options as the level and tag they make,
// and only the first argument after them (as pmie lists it).
func (x *Node) listAction(b *strings.Builder) {
	var args strings.Builder
	st := x.act
	if x.Op == OpSyslog {
		args.WriteString("[level=" + strconv.Itoa(st.priority) + " tag=\"" + st.tag + "\"]")
		if len(st.args) > 0 {
			// pmie cannot list a syslog action with no message (it
			// stops on an assertion): here it is the level and tag
			args.WriteByte(' ')
			if st.args[0] != "" {
				args.WriteString("\"" + st.args[0] + "\"")
			}
		}
	} else {
		for i, a := range st.args {
			if i > 0 {
				args.WriteByte(' ')
			}
			if a != "" { // pmie lists an empty argument as nothing
				args.WriteString("\"" + a + "\"")
			}
		}
	}
	if x.Arg2 == nil {
		b.WriteString(x.Op.String() + " " + args.String())
		return
	}
	if x.Op == OpSyslog {
		// pmie lists a syslog action with a holdoff as a binary operator
		b.WriteString("(" + args.String() + ") syslog ")
		x.Arg2.list(b)
		return
	}
	b.WriteString(x.Op.String() + " ")
	x.Arg2.list(b)
	b.WriteString(" " + args.String())
}
