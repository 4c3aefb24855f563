package pmapi

import "math"

// Atom is one value of any metric type (pmAtomValue). Numeric values are
// held exactly as their type has them; strings, aggregates and event records
// as their bytes. The zero Atom is a 32-bit zero.
type Atom struct {
	Type Type
	num  uint64 // integer bits (sign-extended for signed types), or float64 bits
	str  string // string value without its NUL, or raw aggregate/event bytes
}

// I32 makes a 32-bit signed Atom.
func I32(v int32) Atom { return Atom{Type: Type32, num: uint64(int64(v))} }

// U32 makes a 32-bit unsigned Atom.
func U32(v uint32) Atom { return Atom{Type: TypeU32, num: uint64(v)} }

// I64 makes a 64-bit signed Atom.
func I64(v int64) Atom { return Atom{Type: Type64, num: uint64(v)} }

// U64 makes a 64-bit unsigned Atom.
func U64(v uint64) Atom { return Atom{Type: TypeU64, num: v} }

// F32 makes a float Atom.
func F32(v float32) Atom { return Atom{Type: TypeFloat, num: math.Float64bits(float64(v))} }

// F64 makes a double Atom.
func F64(v float64) Atom { return Atom{Type: TypeDouble, num: math.Float64bits(v)} }

// String makes a string Atom.
func String(s string) Atom { return Atom{Type: TypeString, str: s} }

// NumAtom is v as a value of the numeric type t (a double for any type
// that is not an integer or float); v must be in t's range.
func NumAtom(t Type, v float64) Atom {
	switch t {
	case Type32:
		return I32(int32(v))
	case TypeU32:
		return U32(uint32(v))
	case Type64:
		return I64(int64(v))
	case TypeU64:
		return U64(uint64(v))
	case TypeFloat:
		return F32(float32(v))
	}
	return F64(v)
}

// Insitu is the 32-bit word w of a value held in place of a pointer to
// a value block (PM_VAL_INSITU) as a value of type t: unsigned or a float
// if t says so, else a 32-bit signed integer.
func Insitu(t Type, w uint32) Atom {
	switch t {
	case TypeU32:
		return U32(w)
	case TypeFloat:
		return F32(math.Float32frombits(w))
	}
	return I32(int32(w))
}

// Blob makes an Atom of type t (an aggregate or event type) holding b.
func Blob(t Type, b string) Atom { return Atom{Type: t, str: b} }

// Mismatch is a value stored otherwise than its metric's descriptor says
// (an insitu value of a 64-bit metric, a value block of another type or
// size), which libpcp cannot convert and prints in its fallback form: an
// atom of TypeUnknown holding the stored form, the 32-bit value of an
// insitu one or else the bytes of the value block as libpcp holds them.
func Mismatch(insitu bool, lval uint32, block string) Atom {
	a := Atom{Type: TypeUnknown, num: uint64(lval), str: block}
	if insitu {
		a.num |= insituFlag
	}
	return a
}

// insituFlag marks a Mismatch atom whose value was insitu.
const insituFlag = 1 << 32

// Stored is how a Mismatch atom's value was stored: insitu with its
// 32-bit value, or as the bytes of a value block.
func (a Atom) Stored() (insitu bool, lval uint32, block string) {
	return a.num&insituFlag != 0, uint32(a.num), a.str
}

// Int64 is the value of a signed integer atom (or an unsigned one,
// reinterpreted).
func (a Atom) Int64() int64 { return int64(a.num) }

// Uint64 is the value of an unsigned integer atom.
func (a Atom) Uint64() uint64 { return a.num }

// Float64 is the value of a numeric atom of any type, as a double. It is NaN
// for non-numeric atoms.
func (a Atom) Float64() float64 {
	switch a.Type {
	case Type32, Type64:
		return float64(int64(a.num))
	case TypeU32, TypeU64:
		return float64(a.num)
	case TypeFloat, TypeDouble:
		return math.Float64frombits(a.num)
	}
	return math.NaN()
}

// Float32 is the value of a float atom.
func (a Atom) Float32() float32 { return float32(math.Float64frombits(a.num)) }

// Str is the value of a string atom, or the bytes of an aggregate or event.
func (a Atom) Str() string { return a.str }

// Value is the value of one instance of a metric (pmValue).
type Value struct {
	Inst int32
	Atom Atom
}

// ValueSet is the values of one metric in a fetch (pmValueSet). When Err is
// non-nil the metric has no values and Err says why.
type ValueSet struct {
	PMID   PMID
	Err    error
	Values []Value
}

// Result is the answer to a fetch (pmResult): a timestamp and one value set
// for each PMID asked for, in the same order.
type Result struct {
	Time Time
	Sets []ValueSet
}

// Reset empties r for reuse, keeping its storage.
func (r *Result) Reset() {
	for i := range r.Sets {
		r.Sets[i] = ValueSet{Values: r.Sets[i].Values[:0]}
	}
	r.Sets = r.Sets[:0]
	r.Time = 0
}
