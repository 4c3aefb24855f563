package pmieconf

import (
	"math"
	"strconv"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// The C library's number conversions, as pmieconf uses them: each gives
// the value of the longest prefix of s that reads as a number (after
// leading white space), and the length of that prefix, 0 if none does.

func skipSpace(s string) int {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

func digitsAt(s string, i int, hex bool) int {
	j := i
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || hex && strings.IndexByte("abcdefABCDEF", s[j]) >= 0) {
		j++
	}
	return j
}

// strtod is strtod(3) in the C locale.
func strtod(s string) (float64, int) {
	i := skipSpace(s)
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	rest := strings.ToLower(s[i:])
	sign := 1.0
	if neg {
		sign = -1
	}
	switch {
	case strings.HasPrefix(rest, "infinity"):
		return sign * math.Inf(1), i + 8
	case strings.HasPrefix(rest, "inf"):
		return sign * math.Inf(1), i + 3
	case strings.HasPrefix(rest, "nan"):
		n := i + 3
		if n < len(s) && s[n] == '(' {
			j := n + 1
			for j < len(s) && (s[j] == '_' || s[j] >= '0' && s[j] <= '9' || s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z') {
				j++
			}
			if j < len(s) && s[j] == ')' {
				n = j + 1
			}
		}
		return math.Copysign(math.NaN(), sign), n
	}
	hex := strings.HasPrefix(rest, "0x") && len(rest) > 2 &&
		(digitsAt(rest, 2, true) > 2 || rest[2] == '.' && digitsAt(rest, 3, true) > 3)
	if hex {
		i += 2
	}
	mant := i
	j := digitsAt(s, i, hex)
	nd := j - i
	if j < len(s) && s[j] == '.' {
		k := digitsAt(s, j+1, hex)
		nd += k - j - 1
		j = k
	}
	if nd == 0 {
		return 0, 0
	}
	mantEnd := j
	expChar := byte('e')
	if hex {
		expChar = 'p'
	}
	if j < len(s) && s[j]|0x20 == expChar {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if e := digitsAt(s, k, false); e > k {
			j = e
		}
	}
	text := s[mant:mantEnd]
	if hex {
		exp := "p0"
		if j > mantEnd {
			exp = "p" + s[mantEnd+1:j]
		}
		text = "0x" + text + exp
	} else {
		text += s[mantEnd:j]
	}
	v, _ := strconv.ParseFloat(text, 64) // out of range gives ±Inf or 0, as strtod does
	return sign * v, j
}

// strtol is strtol(3) in base 10, clamping on overflow.
func strtol(s string) (int64, int) {
	neg, mag, n, over := scanInt(s)
	if n == 0 {
		return 0, 0
	}
	switch {
	case neg && (over || mag > 1<<63):
		return math.MinInt64, n
	case !neg && (over || mag > math.MaxInt64):
		return math.MaxInt64, n
	case neg:
		return -int64(mag), n
	}
	return int64(mag), n
}

// strtoul is strtoul(3) in base 10: a '-' negates in unsigned arithmetic.
func strtoul(s string) (uint64, int) {
	neg, mag, n, over := scanInt(s)
	switch {
	case n == 0:
		return 0, 0
	case over:
		return math.MaxUint64, n
	case neg:
		return -mag, n
	}
	return mag, n
}

func scanInt(s string) (neg bool, mag uint64, n int, over bool) {
	i := skipSpace(s)
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	j := digitsAt(s, i, false)
	if j == i {
		return false, 0, 0, false
	}
	for _, c := range []byte(s[i:j]) {
		d := uint64(c - '0')
		if mag > (math.MaxUint64-d)/10 {
			over = true
		}
		mag = mag*10 + d
	}
	return neg, mag, j, over
}

// cG formats v as C's printf("%g") does.
func cG(v float64) string { return pmapi.FormatG(v, 6) }
