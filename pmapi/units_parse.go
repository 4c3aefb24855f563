package pmapi

import (
	"strconv"
	"strings"
)

// UnitsError is the error ParseUnits returns: the message pmParseUnitsStr
// gives in its errMsg. It unwraps to ErrConv, the code PCP returns with it.
type UnitsError struct {
	Msg string
}

func (e *UnitsError) Error() string { return e.Msg }

// Unwrap gives ErrConv.
func (e *UnitsError) Unwrap() error { return ErrConv }

// The messages of pmParseUnitsStr.
const (
	msgBadFloat   = "invalid floating point literal"
	msgBadUnit    = "unrecognized or duplicate base unit"
	msgTimeScale  = "time scale out of range" // ours: libpcp asserts instead
	msgSpaceRange = "space dimension out of bounds"
	msgTimeRange  = "time dimension out of bounds"
	msgCountRange = "count dimension out of bounds"
)

// keyword is a unit word and the scale it stands for.
type keyword struct {
	word  string
	scale int
}

// The unit words pmParseUnitsStr accepts, in the order it tries them: a
// word matches only when followed by white space, '^' or the end, so a
// shorter word after a longer one with the same start is harmless.
var (
	timeWords = []keyword{
		{"nanoseconds", TimeNSec}, {"nanosecond", TimeNSec}, {"nanosec", TimeNSec}, {"ns", TimeNSec},
		{"microseconds", TimeUSec}, {"microsecond", TimeUSec}, {"microsec", TimeUSec}, {"us", TimeUSec},
		{"milliseconds", TimeMSec}, {"millisecond", TimeMSec}, {"millisec", TimeMSec}, {"ms", TimeMSec},
		{"seconds", TimeSec}, {"second", TimeSec}, {"sec", TimeSec}, {"s", TimeSec},
		{"minutes", TimeMin}, {"minute", TimeMin}, {"min", TimeMin},
		{"hours", TimeHour}, {"hour", TimeHour}, {"hr", TimeHour}, {"h", TimeHour},
	}
	spaceWords = []keyword{
		{"bytes", SpaceByte}, {"byte", SpaceByte},
	}
	countWords = []keyword{
		{"count x 10^-8", -8}, {"count x 10^-7", -7}, {"count x 10^-6", -6}, {"count x 10^-5", -5},
		{"count x 10^-4", -4}, {"count x 10^-3", -3}, {"count x 10^-2", -2}, {"count x 10^-1", -1},
		{"count x 10^2", 2}, {"count x 10^3", 3}, {"count x 10^4", 4}, {"count x 10^5", 5},
		{"count x 10^6", 6}, {"count x 10^7", 7},
		{"count x 10", 1}, {"counts", 0}, {"count", 0},
	}
	// exponentWords run from ^-8 to ^15: a divisor's power is negated
	// later, so "/ sec^8" must be readable.
	exponentWords []keyword
)

func init() {
	// "time-N" and "space-N" name raw scales 0..15; "-1" goes last so that
	// "-10".."-15" are tried first.
	numbered := func(prefix string) []keyword {
		var ks []keyword
		for n := 0; n <= 15; n++ {
			if n != 1 {
				ks = append(ks, keyword{prefix + strconv.Itoa(n), n})
			}
		}
		return append(ks, keyword{prefix + "1", 1})
	}
	timeWords = append(timeWords, numbered("time-")...)

	// Each multiple of a byte has six spellings: "KB", "KiB", "Kbytes",
	// "Kbyte", "Kibibytes", "Kibibyte", and the older "Kilobytes",
	// "Kilobyte".
	bin := []string{"Kibi", "Mebi", "Gibi", "Tebi", "Pebi", "Exbi", "Zebi", "Yobi"}
	dec := []string{"Kilo", "Mega", "Giga", "Tera", "Peta", "Exa", "Zetta", "Yotta"}
	for i, p := range "KMGTPEZY" {
		s, sc := string(p), i+1
		for _, w := range []string{s + "B", s + "iB", s + "bytes", s + "byte",
			bin[i] + "bytes", bin[i] + "byte", dec[i] + "bytes", dec[i] + "byte"} {
			spaceWords = append(spaceWords, keyword{w, sc})
		}
	}
	spaceWords = append(spaceWords, numbered("space-")...)

	for n := -8; n <= 15; n++ {
		if n != 1 {
			exponentWords = append(exponentWords, keyword{"^" + strconv.Itoa(n), n})
		}
	}
	exponentWords = append(exponentWords, keyword{"^1", 1})
}

