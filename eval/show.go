package eval

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// numWidth is the room pmie gives one formatted number: longer ones are
// cut to numWidth-1 characters.
const numWidth = 24

// appendNumber formats v as pmie does: integers plainly, other values with
// a precision that shrinks as they grow.
func appendNumber(b []byte, v float64) []byte {
	if v >= -2147483648 && v < 2147483648 && v == math.Trunc(v) {
		return strconv.AppendInt(b, int64(v), 10)
	}
	if math.IsInf(v, 0) {
		if v < 0 {
			return append(b, "-inf"...)
		}
		return append(b, "inf"...)
	}
	start := len(b)
	a := math.Abs(v)
	switch {
	case a < 0.5:
		b = append(b, pmapi.FormatG(v, 6)...)
	case a < 5:
		b = strconv.AppendFloat(b, v, 'f', 2, 64)
	case a < 50:
		b = strconv.AppendFloat(b, v, 'f', 1, 64)
	case a < 1e18:
		// With no decimals a number prints as the nearest whole number,
		// a tie going to the even one (v's fraction is exact, and printf
		// rounds exactly): AppendInt of it is quicker.
		b = strconv.AppendInt(b, int64(math.RoundToEven(v)), 10)
	default:
		b = strconv.AppendFloat(b, v, 'f', 0, 64)
	}
	if len(b)-start > numWidth-1 {
		b = b[:start+numWidth-1]
	}
	return b
}

// appendNums formats value i of every sample x holds, oldest last.
func (x *Node) appendNums(b []byte, i int) []byte {
	for k := 0; k < x.nsmpls; k++ {
		if k > 0 {
			b = append(b, ' ')
		}
		b = x.appendNum(b, i, k)
	}
	return b
}

// appendNum formats value i of sample k of x.
func (x *Node) appendNum(b []byte, i, k int) []byte {
	v, ok := x.numAt(i, k)
	if !ok {
		if x.sem == SemBoolean {
			return append(b, "unknown"...)
		}
		return append(b, '?')
	}
	return appendNumber(b, v)
}

// appendTruths formats truth i of every sample x holds.
func (x *Node) appendTruths(b []byte, i int) []byte {
	for k := 0; k < x.nsmpls; k++ {
		if k > 0 {
			b = append(b, ' ')
		}
		b = append(b, x.truthAt(i, k).String()...)
	}
	return b
}

// appendStrings formats string i of every sample of a string-valued
// metric, quoted, or "?" for a sample not there, as pmie prints a value
// not known.
func (x *Node) appendStrings(b []byte, i int) []byte {
	for k := 0; k < x.nsmpls; k++ {
		if k > 0 {
			b = append(b, ' ')
		}
		s, ok := x.strAt(i, k)
		if !ok || x.valid <= k {
			b = append(b, '?')
			continue
		}
		b = append(b, '"')
		b = append(b, s...)
		b = append(b, '"')
	}
	return b
}

// appendValue formats value i of x according to its semantics.
func (x *Node) appendValue(b []byte, i int) []byte {
	switch x.sem {
	case SemNumVar, SemNumConst, SemUnknown:
		return x.appendNums(b, i)
	case SemBoolean:
		return x.appendTruths(b, i)
	case SemRegex:
		return append(b, "/<regex>/"...)
	case SemChar:
		if i == 0 {
			b = append(b, '"')
			b = append(b, x.text...)
			b = append(b, '"')
		}
		return b
	case SemInstant, SemDiscrete:
		if x.Op == OpFetch && x.store == storeStr {
			return x.appendStrings(b, i)
		}
		return x.appendNums(b, i)
	}
	b = append(b, "concatvalue: botch sem="...)
	return strconv.AppendInt(b, int64(x.sem), 10)
}

// AppendValue appends x's value as pmie -v prints it: every value of every
// sample, or "?" when there are none.
func (x *Node) AppendValue(b []byte) []byte {
	if x.nvals <= 0 {
		return append(b, '?')
	}
	for i := 0; i < x.tspan; i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		b = x.appendValue(b, i)
		if x.sem == SemChar {
			break
		}
	}
	return b
}

// appendBinding appends "\n    host: [inst] " or "\n    host: ".
func appendBinding(b []byte, host, inst string, hasInst bool) []byte {
	b = append(b, "\n    "...)
	b = append(b, host...)
	if hasInst {
		b = append(b, ": ["...)
		b = append(b, inst...)
		return append(b, "] "...)
	}
	return append(b, ": "...)
}

// appendMember formats member i of x for -V and -W: truths as words,
// numbers as numbers. Strings are quoted (pmie prints them as garbage
// numbers, or crashes).
func (x *Node) appendMember(b []byte, i int) []byte {
	switch {
	case x.sem == SemBoolean:
		return x.appendTruths(b, i)
	case x.store == storeStr:
		return x.appendStrings(b, i)
	}
	return x.appendNums(b, i)
}

