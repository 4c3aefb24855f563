package pmapi

import "math"

// Strtol reads a number at the start of s as strtol(s, &end, 10) does:
// leading white space, a sign, decimal digits, saturating at the int64
// limits. It returns the number and what follows it; with no digits it
// reads nothing (0 and all of s).
func Strtol(s string) (int64, string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	j := i
	var n uint64
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		if n <= math.MaxInt64 {
			n = n*10 + uint64(s[j]-'0')
		}
		j++
	}
	switch {
	case j == i:
		return 0, s
	case neg && n > math.MaxInt64:
		return math.MinInt64, s[j:]
	case neg:
		return -int64(n), s[j:]
	case n > math.MaxInt64:
		return math.MaxInt64, s[j:]
	}
	return int64(n), s[j:]
}