// isCSpace is isspace(3) in the C locale.
func isCSpace(c byte) bool {
	return c == ' ' || (c >= '\t' && c <= '\r')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// unitsPart is one side of a "/" in a units string, with room for powers
// beyond those Units can hold.
type unitsPart struct {
	dim   [3]int // space, time, count
	scale [3]int
}

const (
	axisSpace = iota
	axisTime
	axisCount
)

// wordAt reports whether s has word (ASCII, any case) at i, followed by
// white space, '^' or the end of s.
func wordAt(s string, i int, word string) bool {
	end := i + len(word)
	if end > len(s) || !asciiEqualFold(s[i:end], word) {
		return false
	}
	return end == len(s) || isCSpace(s[end]) || s[end] == '^'
}

func asciiEqualFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// matchWord finds the first of words at s[i:], giving its scale and
// length.
func matchWord(s string, i int, words []keyword) (scale, n int, ok bool) {
	for _, k := range words {
		if wordAt(s, i, k.word) {
			return k.scale, len(k.word), true
		}
	}
	return 0, 0, false
}

// parseUnitsPart reads one side of a units string: numbers multiply into
// the multiplier, and each axis may be named once, with an optional power.
func parseUnitsPart(s string) (unitsPart, float64, error) {
	var p unitsPart
	mult := 1.0
	tables := [3][]keyword{axisSpace: spaceWords, axisTime: timeWords, axisCount: countWords}
	for i := 0; i < len(s); {
		c := s[i]
		if isCSpace(c) {
			i++
			continue
		}
		if c == '-' || c == '.' || isDigit(c) {
			v, n, rangeErr := scanFloat(s[i:])
			if n == 0 || rangeErr {
				return unitsPart{}, 1, &UnitsError{msgBadFloat}
			}
			mult *= v
			i += n
			continue
		}
		axis := -1
		// time words first, then space, then count, as libpcp does
		for _, a := range [3]int{axisTime, axisSpace, axisCount} {
			if p.dim[a] != 0 {
				continue
			}
			if scale, n, ok := matchWord(s, i, tables[a]); ok {
				p.scale[a] = scale
				axis = a
				i += n
				break
			}
		}
		if axis < 0 {
			return unitsPart{}, 1, &UnitsError{msgBadUnit}
		}
		if i == len(s) || isCSpace(s[i]) {
			p.dim[axis] = 1
			continue
		}
		// s[i] is '^'; an unknown power leaves it to fail as a unit word
		if power, n, ok := matchWord(s, i, exponentWords); ok {
			p.dim[axis] = power
			i += n
		}
	}
	return p, mult, nil
}

// timeScaleSeconds is the length in seconds of each Time* scale.
var timeScaleSeconds = [...]float64{0.000000001, 0.000001, 0.001, 1, 60, 3600}

// ParseUnits is pmParseUnitsStr(3): it reads units written as pmUnitsStr
// writes them, and the wider syntax libpcp accepts (synonyms in any case,
// powers "^-2", numeric factors, one "/"). It returns the units and the
// multiplier by which a value counted in s must be multiplied to be a value
// in the returned units (so "2 count" gives count and 0.5). Errors are
// *UnitsError with libpcp's message, wrapping ErrConv.
//
// Where libpcp 6.0.3 dies on an assertion (a time scale above hour,
// "time-6" and up, on both sides of the "/" or with power 0), ParseUnits
// returns an error instead.
func ParseUnits(s string) (Units, float64, error) {
	s = CString(s) // C sees only up to the NUL
	top, bottom := s, ""
	if i := strings.IndexByte(s, '/'); i >= 0 {
		top, bottom = s[:i], s[i+1:]
	}
	dividend, dividendMult, err := parseUnitsPart(top)
	if err != nil {
		return Units{}, 1, err
	}
	divisor, divisorMult, err := parseUnitsPart(bottom)
	if err != nil {
		return Units{}, 1, err
	}

	var u Units
	msgs := [3]string{msgSpaceRange, msgTimeRange, msgCountRange}
	var dims [3]int8
	for a := range dims {
		d := dividend.dim[a] - divisor.dim[a]
		if d < -8 || d > 7 {
			return Units{}, 1, &UnitsError{msgs[a]}
		}
		dims[a] = int8(d)
	}
	u.DimSpace, u.DimTime, u.DimCount = dims[axisSpace], dims[axisTime], dims[axisCount]

	mult := divisorMult / dividendMult
	// Each axis keeps the scale of the side that has it; when both sides
	// (or neither) have it, the scale goes into the multiplier.
	scale := func(a, base int, factor func(scale int) float64) int {
		switch {
		case dividend.dim[a] == 0 && divisor.dim[a] != 0:
			return divisor.scale[a]
		case divisor.dim[a] == 0 && dividend.dim[a] != 0:
			return dividend.scale[a]
		}
		mult *= powInt(factor(dividend.scale[a]), -dividend.dim[a])
		mult *= powInt(factor(divisor.scale[a]), divisor.dim[a])
		if dims[a] == 0 {
			return 0
		}
		return base
	}
	u.ScaleSpace = int8(scale(axisSpace, SpaceByte, func(s int) float64 { return powInt(1024, s) }))
	u.ScaleCount = int8(scale(axisCount, 0, func(s int) float64 { return powInt(10, s) }))
	if (dividend.dim[axisTime] == 0) == (divisor.dim[axisTime] == 0) &&
		(dividend.scale[axisTime] > TimeHour || divisor.scale[axisTime] > TimeHour) {
		return Units{}, 1, &UnitsError{msgTimeScale}
	}
	u.ScaleTime = int8(scale(axisTime, TimeSec, func(s int) float64 { return timeScaleSeconds[s] }))
	return u, mult, nil
}
