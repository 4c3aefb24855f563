package eval

// arity says which operands of a node are single values (read as the first
// value of their newest sample) rather than sets: bit 1 for the first
// operand, bit 2 for the second.
type arity uint8

const (
	arityN1 arity = 2 // second operand single
	arity1N arity = 1 // first operand single
	arity11 arity = 3 // both single
	arityNN arity = 0 // both sets
)

func (a arity) first() bool  { return a&1 != 0 }
func (a arity) second() bool { return a&2 != 0 }

// newerStamp is the later of the newest timestamps of two operands.
func newerStamp(a, b *Node) float64 {
	s1, s2 := a.stamp[0], b.stamp[0]
	if s1 > s2 {
		return s1
	}
	return s2
}

// stamp0 is the timestamp of the newest sample of x (0 for constants).
func (x *Node) stamp0() float64 {
	if len(x.stamp) == 0 {
		return 0
	}
	return x.stamp[0]
}

// binaryReady evaluates both operands, makes room for a new sample and
// reports whether x can be computed from them, by pmie's rules for each
// arity. When it cannot, x becomes unknown.
func binaryReady(x *Node, ar arity) bool {
	a1, a2 := x.Arg1, x.Arg2
	evalArg(a1)
	evalArg(a2)
	x.rotate()
	ok := a1.valid != 0 && a2.valid != 0
	if ok {
		switch ar {
		case arityNN:
			ok = x.tspan > 0 && x.tspan == a1.tspan && x.tspan == a2.tspan
		case arityN1:
			ok = x.tspan > 0 && x.tspan == a1.tspan
		case arity1N:
			ok = x.tspan > 0 && x.tspan == a2.tspan
		}
	}
	if !ok {
		x.valid = 0
	}
	return ok
}

// count is how many values a binary node with arity ar computes.
func (x *Node) count(ar arity) int {
	if ar == arity11 {
		return 1
	}
	return x.tspan
}

// numAt returns value i of the newest sample of a numeric operand, or its
// first value when it is single.
func numAt(vals []float64, single bool, i int) float64 {
	if single {
		i = 0
	}
	if i < len(vals) {
		return vals[i]
	}
	return 0
}

func truthAt(vals []Truth, single bool, i int) Truth {
	if single {
		i = 0
	}
	if i < len(vals) {
		return vals[i]
	}
	return False
}

// newestNums is the newest sample of a numeric node, empty if it has none.
func (x *Node) newestNums() []float64 {
	if len(x.slot) == 0 || len(x.num) == 0 {
		return nil
	}
	return x.nums(0)
}

func (x *Node) newestTruths() []Truth {
	if len(x.slot) == 0 || len(x.tru) == 0 {
		return nil
	}
	return x.truths(0)
}

// arithmetic returns the evaluator of a binary arithmetic operator.
func arithmetic(op Op, ar arity) func(*Node) {
	return func(x *Node) {
		if !binaryReady(x, ar) {
			return
		}
		v1, v2 := x.Arg1.newestNums(), x.Arg2.newestNums()
		out := x.newestNums()
		n := min(x.count(ar), len(out))
		out = out[:n]
		switch {
		case ar == arityN1 && len(v1) >= n:
			arithSetScalar(op, v1, numAt(v2, true, 0), false, out)
		case ar == arity1N && len(v2) >= n:
			arithSetScalar(op, v2, numAt(v1, true, 0), true, out)
		case ar == arityNN && len(v1) >= n && len(v2) >= n:
			arithSets(op, v1, v2, out)
		default:
			s1, s2 := ar.first(), ar.second()
			for i := range out {
				a, b := numAt(v1, s1, i), numAt(v2, s2, i)
				switch op {
				case OpAdd:
					out[i] = a + b
				case OpSub:
					out[i] = a - b
				case OpMul:
					out[i] = a * b
				default:
					out[i] = a / b
				}
			}
		}
		x.stamp[0] = newerStamp(x.Arg1, x.Arg2)
		x.valid++
	}
}

