package eval

import (
	"encoding/binary"
	"math"
)

// Sem is the semantics of x's values.
func (x *Node) Sem() Sem { return x.sem }

// Units are the units of x's values, in canonical scale.
func (x *Node) Units() Units { return x.units }

// Word is the one number pmie's secret agent mode (-x) exports of a rule
// whose root is x: the first eight bytes of x's value buffer read as a
// double, whatever the buffer holds. Of a numeric node that is the first
// value of the sample stored first, which in a window of several samples
// is the newest only once in as many evaluations (pmie's ring turns under
// it). Of a truth-valued node it is the first eight truths, one byte each
// (0, 1 or 2), read as a little-endian double (a tiny subnormal number;
// bytes past the end of a shorter buffer are zero, as pmie's allocation
// leaves them). ok is false where pmie would read pointers (the values of
// a string metric) or a node with no buffer; the caller decides what that
// exports. Validity is not looked at: see Valid.
func (x *Node) Word() (v float64, ok bool) {
	switch x.store {
	case storeNum:
		if len(x.num) == 0 {
			return 0, true // an empty set: pmie reads zeroed memory
		}
		return x.num[0], true
	case storeTruth:
		var b [8]byte
		for i := 0; i < len(b) && i < len(x.tru); i++ {
			b[i] = byte(x.tru[i])
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b[:])), true
	}
	return 0, false
}
