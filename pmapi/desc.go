package pmapi

import "strconv"

// Type is a metric's data type (PM_TYPE_*).
type Type int32

// The metric data types of pmapi.h.
const (
	TypeNoSupport       Type = -1
	Type32              Type = 0
	TypeU32             Type = 1
	Type64              Type = 2
	TypeU64             Type = 3
	TypeFloat           Type = 4
	TypeDouble          Type = 5
	TypeString          Type = 6
	TypeAggregate       Type = 7
	TypeAggregateStatic Type = 8
	TypeEvent           Type = 9
	TypeHighresEvent    Type = 10
	TypeUnknown         Type = 255
)

// String is the name pmTypeStr gives t: "32", "U64", "DOUBLE", "STRING"...
func (t Type) String() string {
	switch t {
	case TypeNoSupport:
		return "NO_SUPPORT"
	case Type32:
		return "32"
	case TypeU32:
		return "U32"
	case Type64:
		return "64"
	case TypeU64:
		return "U64"
	case TypeFloat:
		return "FLOAT"
	case TypeDouble:
		return "DOUBLE"
	case TypeString:
		return "STRING"
	case TypeAggregate:
		return "AGGREGATE"
	case TypeAggregateStatic:
		return "AGGREGATE_STATIC"
	case TypeEvent:
		return "EVENT"
	case TypeHighresEvent:
		return "HIGHRES_EVENT"
	case TypeUnknown:
		return "UNKNOWN"
	}
	return "Type-" + strconv.Itoa(int(t)) + "?"
}

// Describe is the wording pminfo -d and pmdumplog use for t, for example
// "64-bit unsigned int".
func (t Type) Describe() string {
	switch t {
	case TypeNoSupport:
		return "Not Supported"
	case Type32:
		return "32-bit int"
	case TypeU32:
		return "32-bit unsigned int"
	case Type64:
		return "64-bit int"
	case TypeU64:
		return "64-bit unsigned int"
	case TypeFloat:
		return "float"
	case TypeDouble:
		return "double"
	case TypeString:
		return "string"
	case TypeAggregate:
		return "aggregate"
	case TypeAggregateStatic:
		return "static aggregate"
	case TypeEvent:
		return "event record array"
	case TypeHighresEvent:
		return "highres event record array"
	}
	return "???"
}

// Numeric reports whether t is one of the integer or floating point types.
func (t Type) Numeric() bool { return t >= Type32 && t <= TypeDouble }

// Sem is a metric's semantics (PM_SEM_*).
type Sem int32

// The semantics of pmapi.h.
const (
	SemCounter  Sem = 1
	SemInstant  Sem = 3
	SemDiscrete Sem = 4
)

// String is the wording pminfo -d uses for s.
func (s Sem) String() string {
	switch s {
	case SemCounter:
		return "counter"
	case SemInstant:
		return "instant"
	case SemDiscrete:
		return "discrete"
	}
	return "???"
}

// Desc is a metric descriptor (pmDesc).
type Desc struct {
	PMID  PMID
	Type  Type
	InDom InDom
	Sem   Sem
	Units Units
}
