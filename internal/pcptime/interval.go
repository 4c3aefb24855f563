package pcptime

import (
	"errors"
	"strconv"
	"strings"
)

// The wording of libpcp's time parsing errors.
const (
	whatMsg  = "unexpected value"
	moreMsg  = "more information expected"
	alignMsg = "alignment specified by -A switch could not be applied"
)

// ParseError is a time specification that could not be parsed, with
// libpcp's two-line message: the text, then a caret under the problem.
type ParseError struct {
	Spec string
	At   int
	Msg  string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.Spec)
	b.WriteByte('\n')
	for i := 0; i < e.At && i < len(e.Spec); i++ {
		c := e.Spec[i]
		if c > ' ' && c < 0x7f {
			b.WriteByte(' ')
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteString("^ -- ")
	b.WriteString(e.Msg)
	b.WriteByte('\n')
	return b.String()
}

// intervalUnits are the unit words of an interval and their length in
// seconds; "s" may be added to any of more than one letter.
var intervalUnits = []struct {
	name string
	sec  float64
}{
	{"nanosecond", 1e-9}, {"microsecond", 1e-6}, {"millisecond", 1e-3},
	{"second", 1}, {"minute", 60}, {"hour", 3600}, {"day", 86400},
	{"msec", 1e-3}, {"usec", 1e-6}, {"nsec", 1e-9}, {"sec", 1}, {"min", 60},
	{"hr", 3600}, {"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400},
}

// unitDivisor gives the divisor libpcp uses for sub-second units, so
// results round as its do.
var unitDivisor = map[string]float64{
	"nanosecond": 1e9, "microsecond": 1e6, "millisecond": 1e3,
	"msec": 1e3, "usec": 1e6, "nsec": 1e9,
}

// isSpace is C's isspace for ASCII.
func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// leadingFloat parses the longest prefix of s that strtod accepts
// (decimal forms only), returning the value and its length.
func leadingFloat(s string) (float64, int) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, 0
	}
	return v, i
}

// ParseInterval parses an interval such as "10", "1.5min" or "1 hour 15
// mins 30secs" into seconds, as pmParseInterval does.
func ParseInterval(spec string) (float64, error) {
	if spec == "" {
		return 0, &ParseError{Msg: "Null or empty specification"}
	}
	sec := 0.0
	i := 0
	for i < len(spec) {
		j := i
		for j < len(spec) && isSpace(spec[j]) {
			j++
		}
		d, n := leadingFloat(spec[j:])
		if n == 0 || d < 0 {
			break
		}
		i = j + n
		for i < len(spec) && isSpace(spec[i]) {
			i++
		}
		if i == len(spec) {
			sec += d
			break
		}
		p := i
		for p < len(spec) && isAlpha(spec[p]) {
			p++
		}
		word := spec[i:p]
		if word == "" {
			sec += d
		} else {
			if len(word) > 1 && (word[len(word)-1] == 's' || word[len(word)-1] == 'S') {
				word = word[:len(word)-1]
			}
			found := false
			for _, u := range intervalUnits {
				if strings.EqualFold(word, u.name) {
					if div, ok := unitDivisor[u.name]; ok {
						sec += d / div
					} else {
						sec += d * u.sec
					}
					found = true
					break
				}
			}
			if !found {
				break
			}
		}
		i = p
	}
	if i != len(spec) {
		return 0, &ParseError{Spec: spec, At: i, Msg: whatMsg}
	}
	return sec, nil
}

// errEmpty is returned for an empty time.
var errEmpty = errors.New("empty time")
