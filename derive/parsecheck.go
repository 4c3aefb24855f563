package derive

import (
	"strings"

	"github.com/gopcp/pmie/internal/posixre"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// This file holds the checks libpcp makes while it parses, which lang asks
// us about (lang.Checker): mkconst's type, semantics and units, rescale's
// units, matchinst's regular expression. libpcp reports their failures as
// syntax errors.

// parseCheck is derive's lang.Checker.
func parseCheck(c lang.Check) string {
	switch c.Kind {
	case lang.CheckType:
		if _, ok := typeNamed(c.Value); !ok {
			return "Unrecognized value for type '" + c.Value + "'"
		}
	case lang.CheckSemantics:
		if _, ok := semNamed(c.Value); !ok {
			return "Unrecognized value for semantics '" + c.Value + "'"
		}
	case lang.CheckUnits, lang.CheckRescale:
		if _, _, err := pmapi.ParseUnits(c.Value); err != nil {
			return "Illegal units: '" + err.Error() + "'"
		}
	case lang.CheckMkConst:
		t, ok := typeNamed(c.Value)
		if c.Float && ok && t != pmapi.TypeFloat && t != pmapi.TypeDouble {
			return "Incompatible floating point constant and type '" + t.String() + "'"
		}
	case lang.CheckPattern:
		if _, reason := compilePattern(c.Value); reason != "" {
			return reason
		}
	}
	return ""
}

// typeNamed is the numeric type mkconst's type=NAME names, in any case.
func typeNamed(name string) (pmapi.Type, bool) {
	for _, t := range []pmapi.Type{pmapi.Type32, pmapi.TypeU32, pmapi.Type64, pmapi.TypeU64, pmapi.TypeFloat, pmapi.TypeDouble} {
		if strings.EqualFold(name, t.String()) {
			return t, true
		}
	}
	return 0, false
}

// semNamed is the semantics mkconst's semantics=NAME names, in any case.
func semNamed(name string) (pmapi.Sem, bool) {
	for _, s := range []pmapi.Sem{pmapi.SemCounter, pmapi.SemInstant, pmapi.SemDiscrete} {
		if strings.EqualFold(name, s.String()) {
			return s, true
		}
	}
	return 0, false
}

// constValue is the value libpcp gives constant x when its type is t: the
// integer truncated or widened as atoi, strtoll and strtoull do, or the
// literal read as a double (and narrowed for FLOAT).
func constValue(x *lang.Number, t pmapi.Type) pmapi.Atom {
	f := x.Float
	if x.Kind == lang.IntNumber {
		f = float64(x.Int)
	}
	switch t {
	case pmapi.Type32:
		return pmapi.I32(int32(uint32(x.Int)))
	case pmapi.TypeU32:
		return pmapi.U32(uint32(x.Int))
	case pmapi.Type64:
		return pmapi.I64(int64(x.Int))
	case pmapi.TypeU64:
		return pmapi.U64(x.Int)
	case pmapi.TypeFloat:
		return pmapi.F32(float32(f))
	}
	return pmapi.F64(f)
}

// compilePattern compiles a matchinst regular expression, POSIX extended
// syntax as glibc's regcomp(3) reads it, returning libpcp's reason when it
// cannot.
func compilePattern(pattern string) (*posixre.Regexp, string) {
	re, err := posixre.Compile(pattern)
	if err != nil {
		return nil, "bad regular expression: '" + err.Error() + "'"
	}
	return re, ""
}