// relational returns the evaluator of a numeric comparison. A comparison
// with a value missing because its host is down is unknown.
func relational(op Op, ar arity) func(*Node) {
	return func(x *Node) {
		if !binaryReady(x, ar) {
			return
		}
		v1, v2 := x.Arg1.newestNums(), x.Arg2.newestNums()
		out := x.newestTruths()
		n := min(x.count(ar), len(out))
		out = out[:n]
		switch {
		case ar == arityN1 && len(v1) >= n:
			compareSetScalar(op, v1, numAt(v2, true, 0), out)
		case ar == arityNN && len(v1) >= n && len(v2) >= n:
			compareSets(op, v1, v2, out)
		default:
			s1, s2 := ar.first(), ar.second()
			for i := range out {
				out[i] = compare(op, numAt(v1, s1, i), numAt(v2, s2, i))
			}
		}
		x.stamp[0] = newerStamp(x.Arg1, x.Arg2)
		x.valid++
	}
}

// stringValue is value i of the newest sample of a string operand: a
// string constant (only i == 0) or a string-valued metric.
func (x *Node) stringValue(i int) (string, bool) {
	if x.sem == SemChar {
		return x.text, i == 0
	}
	if x.store == storeStr && (x.sem == SemInstant || x.sem == SemDiscrete) {
		if i >= 0 && i < x.nvals && len(x.slot) > 0 {
			off := x.slot[0] + i
			if off < len(x.str) {
				return x.str[off], true
			}
		}
	}
	return "", false
}

// strSpan is the number of values a string operand contributes: a string
// constant counts as one.
func (x *Node) strSpan() int {
	if x.sem == SemChar {
		return 1
	}
	return x.tspan
}

// stringCompare returns the evaluator of == (want true) or != (want false)
// between strings.
func stringCompare(want bool, ar arity) func(*Node) {
	return func(x *Node) {
		a1, a2 := x.Arg1, x.Arg2
		evalArg(a1)
		evalArg(a2)
		x.rotate()
		ok := a1.valid != 0 && a2.valid != 0
		if ok {
			switch ar {
			case arityNN:
				ok = x.tspan == a1.tspan && x.tspan == a2.tspan
			case arityN1:
				ok = x.tspan == a1.strSpan()
			case arity1N:
				ok = x.tspan == a2.strSpan()
			default:
				ok = x.tspan == a1.strSpan() && x.tspan == a2.strSpan()
			}
		}
		if !ok {
			x.valid = 0
			return
		}
		out := x.newestTruths()
		n := x.tspan
		if ar == arity11 {
			n = 1
		}
		n = min(n, len(out))
		for i := 0; i < n; i++ {
			i1, i2 := i, i
			if ar.first() {
				i1 = 0
			}
			if ar.second() {
				i2 = 0
			}
			s1, ok1 := a1.stringValue(i1)
			s2, ok2 := a2.stringValue(i2)
			out[i] = boolTruth(ok1 && ok2 && (s1 == s2) == want)
		}
		x.stamp[0] = newerStamp(a1, a2)
		x.valid++
	}
}

// logical returns the evaluator of && or ||. Unlike the other operators
// these give an answer when only one operand is known: one False decides
// &&, one True decides ||.
func logical(both func(a, b Truth) Truth, one func(Truth) Truth, ar arity) func(*Node) {
	return func(x *Node) {
		a1, a2 := x.Arg1, x.Arg2
		evalArg(a1)
		evalArg(a2)
		x.rotate()
		v1, v2 := a1.newestTruths(), a2.newestTruths()
		out := x.newestTruths()
		s1, s2 := ar.first(), ar.second()
		span1 := s1 || x.tspan == a1.tspan // a1 lines up with x
		span2 := s2 || x.tspan == a2.tspan
		switch {
		case a1.valid != 0 && a2.valid != 0 && (ar == arity11 || x.tspan > 0 && span1 && span2):
			n := x.tspan
			if ar == arity11 {
				n = 1
			}
			for i := 0; i < n && i < len(out); i++ {
				out[i] = both(truthAt(v1, s1, i), truthAt(v2, s2, i))
			}
			x.stamp[0] = newerStamp(a1, a2)
		case a1.valid != 0 && (ar == arity11 || x.tspan > 0 && (s1 || x.tspan == a1.tspan)):
			n := x.tspan
			if s1 {
				n = 1
			}
			for i := 0; i < n && i < len(out); i++ {
				out[i] = one(truthAt(v1, s1, i))
			}
			x.stamp[0] = a1.stamp0()
		case a2.valid != 0 && (ar == arity11 || x.tspan > 0 && (s2 || x.tspan == a2.tspan)):
			n := x.tspan
			if s2 {
				n = 1
			}
			for i := 0; i < n && i < len(out); i++ {
				out[i] = one(truthAt(v2, s2, i))
			}
			x.stamp[0] = a2.stamp0()
		default:
			x.valid = 0
			return
		}
		x.valid++
	}
}

