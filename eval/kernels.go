package eval

// Loops specialised for the commonest shapes: a set compared with, or
// combined with, a single value or another set. They give the same
// results as the general evaluators in arith.go, element by element
// (kernels_test.go checks the comparisons against compare).

// compare is a numeric comparison as pmie makes it, except that a value
// missing because its host is down makes it unknown.
func compare(op Op, a, b float64) Truth {
	if a != a || b != b {
		if isMissing(a) || isMissing(b) {
			return Unknown
		}
	}
	switch op {
	case OpEq:
		return boolTruth(a == b)
	case OpNeq:
		return boolTruth(a != b)
	case OpLt:
		return boolTruth(a < b)
	case OpLte:
		return boolTruth(a <= b)
	case OpGt:
		return boolTruth(a > b)
	}
	return boolTruth(a >= b)
}

// compareSetScalar compares each of a with c into out. A value missing
// because its host is down (a NaN, so rarely taken) is looked at again in
// the same pass.
func compareSetScalar(op Op, a []float64, c float64, out []Truth) {
	a = a[:len(out)]
	if c != c {
		for i, v := range a {
			out[i] = compare(op, v, c)
		}
		return
	}
	switch op {
	case OpGt:
		for i, v := range a {
			out[i] = boolTruth(v > c)
			if v != v {
				out[i] = compare(op, v, c)
			}
		}
	case OpGte:
		for i, v := range a {
			out[i] = boolTruth(v >= c)
			if v != v {
				out[i] = compare(op, v, c)
			}
		}
	case OpLt:
		for i, v := range a {
			out[i] = boolTruth(v < c)
			if v != v {
				out[i] = compare(op, v, c)
			}
		}
	case OpLte:
		for i, v := range a {
			out[i] = boolTruth(v <= c)
			if v != v {
				out[i] = compare(op, v, c)
			}
		}
	case OpEq:
		for i, v := range a {
			out[i] = boolTruth(v == c)
			if v != v {
				out[i] = compare(op, v, c)
			}
		}
	default:
		for i, v := range a {
			out[i] = boolTruth(v != c)
			if v != v {
				out[i] = compare(op, v, c)
			}
		}
	}
}

// compareSets compares a and b element by element into out. A pair with a
// NaN (rare) is looked at again in the same pass, as in compareSetScalar.
func compareSets(op Op, a, b []float64, out []Truth) {
	a, b = a[:len(out)], b[:len(out)]
	switch op {
	case OpGt:
		for i, v := range a {
			out[i] = boolTruth(v > b[i])
			if v != v || b[i] != b[i] {
				out[i] = compare(op, v, b[i])
			}
		}
	case OpGte:
		for i, v := range a {
			out[i] = boolTruth(v >= b[i])
			if v != v || b[i] != b[i] {
				out[i] = compare(op, v, b[i])
			}
		}
	case OpLt:
		for i, v := range a {
			out[i] = boolTruth(v < b[i])
			if v != v || b[i] != b[i] {
				out[i] = compare(op, v, b[i])
			}
		}
	case OpLte:
		for i, v := range a {
			out[i] = boolTruth(v <= b[i])
			if v != v || b[i] != b[i] {
				out[i] = compare(op, v, b[i])
			}
		}
	case OpEq:
		for i, v := range a {
			out[i] = boolTruth(v == b[i])
			if v != v || b[i] != b[i] {
				out[i] = compare(op, v, b[i])
			}
		}
	default:
		for i, v := range a {
			out[i] = boolTruth(v != b[i])
			if v != v || b[i] != b[i] {
				out[i] = compare(op, v, b[i])
			}
		}
	}
}

// arithSetScalar combines each of a with c into out (c first when
// scalarFirst).
func arithSetScalar(op Op, a []float64, c float64, scalarFirst bool, out []float64) {
	a = a[:len(out)]
	switch {
	case op == OpAdd:
		for i, v := range a {
			out[i] = v + c
		}
	case op == OpMul:
		for i, v := range a {
			out[i] = v * c
		}
	case op == OpSub && !scalarFirst:
		for i, v := range a {
			out[i] = v - c
		}
	case op == OpSub:
		for i, v := range a {
			out[i] = c - v
		}
	case op == OpDiv && !scalarFirst:
		for i, v := range a {
			out[i] = v / c
		}
	default:
		for i, v := range a {
			out[i] = c / v
		}
	}
}

// arithSets combines a and b element by element into out.
func arithSets(op Op, a, b []float64, out []float64) {
	a, b = a[:len(out)], b[:len(out)]
	switch op {
	case OpAdd:
		for i := range out {
			out[i] = a[i] + b[i]
		}
	case OpSub:
		for i := range out {
			out[i] = a[i] - b[i]
		}
	case OpMul:
		for i := range out {
			out[i] = a[i] * b[i]
		}
	default:
		for i := range out {
			out[i] = a[i] / b[i]
		}
	}
}
