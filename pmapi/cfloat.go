package pmapi

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// This file holds the two pieces of C floating point behaviour that unit
// parsing depends on: how far strtod(3) reads and what it gives, and pow(3)
// for whole powers, correctly rounded.

func isHexDigit(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// digitsRun is the length of the run at the start of s of bytes for which
// ok holds.
func digitsRun(s string, ok func(byte) bool) int {
	n := 0
	for n < len(s) && ok(s[n]) {
		n++
	}
	return n
}

// mantissaLen is the length of "digits[.digits]" at the start of s, with
// at least one digit, and whether any digit is not zero.
func mantissaLen(s string, digit func(byte) bool) (n int, nonzero bool) {
	n = digitsRun(s, digit)
	if n < len(s) && s[n] == '.' {
		n += 1 + digitsRun(s[n+1:], digit)
	}
	if n == 0 || (n == 1 && s[0] == '.') {
		return 0, false
	}
	nonzero = strings.Trim(s[:n], "0.") != ""
	return n, nonzero
}

// exponentLen is the length of an exponent "e[+-]digits" (or with 'p' for
// hexadecimal) at the start of s, or 0 if there is none.
func exponentLen(s string, mark byte) int {
	if len(s) == 0 || (s[0]|0x20) != mark {
		return 0
	}
	i := 1
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	d := digitsRun(s[i:], isDigit)
	if d == 0 {
		return 0
	}
	return i + d
}

// scanFloat reads the longest prefix of s that strtod(3) would read in the
// C locale: a sign, then a decimal or hexadecimal number, "inf",
// "infinity" or "nan(...)". It returns the value, the bytes read (0 if
// none) and whether strtod would set ERANGE (overflow, or an inexact
// result below the normal range).
func scanFloat(s string) (v float64, n int, rangeErr bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	rest := s[i:]
	sign := 1.0
	if neg {
		sign = -1
	}
	switch {
	case len(rest) >= 3 && asciiEqualFold(rest[:3], "inf"):
		if len(rest) >= 8 && asciiEqualFold(rest[:8], "infinity") {
			return math.Inf(int(sign)), i + 8, false
		}
		return math.Inf(int(sign)), i + 3, false
	case len(rest) >= 3 && asciiEqualFold(rest[:3], "nan"):
		n := i + 3
		if n < len(s) && s[n] == '(' {
			k := digitsRun(s[n+1:], func(c byte) bool {
				return isDigit(c) || c == '_' || ('a' <= c|0x20 && c|0x20 <= 'z')
			})
			if n+1+k < len(s) && s[n+1+k] == ')' {
				n += k + 2
			}
		}
		return math.Copysign(math.NaN(), sign), n, false
	case len(rest) >= 2 && rest[0] == '0' && rest[1]|0x20 == 'x':
		if m, nonzero := mantissaLen(rest[2:], isHexDigit); m > 0 {
			m += 2
			m += exponentLen(rest[m:], 'p')
			return hexValue(s[:i+m], nonzero)
		}
		// "0x" without hex digits reads as the "0" alone
		return math.Copysign(0, sign), i + 1, false
	}
	m, nonzero := mantissaLen(rest, isDigit)
	if m == 0 {
		return 0, 0, false
	}
	m += exponentLen(rest[m:], 'e')
	text := s[:i+m]
	v, err := strconv.ParseFloat(text, 64)
	if err != nil { // only ErrRange: the syntax is checked above
		return v, i + m, true
	}
	return v, i + m, nonzero && tinyInexact(v, func() *big.Rat {
		r, _ := new(big.Rat).SetString(text)
		return r
	})
}

// hexValue converts a hexadecimal float (with or without a 'p' exponent,
// which strconv insists on).
func hexValue(text string, nonzero bool) (float64, int, bool) {
	full := text
	if !strings.ContainsAny(text[2:], "pP") {
		full += "p0"
	}
	v, err := strconv.ParseFloat(full, 64)
	if err != nil {
		return v, len(text), true
	}
	return v, len(text), nonzero && tinyInexact(v, func() *big.Rat {
		f, _, err := big.ParseFloat(full, 0, uint(4*len(full)+64), big.ToNearestEven)
		if err != nil {
			return nil
		}
		r, _ := f.Rat(nil)
		return r
	})
}

// tinyInexact reports whether v, the rounded value of a number that is not
// zero, lies below the normal range and differs from the exact value.
func tinyInexact(v float64, exact func() *big.Rat) bool {
	if math.Abs(v) >= 0x1p-1022 {
		return false
	}
	if v == 0 {
		return true
	}
	r := exact()
	return r == nil || r.Cmp(new(big.Rat).SetFloat64(v)) != 0
}

// powInt is pow(x, n) for a whole n, rounded once from the exact result,
// as glibc's pow rounds for the values units use.
func powInt(x float64, n int) float64 {
	if n == 0 {
		return 1
	}
	if math.IsInf(x, 0) || math.IsNaN(x) || x == 0 {
		return math.Pow(x, float64(n))
	}
	base := new(big.Rat).SetFloat64(x)
	r := new(big.Rat).SetInt64(1)
	k := n
	if k < 0 {
		k = -k
	}
	for ; k > 0; k-- {
		r.Mul(r, base)
	}
	if n < 0 {
		r.Inv(r)
	}
	f, _ := r.Float64()
	return f
}
