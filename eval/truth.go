package eval

// Truth is a value of pmie's three-valued (Kleene) logic. Missing data is
// Unknown, never an error.
//
// The numeric values match pmie's: some operators (rising, falling and the
// percentage quantifiers) compare or add truths as small integers, and the
// results depend on Unknown being 2.
type Truth uint8

// The three truth values.
const (
	False   Truth = 0
	True    Truth = 1
	Unknown Truth = 2
)

// String is the word pmie prints for t.
func (t Truth) String() string {
	switch t {
	case False:
		return "false"
	case True:
		return "true"
	case Unknown:
		return "unknown"
	}
	return "0x??"
}

// And is Kleene conjunction: False wins, then Unknown.
func And(a, b Truth) Truth {
	if a == True && b == True {
		return True
	}
	if a == False || b == False {
		return False
	}
	return Unknown
}

// Or is Kleene disjunction: True wins, then Unknown.
func Or(a, b Truth) Truth {
	if a == True || b == True {
		return True
	}
	if a == False && b == False {
		return False
	}
	return Unknown
}

// Not is Kleene negation: Unknown stays Unknown.
func Not(a Truth) Truth {
	switch a {
	case True:
		return False
	case False:
		return True
	}
	return Unknown
}

// andOne is a conjunction whose other operand is missing altogether: only
// False decides it.
func andOne(a Truth) Truth {
	if a == False {
		return False
	}
	return Unknown
}

// orOne is a disjunction whose other operand is missing altogether: only
// True decides it.
func orOne(a Truth) Truth {
	if a == True {
		return True
	}
	return Unknown
}

// boolTruth converts a Go bool.
func boolTruth(b bool) Truth {
	if b {
		return True
	}
	return False
}

// nan is pmie's "definitely not a number", used for values made unknown.
var nan = func() float64 { var z float64; return z / z }()
