package ruletest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Values of a series are written in promtool's expanding notation, items
// separated by spaces:
//
//	a        the value a
//	a+bxn    a, then n more values, each b more than the last (n+1 in all)
//	a-bxn    a, then n more values, each b less than the last
//	axn      a, n+1 times (a+0xn)
//	_        no sample
//	_xn      no sample, n times
//
// a and b are decimal numbers (with an optional sign, fraction and
// exponent), n a whole number.

// maxSamples bounds how many values one series may expand to.
const maxSamples = 1 << 20

// SeriesError is a mistake in a series' values, at a byte offset into
// them.
type SeriesError struct {
	Offset, End int // the item at fault: [Offset, End)
	Msg         string
}

func (e *SeriesError) Error() string { return e.Msg }

// ParseSeries expands values written in expanding notation; NaN stands
// for no sample.
func ParseSeries(text string) ([]float64, error) {
	var out []float64
	i := 0
	for {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		if i >= len(text) {
			break
		}
		j := i
		for j < len(text) && !isSpace(text[j]) {
			j++
		}
		var err error
		if out, err = expandItem(out, text[i:j]); err != nil {
			return nil, &SeriesError{Offset: i, End: j, Msg: err.Error()}
		}
		i = j
	}
	return out, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// expandItem appends the values of one item to out.
func expandItem(out []float64, item string) ([]float64, error) {
	if rest, ok := strings.CutPrefix(item, "_"); ok {
		n := 1
		if rest != "" {
			var err error
			if n, err = repeats(rest, item); err != nil {
				return nil, err
			}
		}
		return appendN(out, n, math.NaN(), 0, item)
	}
	a, rest, err := leadingNumber(item)
	if err != nil {
		return nil, err
	}
	if rest == "" {
		return append(out, a), nil
	}
	step := 0.0
	if rest[0] == '+' || rest[0] == '-' {
		sign := rest[0]
		var b float64
		if b, rest, err = leadingNumber(rest[1:]); err != nil {
			return nil, fmt.Errorf("in %q: %v", item, err)
		}
		if rest == "" {
			return nil, fmt.Errorf("%q has a step but no count: write %sxN", item, item)
		}
		if step = b; sign == '-' {
			step = -b
		}
	}
	n, err := repeats(rest, item)
	if err != nil {
		return nil, err
	}
	return appendN(out, n+1, a, step, item)
}

// repeats reads the "xn" ending an item.
func repeats(rest, item string) (int, error) {
	digits, ok := strings.CutPrefix(rest, "x")
	if !ok || digits == "" {
		return 0, fmt.Errorf("%q is not a value: expected a number, _, a+bxN, a-bxN, axN or _xN", item)
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a value: the count after x must be a whole number", item)
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n > maxSamples {
		return 0, fmt.Errorf("%q repeats too many times (at most %d)", item, maxSamples)
	}
	return n, nil
}

// appendN appends n values, from a by step.
func appendN(out []float64, n int, a, step float64, item string) ([]float64, error) {
	if len(out)+n > maxSamples {
		return nil, fmt.Errorf("%q makes the series too long (at most %d values)", item, maxSamples)
	}
	for k := range n {
		v := a
		if step != 0 {
			v = a + float64(k)*step
		}
		out = append(out, v)
	}
	return out, nil
}

// leadingNumber reads the decimal number at the start of s.
func leadingNumber(s string) (float64, string, error) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return 0, s, fmt.Errorf("%q is not a value: expected a number, _, a+bxN, a-bxN, axN or _xN", s)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, s, fmt.Errorf("%q is out of range", s[:i])
	}
	return v, s[i:], nil
}