// AppendAnnotated appends x's value as pmie -V prints it: one line per
// host and instance, each naming them.
func (x *Node) AppendAnnotated(b []byte) []byte {
	if (x.idom <= 0 && x.hdom <= 0) || x.sem == SemChar || x.metrics == nil || x.valid == 0 {
		return x.AppendValue(b)
	}
	var hb hostInst
	for i := 0; i < x.tspan; i++ {
		lookupHostInst(x, i, &hb)
		b = appendBinding(b, hb.Host, hb.Inst, hb.hasInst)
		b = x.appendMember(b, i)
	}
	return b
}

// AppendSatisfying appends x's value as pmie -W prints it: for a truth,
// only the hosts and instances that make it true, with their values.
func (x *Node) AppendSatisfying(b []byte) []byte {
	if x.metrics == nil || x.valid == 0 {
		return x.AppendValue(b)
	}
	if x.sem != SemBoolean {
		return x.AppendAnnotated(b)
	}
	var it bindings
	if !it.start(x) {
		return append(b, " <no bindings available>"...)
	}
	for it.next() {
		b = appendBinding(b, it.hb.Host, it.hb.Inst, it.hb.hasInst)
		b = it.values.appendMember(b, it.i)
	}
	return b
}

// binds reports whether member i of the binding sub-expression x takes
// part in the bindings: it is true, or x is not a truth at all.
func (x *Node) binds(i int) bool {
	if x.sem == SemBoolean {
		if len(x.slot) == 0 {
			return false
		}
		off := x.slot[0] + i
		return off < len(x.tru) && x.tru[off] == True
	}
	return x.sem != SemUnknown
}

// hostInst is what lookupHostInst finds for one member of a value set.
type hostInst struct {
	Host, Conn, Inst string
	hasHost, hasInst bool
}

// lookupHostInst finds the host and instance of member nth of x, into
// hi. For min and max aggregates they are those of the member with the
// extreme value. (hi is written in place: returning the struct copies it
// slowly.)
func lookupHostInst(x *Node, nth int, hi *hostInst) {
	*hi = hostInst{}
	var m *Metric
	pick := -1
	extreme := x.Op.extremum()
	var want float64
	dom := x.dom
	if extreme {
		want = x.num0()
		x = x.Arg1
	}
	if (x.idom <= 0 && x.hdom <= 0) || x.metrics == nil {
		return
	}
	ms := x.metrics.m
	switch {
	case !extreme:
		pick = nth
		for mi := 0; ; mi++ {
			if mi >= len(ms) {
				return
			}
			m = ms[mi]
			if pick < m.nidom {
				break
			}
			if m.nidom > 0 {
				pick -= m.nidom
			}
		}
	case dom == lang.DomHost:
		vals := x.newestNums()
		for k := 0; k < x.tspan && k < len(vals); k++ {
			if vals[k] == want && k < len(ms) {
				m = ms[k]
				break
			}
		}
	case dom == lang.DomInst:
		vals := x.newestNums()
		for k := 0; k < x.tspan && k < len(vals); k++ {
			if vals[k] == want && len(ms) > 0 {
				pick, m = k, ms[0]
				break
			}
		}
	default:
		for k := 0; k < x.nsmpls && x.store == storeNum; k++ {
			s := x.nums(k)
			if len(s) > 0 && s[0] == want && len(ms) > 0 {
				pick, m = nth, ms[0]
				break
			}
		}
	}
	if m == nil {
		return
	}
	hi.Host, hi.Conn, hi.hasHost = m.Host, m.Conn, true
	if pick >= 0 && x.idom > 0 && m.inames != nil && pick < len(m.inames) {
		hi.Inst, hi.hasInst = m.inames[pick], true
	}
}

// findMetrics looks through the top-level conjuncts of y, left first, for
// one that involves metrics.
func findMetrics(y *Node) *Node {
	if y == nil {
		return nil
	}
	if y.metrics != nil {
		return y
	}
	if y.Op != OpAnd {
		return nil
	}
	if z := findMetrics(y.Arg1); z != nil {
		return z
	}
	return findMetrics(y.Arg2)
}

// findBindings finds the sub-expression of x whose members give the %h
// and %i bindings: the left-most one that still has hosts and instances.
func findBindings(x *Node) *Node {
	if x.metrics == nil {
		if y := findMetrics(x.Arg1); y != nil {
			x = y
		}
	}
	for x.metrics != nil && (x.idom <= 0 || x.hdom <= 0) {
		if x.Op.aggregate() {
			break
		}
		switch {
		case x.Arg1 != nil && x.sameMetrics:
			x = x.Arg1
		case x.Arg2 != nil:
			x = x.Arg2
		default:
			return x
		}
	}
	return x
}

