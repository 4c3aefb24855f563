package derive

import (
	"math"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// This file evaluates the binary operators as libpcp's bin_op does:
// operands are converted to the result's type (integers reinterpreted,
// with C's wrap-around arithmetic; conversion to DOUBLE applies the
// operands' scale factors), relational and boolean operators compare in
// the promoted type and give a U32 0 or 1, and division (always DOUBLE)
// gives 0 when the dividend is 0.

// binFunc combines two operand values into the result's value.
type binFunc func(a, b uint64) uint64

// compileBinary evaluates a binary operator over its operands' instances.
func compileBinary(n *node, s *slotTable) evalFunc {
	lf, rf := n.x.compile(s), n.y.compile(s)
	fn := makeBinFunc(n)
	lset, rset := n.x.desc.InDom != pmapi.InDomNull, n.y.desc.InDom != pmapi.InDomNull
	var out []val
	return func(f *frame) ([]val, pmapi.Errno) {
		ls, err := lf(f)
		if err != 0 {
			return nil, err
		}
		rs, err := rf(f)
		if err != 0 {
			return nil, err
		}
		out = combine(out[:0], ls, rs, lset, rset, fn)
		return out, 0
	}
}

// combine applies fn to the pairs of values libpcp pairs: every value of a
// singular operand with each of the other's, and, when both have
// instances, the left operand's instances that the right one also has, in
// the left's order (capped, as libpcp does, at the smaller count).
func combine(out, ls, rs []val, lset, rset bool, fn binFunc) []val {
	if len(ls) == 0 || len(rs) == 0 {
		return out
	}
	var numval int
	switch {
	case !lset:
		numval = len(rs)
	case !rset:
		numval = len(ls)
	default:
		numval = min(len(ls), len(rs))
	}
	if lset && rset && len(ls) == len(rs) && sameInstances(ls, rs) {
		// the usual case: both operands have the same instances in the
		// same order, which libpcp's pairing below comes to as well
		for i := range ls {
			out = append(out, val{inst: ls[i].inst, u: fn(ls[i].u, rs[i].u)})
		}
		return out
	}
	i, j := 0, 0
	for k := 0; k < numval; {
		if i >= len(ls) || j >= len(rs) {
			break
		}
		if lset && rset && ls[i].inst != rs[j].inst {
			j = 0
			for j < len(rs) && rs[j].inst != ls[i].inst {
				j++
			}
			if j == len(rs) {
				i++
				j = 0
				continue
			}
		}
		inst := rs[j].inst
		if lset {
			inst = ls[i].inst
		}
		out = append(out, val{inst: inst, u: fn(ls[i].u, rs[j].u)})
		k++
		switch {
		case lset && rset:
			i++
			if j++; j >= len(rs) {
				j = 0
			}
		case lset:
			i++
		case rset:
			j++
		}
	}
	return out
}

// sameInstances reports whether ls and rs, of the same length, have the
// same instances in the same order.
func sameInstances(ls, rs []val) bool {
	for i := range ls {
		if ls[i].inst != rs[i].inst {
			return false
		}
	}
	return true
}

// makeBinFunc builds the arithmetic of node n for its operands' types.
func makeBinFunc(n *node) binFunc {
	lt, rt := n.x.desc.Type, n.y.desc.Type
	if !n.bin.IsArithmetic() {
		return logicalFunc(n.bin, promote[lt][rt], lt, rt)
	}
	switch n.desc.Type {
	case pmapi.Type32:
		return int32Arith(n.bin)
	case pmapi.TypeU32:
		return uint32Arith(n.bin)
	case pmapi.Type64:
		return int64Arith(n.bin)
	case pmapi.TypeU64:
		return uint64Arith(n.bin)
	case pmapi.TypeFloat:
		return floatArith(n.bin, toFloat32(lt), toFloat32(rt))
	}
	return doubleArith(n.bin, toFloat64(lt, n.x.mul, n.x.div), toFloat64(rt, n.y.mul, n.y.div))
}

func int32Arith(op lang.BinaryOp) binFunc {
	enc := func(v int32) uint64 { return uint64(int64(v)) }
	switch op {
	case lang.OpAdd:
		return func(a, b uint64) uint64 { return enc(int32(a) + int32(b)) }
	case lang.OpSub:
		return func(a, b uint64) uint64 { return enc(int32(a) - int32(b)) }
	}
	return func(a, b uint64) uint64 { return enc(int32(a) * int32(b)) }
}

func uint32Arith(op lang.BinaryOp) binFunc {
	switch op {
	case lang.OpAdd:
		return func(a, b uint64) uint64 { return uint64(uint32(a) + uint32(b)) }
	case lang.OpSub:
		return func(a, b uint64) uint64 { return uint64(uint32(a) - uint32(b)) }
	}
	return func(a, b uint64) uint64 { return uint64(uint32(a) * uint32(b)) }
}

func int64Arith(op lang.BinaryOp) binFunc {
	switch op {
	case lang.OpAdd:
		return func(a, b uint64) uint64 { return uint64(int64(a) + int64(b)) }
	case lang.OpSub:
		return func(a, b uint64) uint64 { return uint64(int64(a) - int64(b)) }
	}
	return func(a, b uint64) uint64 { return uint64(int64(a) * int64(b)) }
}

func uint64Arith(op lang.BinaryOp) binFunc {
	switch op {
	case lang.OpAdd:
		return func(a, b uint64) uint64 { return a + b }
	case lang.OpSub:
		return func(a, b uint64) uint64 { return a - b }
	}
	return func(a, b uint64) uint64 { return a * b }
}

func floatArith(op lang.BinaryOp, l, r func(uint64) float32) binFunc {
	enc := func(v float32) uint64 { return math.Float64bits(float64(v)) }
	switch op {
	case lang.OpAdd:
		return func(a, b uint64) uint64 { return enc(l(a) + r(b)) }
	case lang.OpSub:
		return func(a, b uint64) uint64 { return enc(l(a) - r(b)) }
	}
	return func(a, b uint64) uint64 { return enc(l(a) * r(b)) }
}

func doubleArith(op lang.BinaryOp, l, r func(uint64) float64) binFunc {
	switch op {
	case lang.OpAdd:
		return func(a, b uint64) uint64 { return math.Float64bits(l(a) + r(b)) }
	case lang.OpSub:
		return func(a, b uint64) uint64 { return math.Float64bits(l(a) - r(b)) }
	case lang.OpMul:
		return func(a, b uint64) uint64 { return math.Float64bits(l(a) * r(b)) }
	}
	return func(a, b uint64) uint64 {
		x := l(a)
		if x == 0 {
			return math.Float64bits(0)
		}
		return math.Float64bits(x / r(b))
	}
}

// toFloat32 converts a value of type t to float, as C does.
func toFloat32(t pmapi.Type) func(uint64) float32 {
	switch t {
	case pmapi.Type32:
		return func(u uint64) float32 { return float32(int32(u)) }
	case pmapi.TypeU32:
		return func(u uint64) float32 { return float32(uint32(u)) }
	case pmapi.Type64:
		return func(u uint64) float32 { return float32(int64(u)) }
	case pmapi.TypeU64:
		return func(u uint64) float32 { return float32(u) }
	}
	return func(u uint64) float32 { return float32(math.Float64frombits(u)) }
}

// toFloat64 converts a value of type t to double, then applies the scale
// factors: (v / div) * mul.
func toFloat64(t pmapi.Type, mul, div int32) func(uint64) float64 {
	var conv func(uint64) float64
	switch t {
	case pmapi.Type32:
		conv = func(u uint64) float64 { return float64(int32(u)) }
	case pmapi.TypeU32:
		conv = func(u uint64) float64 { return float64(uint32(u)) }
	case pmapi.Type64:
		conv = func(u uint64) float64 { return float64(int64(u)) }
	case pmapi.TypeU64:
		conv = func(u uint64) float64 { return float64(u) }
	default:
		conv = math.Float64frombits
	}
	if mul == 1 && div == 1 {
		return conv
	}
	m, d := float64(mul), float64(div)
	return func(u uint64) float64 { return conv(u) / d * m }
}

// logicalFunc compares (or, for && ||, tests) two values in type pt, the
// promotion of their types lt and rt, giving 0 or 1.
func logicalFunc(op lang.BinaryOp, pt, lt, rt pmapi.Type) binFunc {
	b := func(v bool) uint64 {
		if v {
			return 1
		}
		return 0
	}
	switch pt {
	case pmapi.Type32:
		return func(a, c uint64) uint64 { return b(compare(op, int32(a), int32(c))) }
	case pmapi.TypeU32:
		return func(a, c uint64) uint64 { return b(compare(op, uint32(a), uint32(c))) }
	case pmapi.Type64:
		return func(a, c uint64) uint64 { return b(compare(op, int64(a), int64(c))) }
	case pmapi.TypeU64:
		return func(a, c uint64) uint64 { return b(compare(op, a, c)) }
	case pmapi.TypeFloat:
		l, r := toFloat32(lt), toFloat32(rt)
		return func(a, c uint64) uint64 { return b(compare(op, l(a), r(c))) }
	}
	l, r := toFloat64(lt, 1, 1), toFloat64(rt, 1, 1)
	return func(a, c uint64) uint64 { return b(compare(op, l(a), r(c))) }
}

// compare is a relational or boolean operator on two values of one type.
func compare[T int32 | uint32 | int64 | uint64 | float32 | float64](op lang.BinaryOp, a, b T) bool {
	switch op {
	case lang.OpLT:
		return a < b
	case lang.OpLE:
		return a <= b
	case lang.OpEQ:
		return a == b
	case lang.OpGE:
		return a >= b
	case lang.OpGT:
		return a > b
	case lang.OpNE:
		return a != b
	case lang.OpAnd:
		return a != 0 && b != 0
	}
	return a != 0 || b != 0 // OpOr
}
