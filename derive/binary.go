package derive

import (
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// This file holds libpcp's rules for the metadata of binary operators:
// which operators counters allow, the dimension checks, the type table,
// the mapping of units with scale conversion, and instance domains. The
// order of the checks is libpcp's, so the first error found is the one
// libpcp reports. Some rules keep libpcp 6.0.3's quirks on purpose; each
// is pointed out where it is made.

// promote is the type of the result of + - * on operands of types a and
// b, the table in pmRegisterDerived(3) (read by row and column index, for
// the six numeric types).
var promote = [6][6]pmapi.Type{
	{pmapi.Type32, pmapi.TypeU32, pmapi.Type64, pmapi.TypeU64, pmapi.TypeFloat, pmapi.TypeDouble},
	{pmapi.TypeU32, pmapi.TypeU32, pmapi.Type64, pmapi.TypeU64, pmapi.TypeFloat, pmapi.TypeDouble},
	{pmapi.Type64, pmapi.Type64, pmapi.Type64, pmapi.TypeU64, pmapi.TypeFloat, pmapi.TypeDouble},
	{pmapi.TypeU64, pmapi.TypeU64, pmapi.TypeU64, pmapi.TypeU64, pmapi.TypeFloat, pmapi.TypeDouble},
	{pmapi.TypeFloat, pmapi.TypeFloat, pmapi.TypeFloat, pmapi.TypeFloat, pmapi.TypeFloat, pmapi.TypeDouble},
	{pmapi.TypeDouble, pmapi.TypeDouble, pmapi.TypeDouble, pmapi.TypeDouble, pmapi.TypeDouble, pmapi.TypeDouble},
}

// timeFactor[i] converts time scale i to scale i+1 (nsec to usec ... min
// to hour).
var timeFactor = [...]int32{1000, 1000, 1000, 60, 60}

// timeStep is timeFactor[i], or 1 for a time scale past hour (which
// libpcp reads from beyond its table).
func timeStep(i int8) int32 {
	if i < 0 || int(i) >= len(timeFactor) {
		return 1
	}
	return timeFactor[i]
}

func (c *checker) binary(x *lang.Binary) *node {
	l, r := c.expr(x.X), c.expr(x.Y)
	if l == nil || r == nil {
		return nil
	}
	n := &node{op: opBinary, src: x, bin: x.Op, x: l, y: r, mul: 1, div: 1}
	if reason := binaryDesc(n); reason != "" {
		return c.fail(c.m.semanticError(x, reason))
	}
	return n
}

// binaryDesc works out n's descriptor from its operands' as libpcp's
// map_desc does, setting the operands' scale factors; it returns libpcp's
// reason when the operands cannot be combined.
func binaryDesc(n *node) string {
	l, r := &n.x.desc, &n.y.desc
	op := n.bin
	logical := op.IsRelational() || op == lang.OpAnd || op == lang.OpOr
	if !logical {
		if reason := counterRule(op, l.Sem, r.Sem); reason != "" {
			return reason
		}
	}
	// the descriptor starts as a copy of the left operand's, unless that
	// is a constant
	n.desc = *l
	if n.x.isConst {
		n.desc = *r
	}
	if l.Sem != pmapi.SemCounter && r.Sem != pmapi.SemCounter {
		if l.Sem == pmapi.SemDiscrete && r.Sem == pmapi.SemDiscrete {
			n.desc.Sem = pmapi.SemDiscrete
		} else {
			n.desc.Sem = pmapi.SemInstant
		}
	}
	switch {
	case !l.Type.Numeric():
		return reasonLeftType
	case !r.Type.Numeric():
		return reasonRightType
	}
	switch {
	case op == lang.OpDiv:
		n.desc.Type = pmapi.TypeDouble
	case logical:
		n.desc.Type = pmapi.TypeU32
	default:
		n.desc.Type = promote[l.Type][r.Type]
	}
	if reason := dimensionRule(op, l, r); reason != "" {
		return reason
	}
	if op.IsArithmetic() {
		mapUnits(n)
	} else {
		n.desc.Units = pmapi.Units{}
	}
	switch {
	case l.InDom != pmapi.InDomNull && r.InDom != pmapi.InDomNull && l.InDom != r.InDom:
		return reasonIndom
	case l.InDom != pmapi.InDomNull:
		n.desc.InDom = l.InDom
	case r.InDom != pmapi.InDomNull:
		n.desc.InDom = r.InDom
	}
	return ""
}

// counterRule says which arithmetic operators counters allow: + and -
// between counters, * and / with a counter on the left, * with one on the
// right.
func counterRule(op lang.BinaryOp, l, r pmapi.Sem) string {
	switch {
	case l == pmapi.SemCounter && r == pmapi.SemCounter:
		if op != lang.OpAdd && op != lang.OpSub {
			return reasonCounters
		}
	case l == pmapi.SemCounter:
		if op != lang.OpMul && op != lang.OpDiv {
			return reasonCounterNon
		}
	case r == pmapi.SemCounter:
		if op != lang.OpMul {
			return reasonNonCounter
		}
	}
	return ""
}

// countOrNone reports whether one of a and b is dimensionless and the
// other a plain count: the pair pmConvScale(3) allows.
func countOrNone(a, b pmapi.Units) bool {
	return a.DimTime == 0 && b.DimTime == 0 && a.DimSpace == 0 && b.DimSpace == 0 &&
		(a.DimCount == 0 && b.DimCount == 1 || a.DimCount == 1 && b.DimCount == 0)
}

// dimensionRule checks the operands' dimensions for op.
func dimensionRule(op lang.BinaryOp, l, r *pmapi.Desc) string {
	switch {
	case op == lang.OpAdd || op == lang.OpSub:
		if !l.Units.SameDimension(r.Units) && !countOrNone(l.Units, r.Units) {
			return reasonDimensions
		}
	case op.IsRelational():
		// libpcp means to let a numeric constant be compared with
		// anything, but tests the operands' types against its node
		// types: the exception it makes is for any operand of type U32
		// (which integer constants are, and real constants are not).
		if l.Type != pmapi.TypeU32 && r.Type != pmapi.TypeU32 &&
			!l.Units.SameDimension(r.Units) && !countOrNone(l.Units, r.Units) {
			return reasonDimensions
		}
	case op == lang.OpAnd || op == lang.OpOr:
		if !l.Units.Dimensionless() || !r.Units.Dimensionless() {
			return reasonDimensions
		}
	}
	if op == lang.OpMul || op == lang.OpDiv || op.IsRelational() {
		if l.Sem == pmapi.SemCounter && r.Sem != pmapi.SemCounter && !r.Units.Dimensionless() {
			return reasonRightDimless
		}
		if l.Sem != pmapi.SemCounter && r.Sem == pmapi.SemCounter && !l.Units.Dimensionless() {
			return reasonLeftDimless
		}
	}
	return ""
}

// scaleBy multiplies the scale factor of operand n (dividing for a
// positive dimension, multiplying for a negative one) by f.
func scaleBy(n *node, positive bool, f int32) {
	if positive {
		n.div *= f
	} else {
		n.mul *= f
	}
}

// mapUnits gives an arithmetic node its units: where both operands have
// a dimension on an axis with different scales, the larger scale wins and
// the other operand's values are converted, making the result DOUBLE; for
// * and / the dimensions add or subtract. Like libpcp 6.0.3, when the left
// operand is the one converted on the time or space axis, the direction
// of its conversion follows the right operand's dimension, and a constant
// on the left does not lend the result its scale.
func mapUnits(n *node) {
	l, r := n.x.desc.Units, n.y.desc.Units
	u := &n.desc.Units
	if l.DimCount != 0 && r.DimCount != 0 {
		diff := int(l.ScaleCount) - int(r.ScaleCount)
		for i := 0; i < diff; i++ {
			scaleBy(n.y, r.DimCount > 0, 10)
		}
		for i := diff; i < 0; i++ {
			scaleBy(n.x, l.DimCount > 0, 10)
		}
		if diff < 0 {
			u.ScaleCount = r.ScaleCount
		}
		if diff != 0 {
			n.desc.Type = pmapi.TypeDouble
		}
	}
	if l.DimTime != 0 && r.DimTime != 0 {
		for i := r.ScaleTime; i < l.ScaleTime; i++ {
			scaleBy(n.y, r.DimTime > 0, timeStep(i))
		}
		for i := l.ScaleTime; i < r.ScaleTime; i++ {
			scaleBy(n.x, r.DimTime > 0, timeStep(i)) // sic: r.DimTime
		}
		if l.ScaleTime < r.ScaleTime {
			u.ScaleTime = r.ScaleTime
		}
		if l.ScaleTime != r.ScaleTime {
			n.desc.Type = pmapi.TypeDouble
		}
	}
	if l.DimSpace != 0 && r.DimSpace != 0 {
		diff := int(l.ScaleSpace) - int(r.ScaleSpace)
		for i := 0; i < diff; i++ {
			scaleBy(n.y, r.DimSpace > 0, 1024)
		}
		for i := diff; i < 0; i++ {
			scaleBy(n.x, r.DimSpace > 0, 1024) // sic: r.DimSpace
		}
		if diff < 0 {
			u.ScaleSpace = r.ScaleSpace
		}
		if diff != 0 {
			n.desc.Type = pmapi.TypeDouble
		}
	}
	switch n.bin {
	case lang.OpMul:
		u.DimCount, u.DimTime, u.DimSpace = l.DimCount+r.DimCount, l.DimTime+r.DimTime, l.DimSpace+r.DimSpace
	case lang.OpDiv:
		u.DimCount, u.DimTime, u.DimSpace = l.DimCount-r.DimCount, l.DimTime-r.DimTime, l.DimSpace-r.DimSpace
	}
	// a dimension that came from the right operand brings its scale
	if u.DimCount != 0 && l.DimCount == 0 {
		u.ScaleCount = r.ScaleCount
	}
	if u.DimTime != 0 && l.DimTime == 0 {
		u.ScaleTime = r.ScaleTime
	}
	if u.DimSpace != 0 && l.DimSpace == 0 {
		u.ScaleSpace = r.ScaleSpace
	}
	if u.DimCount == 0 {
		u.ScaleCount = 0
	}
	if u.DimTime == 0 {
		u.ScaleTime = 0
	}
	if u.DimSpace == 0 {
		u.ScaleSpace = 0
	}
}