// findValues finds below the binding sub-expression the values %v
// stands for: the first one that is not a truth.
func findValues(x *Node) *Node {
	for x.sem == SemBoolean && x.metrics != nil {
		switch {
		case x.Arg1 != nil && x.sameMetrics:
			x = x.Arg1
		case x.Arg2 != nil:
			x = x.Arg2
		default:
			return x
		}
	}
	return x
}

// formatCode finds the next %h, %i, %v or %c in s, returning its index and
// letter, or -1.
func formatCode(s string, from int) (int, byte) {
	for i := from; i+1 < len(s); i++ {
		if s[i] == '%' {
			switch s[i+1] {
			case 'h', 'i', 'v', 'c':
				return i, s[i+1]
			}
		}
	}
	return -1, 0
}

// Quoter puts the values of %h %c %i and %v into an action's text where
// the text is a language of its own: shell actions quote them for sh(1)
// (actions.ShellQuoter), so that no value can change the command. Begin
// starts a text; Literal appends the action's own text and Value one
// value; a value that cannot be put in safely is appended as it is with an
// error, and the action must not run. Opaque says, before a value, why
// only plain values may go where the text has reached ("" if any may).
type Quoter interface {
	Begin()
	Literal(b []byte, s string) []byte
	Value(b, v []byte) ([]byte, error)
	Opaque() string
}

// expandArgs expands and joins the arguments of an action for the rule
// being evaluated: an argument holding %h, %c, %i or %v is repeated once
// for each member that makes the rule true. With a Quoter, the values are
// put in through it; err says why the text must not be run. The text is
// rt's scratch buffer, valid until the next expansion.
func expandArgs(rt *Runtime, args []string, q Quoter) (text []byte, err error) {
	b := rt.scratch[:0]
	if q == nil {
		for _, a := range args {
			b = appendExpanded(b, rt.curr, a)
		}
	} else {
		q.Begin()
		for _, a := range args {
			b = appendQuoted(rt, b, a, q, &err)
		}
	}
	rt.scratch = b
	return b, err
}

// appendExpanded appends the expansion of one action argument.
func appendExpanded(b []byte, rule *Node, arg string) []byte {
	first, _ := formatCode(arg, 0)
	if first < 0 || rule == nil {
		return append(b, arg...)
	}
	var it bindings
	if !it.start(rule) {
		return append(b, arg...)
	}
	for it.next() {
		b = appendArg(b, arg, it.i, &it.hb, it.values)
	}
	return b
}

// appendQuoted appends the expansion of one action argument, its text and
// values put in by q. The first value q refuses is reported in *err.
func appendQuoted(rt *Runtime, b []byte, arg string, q Quoter, err *error) []byte {
	first, _ := formatCode(arg, 0)
	if first < 0 || rt.curr == nil {
		return q.Literal(b, arg)
	}
	var it bindings
	if !it.start(rt.curr) {
		return q.Literal(b, arg)
	}
	for it.next() {
		prev := 0
		for at, code := formatCode(arg, 0); at >= 0; at, code = formatCode(arg, prev) {
			b = q.Literal(b, arg[prev:at])
			var e error
			if code == 'v' {
				b, e = appendQuotedValue(rt, b, q, it.values, it.i)
			} else if rt.value = appendCode(rt.value[:0], code, it.i, &it.hb, it.values); it.hb.defines(code) {
				b, e = q.Value(b, rt.value)
			} else {
				// pmie's "<%i undefined>" is its text, not a value
				b = q.Literal(b, string(rt.value))
			}
			if e != nil && *err == nil {
				*err = fmt.Errorf("%%%c %w", code, e)
			}
			prev = at + 2
		}
		b = q.Literal(b, arg[prev:])
	}
	return b
}

// appendQuotedValue puts %v of member i of x into b through q as pmie
// writes it, sample by sample: the spaces between samples and the double
// quotes pmie puts around a string are text of the command (so the shell
// splits and unquotes them as it does pmie's), and only what they hold is
// a value. For plain numbers and strings the text is pmie's.
func appendQuotedValue(rt *Runtime, b []byte, q Quoter, x *Node, i int) ([]byte, error) {
	var err error
	put := func(v []byte) {
		var e error
		if b, e = q.Value(b, v); e != nil && err == nil {
			err = e
		}
	}
	str := func(s string) {
		b = q.Literal(b, `"`)
		rt.value = append(rt.value[:0], s...)
		put(rt.value)
		b = q.Literal(b, `"`)
	}
	switch {
	case x.sem == SemChar:
		if i == 0 {
			str(x.text)
		}
	case (x.sem == SemInstant || x.sem == SemDiscrete) && x.Op == OpFetch && x.store == storeStr:
		for k := 0; k < x.nsmpls; k++ {
			if k > 0 {
				b = q.Literal(b, " ")
			}
			s, _ := x.strAt(i, k)
			str(s)
		}
	case x.sem == SemNumVar || x.sem == SemNumConst || x.sem == SemUnknown ||
		x.sem == SemBoolean || x.sem == SemInstant || x.sem == SemDiscrete:
		for k := 0; k < x.nsmpls; k++ {
			if k > 0 {
				b = q.Literal(b, " ")
			}
			if x.sem == SemBoolean {
				rt.value = append(rt.value[:0], x.truthAt(i, k).String()...)
			} else {
				rt.value = x.appendNum(rt.value[:0], i, k)
			}
			put(rt.value)
		}
	default:
		rt.value = x.appendValue(rt.value[:0], i)
		put(rt.value)
	}
	return b, err
}

