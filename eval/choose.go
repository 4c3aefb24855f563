package eval

import (
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

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

// chooser makes the evaluator of a node from its operands' arity. The
// evaluators a chooser gives are made once, when the operator table is
// built, and shared by every node of their shape: one copy of each stays
// in the processor's cache however many nodes use it.
type chooser func(x *Node, ar arity, rt *Runtime) func(*Node)

// fixed is a chooser for an evaluator that does not depend on arity.
func fixed(f func(*Node)) chooser {
	return func(*Node, arity, *Runtime) func(*Node) { return f }
}

// single1 is a chooser for a unary evaluator with a single-value variant.
func single1(make func(single bool) func(*Node)) chooser {
	set, one := make(false), make(true)
	return func(_ *Node, ar arity, _ *Runtime) func(*Node) {
		if ar.first() {
			return one
		}
		return set
	}
}

// byArity is a chooser for a binary evaluator made from arity.
func byArity(make func(arity) func(*Node)) chooser {
	var fs [4]func(*Node)
	for ar := range fs {
		fs[ar] = make(arity(ar))
	}
	return func(_ *Node, ar arity, _ *Runtime) func(*Node) { return fs[ar&3] }
}

// The choosers of the operator table's rows that are not fixed, single1
// or byArity. The evaluators of rules and rulesets are their Runtime's.
var (
	ruleChooser    chooser = func(_ *Node, _ arity, rt *Runtime) func(*Node) { return rt.evaluators().rule }
	rulesetChooser chooser = func(_ *Node, _ arity, rt *Runtime) func(*Node) { return rt.evaluators().ruleset }
	fetchChooser   chooser = func(x *Node, _ arity, _ *Runtime) func(*Node) { return fetchEval(x) }
)

// runtimeEvals are the evaluators bound to a Runtime.
type runtimeEvals struct {
	rule, ruleset func(*Node)
}

// evaluators returns rt's evaluators of rules and rulesets, made once.
func (rt *Runtime) evaluators() *runtimeEvals {
	if rt.evals == nil {
		rt.evals = &runtimeEvals{rule: ruleEval(rt), ruleset: rulesetEval(rt)}
	}
	return rt.evals
}

// arithChooser is the chooser of an arithmetic operator.
func arithChooser(op Op) chooser {
	return byArity(func(ar arity) func(*Node) { return arithmetic(op, ar) })
}

// relChooser is the chooser of a numeric comparison.
func relChooser(op Op) chooser {
	return byArity(func(ar arity) func(*Node) { return relational(op, ar) })
}

// unaryNum is the chooser of a unary operator over numbers.
func unaryNum(f func(float64) float64) chooser {
	return single1(func(one bool) func(*Node) {
		return unaryOp((*Node).newestNums, (*Node).newestNums, f, one)
	})
}

// unaryTruth is the chooser of a unary operator over truths.
func unaryTruth(f func(Truth) Truth) chooser {
	return single1(func(one bool) func(*Node) {
		return unaryOp((*Node).newestTruths, (*Node).newestTruths, f, one)
	})
}

// strCompare is the chooser of == (eq) or != between strings.
func strCompare(eq bool) chooser {
	return byArity(func(ar arity) func(*Node) { return stringCompare(eq, ar) })
}

// logicalChooser is the chooser of && or ||: f combines two truths, one
// decides when the other operand is missing altogether.
func logicalChooser(f func(a, b Truth) Truth, one func(Truth) Truth) chooser {
	return byArity(func(ar arity) func(*Node) { return logical(f, one, ar) })
}

// domainEval is the chooser of an aggregate or quantifier: its row's
// reduction along the node's domain (made once per row and domain, when
// the table is built: see domainEvals).
func domainEval(x *Node, _ arity, _ *Runtime) func(*Node) {
	return domainEvals[x.Op][x.dom]
}

// domainEvals holds, for each aggregate and quantifier, its evaluators
// along hosts, instances and samples.
var domainEvals [numOps][lang.DomSample + 1]func(*Node)

// makeDomainEvals fills domainEvals from the operator table.
func makeDomainEvals() {
	for op := range numOps {
		if !op.overDomain() {
			continue
		}
		r := ops[op].reduce
		domainEvals[op][lang.DomHost] = acrossHosts(r)
		domainEvals[op][lang.DomInst] = acrossInstances(r)
		domainEvals[op][lang.DomSample] = acrossSamples(r)
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
	c := ops[x.Op].eval
	if c == nil {
		return nil
	}
	return c(x, arityOf(x), rt)
}
