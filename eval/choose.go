package eval

import "github.com/gopcp/pmie/pmapi"

// single reports whether operand a is read as a single value: it is an
// aggregate, a string constant, or a one-value set whose metric has no
// instance domain or names its instances (pmie's arity test, which looks
// at the first metric only).
func single(a *Node) bool {
	if a == nil {
		return false
	}
	if a.Op.aggregate() {
		return true
	}
	if a.tspan == 1 {
		if a.metrics == nil || len(a.metrics.m) == 0 {
			return true
		}
		// Before a metric is initialised its descriptor is zero, which
		// is not PM_INDOM_NULL.
		m := a.metrics.m[0]
		return m.Desc.InDom == pmapi.InDomNull || m.specinst != 0
	}
	return a.sem == SemChar
}

// arityOf computes the arity of x's operands.
func arityOf(x *Node) arity {
	var a arity
	if single(x.Arg1) {
		a |= 1
	}
	if single(x.Arg2) {
		a |= 2
	}
	return a
}

// findEval chooses x's evaluator for its operator and the shapes of its
// operands.
func (b *Builder) findEval(x *Node) {
	x.eval = chooseEval(x, b.Env.Runtime)
}

// chooser makes the evaluator of a node from its operands' arity.
type chooser func(x *Node, ar arity, rt *Runtime) func(*Node)

// fixed is a chooser for an evaluator that does not depend on arity.
func fixed(f func(*Node)) chooser {
	return func(*Node, arity, *Runtime) func(*Node) { return f }
}

// single1 is a chooser for a unary evaluator with a single-value variant.
func single1(make func(single bool) func(*Node)) chooser {
	return func(_ *Node, ar arity, _ *Runtime) func(*Node) { return make(ar.first()) }
}

// byArity is a chooser for a binary evaluator made from op and arity.
func byArity(op Op, make func(Op, arity) func(*Node)) chooser {
	return func(_ *Node, ar arity, _ *Runtime) func(*Node) { return make(op, ar) }
}

// evaluators gives, for each operator that is evaluated, how to choose
// its evaluator; TestEvaluatorTable checks that every operator has one.
var evaluators = map[Op]chooser{
	OpRule:    func(_ *Node, _ arity, rt *Runtime) func(*Node) { return ruleEval(rt) },
	OpRuleset: func(_ *Node, _ arity, rt *Runtime) func(*Node) { return rulesetEval(rt) },
	OpFetch:   func(x *Node, _ arity, _ *Runtime) func(*Node) { return fetchEval(x) },
	OpDelay:   single1(delay),
	OpRate:    single1(rate),
	OpInstant: single1(func(one bool) func(*Node) {
		return unaryOp((*Node).newestNums, (*Node).newestNums, same, one)
	}),
	OpNeg: single1(func(one bool) func(*Node) {
		return unaryOp((*Node).newestNums, (*Node).newestNums, neg, one)
	}),
	OpNot: single1(func(one bool) func(*Node) {
		return unaryOp((*Node).newestTruths, (*Node).newestTruths, Not, one)
	}),
	OpRise:    single1(func(one bool) func(*Node) { return edge(true, one) }),
	OpFall:    single1(func(one bool) func(*Node) { return edge(false, one) }),
	OpAdd:     byArity(OpAdd, arithmetic),
	OpSub:     byArity(OpSub, arithmetic),
	OpMul:     byArity(OpMul, arithmetic),
	OpDiv:     byArity(OpDiv, arithmetic),
	OpEq:      byArity(OpEq, relational),
	OpNeq:     byArity(OpNeq, relational),
	OpLt:      byArity(OpLt, relational),
	OpLte:     byArity(OpLte, relational),
	OpGt:      byArity(OpGt, relational),
	OpGte:     byArity(OpGte, relational),
	OpEqStr:   func(_ *Node, ar arity, _ *Runtime) func(*Node) { return stringCompare(true, ar) },
	OpNeqStr:  func(_ *Node, ar arity, _ *Runtime) func(*Node) { return stringCompare(false, ar) },
	OpAnd:     func(_ *Node, ar arity, _ *Runtime) func(*Node) { return logical(And, andOne, ar) },
	OpOr:      func(_ *Node, ar arity, _ *Runtime) func(*Node) { return logical(Or, orOne, ar) },
	OpMatch:   fixed(matchInst),
	OpNomatch: fixed(matchInst),
	OpActSeq:  fixed(actSeq),
	OpActAlt:  fixed(actAlt),
	OpShell:   fixed(actLeaf),
	OpAlarm:   fixed(actLeaf),
	OpSyslog:  fixed(actLeaf),
	OpPrint:   fixed(actLeaf),
	OpStomp:   fixed(actLeaf),
}

func init() {
	for op := OpSumHost; op <= OpCountTime; op++ {
		if !op.aggregate() && !(op >= OpAllHost && op <= OpPcntTime) {
			continue
		}
		r := reductionOf(op)
		switch op.domainOf() {
		case DomHost:
			evaluators[op] = fixed(acrossHosts(r))
		case DomInst:
			evaluators[op] = fixed(acrossInstances(r))
		default:
			evaluators[op] = fixed(acrossSamples(r))
		}
	}
}

// fetchEval picks the fetch evaluator for the first host's metric: one
// value per host, every instance, or the instances the rule names.
func fetchEval(x *Node) func(*Node) {
	m := x.metrics.m[0]
	switch {
	case m.Desc.InDom == pmapi.InDomNull || m.conv == 0:
		return fetchSingle
	case m.specinst == 0:
		return fetchAll
	}
	return fetchSome
}

// chooseEval picks the evaluator of x; nodes that are not evaluated
// (constants, the parts of rulesets and actions) have none.
func chooseEval(x *Node, rt *Runtime) func(*Node) {
	c := evaluators[x.Op]
	if c == nil {
		return nil
	}
	return c(x, arityOf(x), rt)
}