// quotingWarnings lists the %h %i %v and %c of args that stand where q
// can take only plain values.
func quotingWarnings(q Quoter, args []string) []string {
	var out []string
	var b []byte
	q.Begin()
	for _, a := range args {
		prev := 0
		for at, code := formatCode(a, 0); at >= 0; at, code = formatCode(a, prev) {
			b = q.Literal(b, a[prev:at])
			if where := q.Opaque(); where != "" {
				out = append(out, fmt.Sprintf("%%%c stands %s: the action does not run "+
					"when the value there is not plain text (letters, digits and _ . / : @ %% + -)", code, where))
			}
			b, _ = q.Value(b, []byte("x"))
			prev = at + 2
		}
		b = q.Literal(b, a[prev:])
	}
	return out
}

// appendArg appends arg with its %h %i %v %c replaced by the binding of
// member i.
func appendArg(b []byte, arg string, i int, hb *hostInst, x2 *Node) []byte {
	prev := 0
	for at, code := formatCode(arg, 0); at >= 0; at, code = formatCode(arg, prev) {
		b = append(b, arg[prev:at]...)
		b = appendCode(b, code, i, hb, x2)
		prev = at + 2
	}
	return append(b, arg[prev:]...)
}

// appendCode appends what %h, %i, %v or %c stands for in member i.
func appendCode(b []byte, code byte, i int, hb *hostInst, x2 *Node) []byte {
	switch code {
	case 'h':
		return appendOr(b, hb.Host, hb.hasHost, "<%h undefined>")
	case 'i':
		return appendOr(b, hb.Inst, hb.hasInst, "<%i undefined>")
	case 'v':
		return x2.appendValue(b, i)
	case 'c':
		return appendOr(b, hb.Conn, hb.hasHost, "<%c undefined>")
	}
	return b
}

// defines reports whether hb has what %h, %i or %c (code) stands for.
func (hb *hostInst) defines(code byte) bool {
	if code == 'i' {
		return hb.hasInst
	}
	return hb.hasHost
}

// appendOr appends s if ok, otherwise instead.
func appendOr(b []byte, s string, ok bool, instead string) []byte {
	if ok {
		return append(b, s...)
	}
	return append(b, instead...)
}

// bindings walks the members of a rule's binding sub-expression that make
// the rule true: after start, each call of next moves to the next one,
// giving its position i, its host and instance hb, and the node holding
// the values %v stands for.
type bindings struct {
	x1, values *Node
	i          int
	hb         hostInst
}

// start begins the walk over rule's bindings, reporting false when they
// are unknown.
func (it *bindings) start(rule *Node) bool {
	it.x1 = findBindings(rule)
	it.values = findValues(it.x1)
	it.i = -1
	return it.x1.valid != 0
}

// next moves to the next member that makes the rule true, reporting false
// when there is none.
func (it *bindings) next() bool {
	x := it.x1
	if x.sem == SemBoolean {
		// binds, for every member: the next true one
		if len(x.slot) == 0 {
			return false
		}
		tru := x.tru[min(x.slot[0], len(x.tru)):]
		tru = tru[:min(x.tspan, len(tru))]
		for it.i++; it.i < len(tru); it.i++ {
			if tru[it.i] == True {
				lookupHostInst(x, it.i, &it.hb)
				return true
			}
		}
		return false
	}
	for it.i++; it.i < x.tspan; it.i++ {
		if x.binds(it.i) {
			lookupHostInst(x, it.i, &it.hb)
			return true
		}
	}
	return false
}

// bindingsOf lists the members that make rule true, for actions that want
// them structured.
func bindingsOf(rule *Node) []Binding {
	var out []Binding
	var it bindings
	if !it.start(rule) {
		return nil
	}
	for it.next() {
		out = append(out, Binding{Host: it.hb.Host, Conn: it.hb.Conn, Inst: it.hb.Inst,
			Value: string(it.values.appendValue(nil, it.i))})
	}
	return out
}
