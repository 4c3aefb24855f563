package eval

import (
	"strconv"

	"github.com/gopcp/pmie/internal/posixre"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// Source is the metadata of one host's metrics, as binding a rule needs
// it: an archive (or set of archives of one host) or a pmcd.
type Source interface {
	// Host is the host name the source reports.
	Host() string
	LookupName(name string) (pmapi.PMID, error)
	LookupDesc(id pmapi.PMID) (pmapi.Desc, error)
	// InDom lists the instances of indom: for an archive every instance
	// that appears in it at any time.
	InDom(indom pmapi.InDom) ([]pmapi.Instance, error)
}

// Env is how rules are bound to their sources of metrics.
type Env struct {
	// Archive is set when the sources are archives: metadata problems are
	// then final, where live they are retried.
	Archive bool
	// DefaultConn is the connection of the default host (-h, the first
	// archive, or the local pmcd).
	DefaultConn string
	// ArchiveOf maps a host named in a rule to the archive holding it
	// (archive mode).
	ArchiveOf func(host string) (conn string, ok bool)
	// Source opens (or returns the already open) metadata source for a
	// connection. An error means the host cannot be reached now.
	Source func(conn string) (Source, error)
	// Runtime is shared by every rule bound in this Env.
	Runtime *Runtime
}

// Prepared is an action's arguments after checking: what remains of them,
// for syslog the priority and tag, and for shell the Quoter its values go
// in through (nil: as they are).
type Prepared struct {
	Args     []string
	Priority int
	Tag      string
	Quoter   Quoter
	// Warnings are pmie's warnings about the arguments.
	Warnings []string
}

// Builder constructs the runtime trees of rules, one statement at a time,
// as pmie's parser actions do: checking operands, inheriting domains from
// the primary operand, choosing evaluators for the operands' shapes and
// folding constant sub-expressions.
type Builder struct {
	Env *Env
	// Report is given every problem found building rules, at the node it
	// concerns (diag.go), with pmie's wording for it.
	Report func(*lang.Diagnostic)
	// Prepare checks and preprocesses an action's arguments when the rule
	// is built (syslog's -p and -t options, for instance).
	Prepare func(op Op, args []string) Prepared

	errs    int  // errors in the current statement
	here    here // where in a rule file, for diagnostics
	nameGen int  // counter for names of unnamed expressions
	rules   int  // cond -> action rules built
	inits   int  // metrics looked up (see MetricInits)
	metrics []*Metric
}

// Begin starts a new statement.
func (b *Builder) Begin() { b.errs = 0 }

// MetricInits is how many times a metric has been looked up in its
// source so far, at a statement or a retry: pmie opens (and closes) a
// PMAPI context for each, which numbers every context it opens after
// (see package rules/agent).
func (b *Builder) MetricInits() int { return b.inits }

// Rules is the number of rules (cond -> action) built so far, counting
// each rule of a ruleset and its unknown and otherwise clauses, as pmie
// counts them for pmcd.pmie.numrules.
func (b *Builder) Rules() int { return b.rules }

// Errors is the number of errors in the current statement.
func (b *Builder) Errors() int { return b.errs }

// NextName makes up the name of an unnamed expression: expr_1, expr_2, ...
func (b *Builder) NextName() string {
	b.nameGen++
	return "expr_" + strconv.Itoa(b.nameGen)
}

// NumConst is a numeric constant with optional units, scaled to canonical
// units.
func (b *Builder) NumConst(v float64, u pmapi.Units) *Node {
	x := newNode(OpNop, nil, nil, -1, -1, -1, 1, SemNumConst)
	x.alloc()
	x.units = Units{Units: canon(u), Known: true}
	x.valid = 1
	x.num[0] = scale(u) * v
	return x
}

// StrConst is a string constant.
func (b *Builder) StrConst(s string) *Node {
	x := newNode(OpNop, nil, nil, -1, -1, -1, 1, SemChar)
	x.valid = 1
	x.text = s
	x.tspan = len(s) + 1
	x.slot = []int{0}
	x.stamp = make([]float64, 1)
	return x
}

// BoolConst is true or false.
func (b *Builder) BoolConst(t Truth) *Node {
	x := newNode(OpNop, nil, nil, -1, -1, -1, 1, SemBoolean)
	x.alloc()
	x.valid = 1
	x.tru[0] = t
	return x
}

// Var is a reserved variable ($delta, $hour, ...) whose value is held in
// the one-element buffer v.
func (b *Builder) Var(v []float64) *Node {
	x := newNode(OpVar, nil, nil, -1, -1, -1, 1, SemNumVar)
	x.store = storeNum
	x.num = v
	x.slot = []int{0}
	x.stamp = make([]float64, 1)
	x.valid = 1
	return x
}

// Macro is a use of a macro whose value is the constant or variable x: a
// numeric constant is copied, anything else shared. The copy has no units,
// as pmie's has (its value is in canonical units already): only
// --check-units looks at the units the macro was given (Declared).
func (b *Builder) Macro(x *Node) *Node {
	if x == nil {
		return nil
	}
	if x.sem == SemNumConst && x.Op == OpNop {
		y := newNode(OpNop, nil, nil, -1, -1, -1, 1, SemNumConst)
		y.alloc()
		y.num[0] = x.num0()
		y.declared = x.declared
		if y.declared == nil {
			y.declared = &x.units
		}
		y.valid = 1
		return y
	}
	return x
}

// MaxSamples is the largest sample number a window may reach (pmie has no
// limit, and allocates whatever is asked).
const MaxSamples = 1 << 16

// Fetch is a metric with optional host and instance qualifiers and sample
// window @t1..t2 (both 0 for the newest sample only).
func (b *Builder) Fetch(name string, hosts, insts []string, t1, t2 int) *Node {
	if t1 > t2 {
		t1, t2 = t2, t1
	}
	if t1 < 0 || t2 > MaxSamples {
		b.synerr("sample number %d out of range (0 to %d)", t2, MaxSamples)
		return nil
	}
	fsz, dsz := t2-t1+1, 0
	if t1 != 0 {
		fsz, dsz = t1+1, t2-t1+1
	}
	nh := max(len(hosts), 1)
	set := &metricSet{m: make([]*Metric, nh)}
	sum := 0
	for i := range set.m {
		m := &Metric{Name: name, nidom: -1}
		set.m[i] = m
		switch {
		case len(hosts) == 0:
			m.Conn = b.Env.DefaultConn
		case b.Env.Archive:
			m.Host = hosts[i]
			m.Conn = "unknown archive"
			if b.Env.ArchiveOf != nil {
				if c, ok := b.Env.ArchiveOf(hosts[i]); ok {
					m.Conn = c
				}
			}
		default:
			m.Conn = hosts[i]
		}
		if len(insts) > 0 {
			m.specinst = len(insts)
			m.iids = make([]int32, len(insts))
			m.inames = append([]string(nil), insts...)
		}
		if b.errs == 0 {
			if b.initMetric(m, false) < 0 {
				b.errs++
			}
			if m.nidom > 0 {
				sum += m.nidom
			}
		}
	}
	if sum == 0 {
		sum = -1
	}
	if b.errs != 0 {
		return nil
	}
	x := newNode(OpFetch, nil, nil, nh, sum, fsz, fsz, SemUnknown)
	x.metrics = set
	x.alloc()
	b.findEval(x)
	x.reshapeFetch()
	for _, m := range set.m {
		m.node = x
		b.metrics = append(b.metrics, m)
	}
	if dsz != 0 {
		y := newNode(OpDelay, x, nil, x.hdom, x.idom, dsz, dsz, x.sem)
		y.alloc()
		b.findEval(y)
		return y
	}
	return x
}

// Unary is -x, !x or instant x.
func (b *Builder) Unary(op Op, a *Node) *Node {
	if a == nil {
		return nil
	}
	if op == OpInstant {
		a.sem = SemInstant
	}
	x := newNode(op, a, nil, a.hdom, a.idom, a.tdom, abs(a.tdom), a.sem)
	x.alloc()
	b.findEval(x)
	b.fold(x)
	return x
}

// Rate is rate x: the operand must be numeric.
func (b *Builder) Rate(a *Node) *Node {
	if a == nil {
		return nil
	}
	if a.sem == SemBoolean || a.sem == SemChar {
		b.synerr("operator \"%s\" requires numeric valued argument", OpRate)
		return nil
	}
	return b.merge(OpRate, a)
}

// Edge is rising x or falling x: the operand must be a truth.
func (b *Builder) Edge(op Op, a *Node) *Node {
	if a == nil {
		return nil
	}
	if a.sem != SemBoolean {
		b.synerr("operator \"%s\" requires boolean valued argument", op)
		return nil
	}
	return b.merge(op, a)
}

// merge builds an operator over the two newest samples of its operand.
func (b *Builder) merge(op Op, a *Node) *Node {
	if a.nsmpls < 2 {
		a.setSamples(2)
	}
	x := newNode(op, a, nil, a.hdom, a.idom, a.tdom, abs(a.tdom), a.sem)
	x.alloc()
	b.findEval(x)
	return x
}

// checkDoms checks that two set-valued operands have domains of the same
// size.
func (b *Builder) checkDoms(a1, a2 *Node) bool {
	if a1.nvals != 1 && a2.nvals != 1 {
		if a1.hdom != a2.hdom {
			b.synerr("host domains have different size (%d and %d)", a1.hdom, a2.hdom)
			return false
		}
		if a1.idom != a2.idom {
			b.synerr("instance domains have different size (%d and %d)", a1.idom, a2.idom)
			return false
		}
		if a1.tdom != a2.tdom {
			b.synerr("time domains have different size (%d and %d)", a1.tdom, a2.tdom)
			return false
		}
	}
	return true
}

// isString reports whether x has string values.
func (x *Node) isString() bool {
	switch x.sem {
	case SemChar:
		return true
	case SemUnknown, SemInstant, SemDiscrete:
		// pmie looks at the metric of each host in the host domain: none
		// once hosts are aggregated (hdom -1)
		if x.metrics != nil {
			for i, m := range x.metrics.m {
				if i >= x.hdom {
					break
				}
				if m.Desc.Type == pmapi.TypeString {
					return true
				}
			}
		}
	}
	return false
}

// Rel is a comparison. == and != compare strings when both operands are
// strings.
func (b *Builder) Rel(op Op, a1, a2 *Node) *Node {
	if a1 == nil || a2 == nil {
		return nil
	}
	b.checkDoms(a1, a2)
	if op == OpEq || op == OpNeq {
		s1, s2 := a1.isString(), a2.isString()
		if s1 != s2 {
			b.synerr("operands have mixed string and arithmetic types")
		} else if s1 {
			if op == OpEq {
				op = OpEqStr
			} else {
				op = OpNeqStr
			}
		}
	}
	arg := primary(a1, a2)
	x := newNode(op, a1, a2, arg.hdom, arg.idom, arg.tdom, abs(arg.tdom), SemBoolean)
	x.alloc()
	if x.tspan > 0 {
		for i := 0; i < x.nsmpls && i < len(x.tru); i++ {
			x.tru[i] = Unknown
		}
	}
	b.findEval(x)
	b.fold(x)
	return x
}

// Binary is an arithmetic operator, && or ||, or match_inst and
// nomatch_inst (whose second operand is the pattern, a string constant).
func (b *Builder) Binary(op Op, a1, a2 *Node) *Node {
	if a1 == nil {
		return nil
	}
	arg := a1
	if a2 != nil {
		if op != OpMatch && op != OpNomatch {
			b.checkDoms(a1, a2)
			arg = primary(a1, a2)
		} else {
			re, err := posixre.Compile(a2.text)
			if err != nil {
				b.plain(lang.Error, "illegal regular expression \""+a2.text+"\"", "illegal regular expression \""+a2.text+"\"")
				return nil
			}
			a2.re = re
			a2.tspan = 1
			a2.sem = SemRegex
		}
	}
	x := newNode(op, a1, a2, arg.hdom, arg.idom, arg.tdom, abs(arg.tdom), arg.sem)
	x.alloc()
	b.findEval(x)
	b.fold(x)
	return x
}

// Partial is what pmie builds of &&, || or an action list, op, when only
// its left operand a1 could be built (the right one had an error; pmie
// drops arithmetic operators without both operands): a node with
// a1's domains, so that the checks of the operators above it (a rule's
// single truth, other operands' domains) report what pmie reports. The
// statement has an error already, so the node is never evaluated; it has
// no evaluator. Without an error to account for it, it is nil.
func (b *Builder) Partial(op Op, a1 *Node) *Node {
	if b.errs == 0 {
		return nil
	}
	return newNode(op, a1, nil, a1.hdom, a1.idom, a1.tdom, abs(a1.tdom), a1.sem)
}

// Domain is an aggregate or quantifier, op, over dom.
func (b *Builder) Domain(op Op, dom lang.Domain, a *Node) *Node {
	if a == nil {
		return nil
	}
	hdom, idom, tdom := a.hdom, a.idom, a.tdom
	switch dom {
	case lang.DomHost:
		if hdom == -1 {
			b.synerr("no host domain")
			return nil
		}
		hdom, idom = -1, -1
	case lang.DomInst:
		idom = -1
	case lang.DomSample:
		if tdom == -1 {
			b.synerr("no time domain")
			return nil
		}
		tdom = -1
	}
	if ops[op].arith {
		if a.metrics != nil && len(a.metrics.m) > 0 && !a.metrics.m[0].Desc.Type.Numeric() {
			b.synerr("arithmetic (not %s) operand required for aggregate operator", a.metrics.m[0].Desc.Type)
			return nil
		}
	}
	sem := a.sem
	if ops[op].reduce.count != nil {
		sem = SemInstant
	}
	x := newNode(op, a, nil, hdom, idom, tdom, abs(tdom), sem)
	x.dom = dom
	x.alloc()
	if ops[op].reduce.count != nil {
		x.units = Units{Units: pmapi.Units{DimCount: 1}, Known: true}
	}
	b.findEval(x)
	return x
}

// Percent is the N%_host, N%_inst or N%_sample quantifier.
func (b *Builder) Percent(pcnt float64, dom lang.Domain, a *Node) *Node {
	if a == nil {
		return nil
	}
	x := b.Domain(OpPcnt, dom, a)
	if x == nil {
		return nil
	}
	c := newNode(OpNop, nil, nil, -1, -1, -1, 1, SemNumConst)
	c.alloc()
	c.num[0] = pcnt / 100
	c.valid = 1
	x.Arg2 = c
	return x
}

// Rule is cond -> action. The condition must be a single truth.
func (b *Builder) Rule(cond, act *Node) *Node {
	if cond == nil {
		return act
	}
	if act == nil {
		return cond
	}
	b.ruleCond(cond)
	b.rules++
	x := newNode(OpRule, cond, act, -1, -1, -1, 1, SemBoolean)
	x.alloc()
	b.findEval(x)
	return x
}

// ruleCond checks the condition of a rule being built.
func (b *Builder) ruleCond(cond *Node) {
	if cond.nvals != 1 {
		b.synerr("rule condition must have a single boolean value")
	}
}

// Ruleset is ruleset r1 else r2 ... [unknown -> a] [otherwise -> a]; the
// unknown and otherwise actions may be nil.
func (b *Builder) Ruleset(rules []*Node, unknown, otherwise *Node) *Node {
	if len(rules) == 0 {
		return nil
	}
	list := rules[len(rules)-1]
	for i := len(rules) - 2; i >= 0; i-- {
		list = b.Binary(OpOr, rules[i], list)
	}
	var other *Node
	if unknown != nil || otherwise != nil {
		var u, o *Node
		if unknown != nil {
			u = b.Rule(b.BoolConst(True), unknown)
		} else {
			u = b.BoolConst(False)
		}
		if otherwise != nil {
			o = b.Rule(b.BoolConst(True), otherwise)
		} else {
			o = b.BoolConst(False)
		}
		other = b.Binary(OpOther, u, o)
	}
	return b.Binary(OpRuleset, list, other)
}

// Action is an action leaf (print, shell, alarm, syslog, stomp) with its
// arguments and optional holdoff (a numeric constant in seconds, or nil).
func (b *Builder) Action(op Op, args []string, holdoff *Node) *Node {
	if len(args) == 0 {
		return nil
	}
	argNode := newNode(OpArg, nil, nil, -1, 1, -1, 1, SemChar)
	argNode.slot = []int{0}
	argNode.stamp = make([]float64, 1)
	st := &actionState{rt: b.Env.Runtime, args: args}
	if b.Prepare != nil {
		p := b.Prepare(op, args)
		for _, w := range p.Warnings {
			b.warn(w)
		}
		st.args, st.priority, st.tag, st.quoter = p.Args, p.Priority, p.Tag, p.Quoter
		if p.Quoter != nil && b.Report != nil {
			for _, w := range quotingWarnings(p.Quoter, p.Args) {
				b.warn(w)
			}
		}
	}
	if holdoff != nil {
		st.hasHold = true
		st.holdoff = holdoff.num0()
	}
	x := newNode(op, argNode, holdoff, -1, -1, -1, 1, SemBoolean)
	x.alloc()
	x.act = st
	b.findEval(x)
	return x
}

// Actions joins two actions with & (OpActSeq) or | (OpActAlt).
func (b *Builder) Actions(op Op, a1, a2 *Node) *Node {
	if a1 == nil {
		return nil
	}
	x := newNode(op, a1, a2, -1, -1, -1, 1, SemBoolean)
	x.alloc()
	b.findEval(x)
	return x
}

// fold evaluates x now if its operands are all constants, making it a
// constant.
func (b *Builder) fold(x *Node) {
	if x.Op.action() || x.Op == OpArg || !x.Op.evaluable() || x.Arg1 == nil || x.Arg1.Op != OpNop {
		return
	}
	if x.Arg2 != nil && x.Arg2.Op != OpNop {
		return
	}
	if x.eval != nil {
		x.eval(x)
	}
	x.Op = OpNop
	x.eval = nil
	x.Arg1, x.Arg2 = nil, nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
