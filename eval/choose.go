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

// chooseEval picks the evaluator of x.
func chooseEval(x *Node, rt *Runtime) func(*Node) {
	ar := arityOf(x)
	one := ar.first()
	switch x.Op {
	case OpRule:
		return ruleEval
	case OpRuleset:
		return rulesetEval(rt)
	case OpFetch:
		m := x.metrics.m[0]
		switch {
		case m.Desc.InDom == pmapi.InDomNull || m.conv == 0:
			return fetchSingle
		case m.specinst == 0:
			return fetchAll
		}
		return fetchSome
	case OpDelay:
		return delay(one)
	case OpRate:
		return rate(one)
	case OpInstant:
		return unaryOp((*Node).newestNums, (*Node).newestNums, same, one)
	case OpNeg:
		return unaryOp((*Node).newestNums, (*Node).newestNums, neg, one)
	case OpNot:
		return unaryOp((*Node).newestTruths, (*Node).newestTruths, Not, one)
	case OpRise:
		return edge(true, one)
	case OpFall:
		return edge(false, one)
	case OpAdd:
		return arithmetic(OpAdd, ar)
	case OpSub:
		return arithmetic(OpSub, ar)
	case OpMul:
		return arithmetic(OpMul, ar)
	case OpDiv:
		return arithmetic(OpDiv, ar)
	case OpEq:
		return relational(OpEq, ar)
	case OpNeq:
		return relational(OpNeq, ar)
	case OpLt:
		return relational(OpLt, ar)
	case OpLte:
		return relational(OpLte, ar)
	case OpGt:
		return relational(OpGt, ar)
	case OpGte:
		return relational(OpGte, ar)
	case OpEqStr:
		return stringCompare(true, ar)
	case OpNeqStr:
		return stringCompare(false, ar)
	case OpAnd:
		return logical(And, andOne, ar)
	case OpOr:
		return logical(Or, orOne, ar)
	case OpMatch, OpNomatch:
		return matchInst
	case OpOther:
		return nil
	case OpActSeq:
		return actSeq
	case OpActAlt:
		return actAlt
	case OpShell, OpAlarm, OpSyslog, OpPrint, OpStomp:
		return actLeaf
	case OpArg:
		return nil
	}
	if x.Op >= OpSumHost && x.Op <= OpMinTime || x.Op >= OpAllHost && x.Op <= OpCountTime {
		r := reductionOf(x.Op)
		switch x.Op.domainOf() {
		case DomHost:
			return acrossHosts(r)
		case DomInst:
			return acrossInstances(r)
		}
		return acrossSamples(r)
	}
	return nil
}