// elemAt is vals[i], or the zero value when vals is too short.
func elemAt[T any](vals []T, i int) T {
	if i < len(vals) {
		return vals[i]
	}
	var zero T
	return zero
}

// unaryOp returns the evaluator of a unary operator: negation and instant
// over numbers, ! over truths. in and out read and write the newest
// sample.
func unaryOp[I, O any](in func(*Node) []I, out func(*Node) []O, f func(I) O, single bool) func(*Node) {
	return func(x *Node) {
		a := x.Arg1
		evalArg(a)
		x.rotate()
		if a.valid == 0 || (!single && x.tspan <= 0) {
			x.valid = 0
			return
		}
		src, dst := in(a), out(x)
		n := x.tspan
		if single {
			n = 1
		}
		for i := 0; i < n && i < len(dst); i++ {
			dst[i] = f(elemAt(src, i))
		}
		x.stamp[0] = a.stamp0()
		x.valid++
	}
}

func neg(v float64) float64  { return -v }
func same(v float64) float64 { return v }

// mergeOp returns the evaluator of an operator over the two newest samples
// of its operand (rate, rising, falling); f gets the newest value, the one
// before and the time between them.
func mergeOp[I, O any](sample func(*Node, int) []I, out func(*Node) []O, f func(cur, prev I, dt float64) O, single bool) func(*Node) {
	return func(x *Node) {
		a := x.Arg1
		evalArg(a)
		x.rotate()
		if a.valid < 2 || (!single && x.tspan <= 0) {
			x.valid = 0
			return
		}
		cur, prev, dst := sample(a, 0), sample(a, 1), out(x)
		dt := a.stamp[0] - a.stamp[1]
		n := x.tspan
		if single {
			n = 1
		}
		for i := 0; i < n && i < len(dst); i++ {
			dst[i] = f(elemAt(cur, i), elemAt(prev, i), dt)
		}
		x.stamp[0] = a.stamp[0]
		x.valid++
	}
}

// rate returns the evaluator of the rate operator: the change between the
// two newest samples of its operand over the time between them.
func rate(single bool) func(*Node) {
	return mergeOp((*Node).nums, (*Node).newestNums,
		func(c, p, dt float64) float64 { return (c - p) / dt }, single)
}

// edge returns the evaluator of rising (up) or falling: a comparison of
// the two newest truths of its operand, as small integers.
func edge(up bool, single bool) func(*Node) {
	f := func(c, p Truth, _ float64) Truth { return boolTruth(c < p) }
	if up {
		f = func(c, p Truth, _ float64) Truth { return boolTruth(c > p) }
	}
	return mergeOp((*Node).truths, (*Node).newestTruths, f, single)
}

// delay returns the evaluator of a sample window starting after the
// newest sample (metric @N..M): it copies the oldest sample its fetch
// holds into its own history.
func delay(single bool) func(*Node) {
	return func(x *Node) {
		a := x.Arg1
		n := a.tdom
		evalArg(a)
		x.rotate()
		if a.valid < n || (!single && x.tspan <= 0) || n < 1 {
			x.valid = 0
			return
		}
		cnt := x.tspan
		if single {
			cnt = 1
		}
		if a.store == storeStr {
			in, out := a.strs(n-1), x.strs(0)
			for i := 0; i < cnt && i < len(out) && i < len(in); i++ {
				out[i] = in[i]
			}
		} else {
			in, out := a.nums(n-1), x.newestNums()
			for i := 0; i < cnt && i < len(out) && i < len(in); i++ {
				out[i] = in[i]
			}
		}
		x.stamp[0] = a.stamp[n-1]
		x.valid++
	}
}
