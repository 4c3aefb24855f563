package pmapi

import "math"

// Strtol reads a number at the start of s as strtol(s, &end, 10) does:
// leading white space, a sign, decimal digits, saturating at the int64
// limits. It returns the number and what follows it; with no digits it
// reads nothing (0 and all of s).
func Strtol(s string) (int64, string) { return StrtolBase(s, 10) }

// Atoi is atoi(3) as glibc has it on a 64-bit system: Strtol's number,
// saturated at the long's limits, cut to an int's 32 bits (so that
// "4294967298" is 2).
func Atoi(s string) int {
	n, _ := Strtol(s)
	return int(int32(n))
}

// StrtolBase is strtol(s, &end, base) for base 8, 10 or 16, or 0: a
// "0x" or "0X" before a hexadecimal digit makes it 16, else a leading 0
// makes it 8, else it is 10. A "0x" with no hexadecimal digit after it
// reads as the 0 alone.
func StrtolBase(s string, base int) (int64, string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	hexPrefix := i+2 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && digit(s[i+2], 16) >= 0
	switch {
	case (base == 0 || base == 16) && hexPrefix:
		base, i = 16, i+2
	case base == 0 && i < len(s) && s[i] == '0':
		base = 8
	case base == 0:
		base = 10
	}
	j := i
	var n uint64
	for ; j < len(s); j++ {
		d := digit(s[j], base)
		if d < 0 {
			break
		}
		if n <= math.MaxInt64 {
			n = n*uint64(base) + uint64(d)
		}
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

// digit is the value of c as a digit of base, or -1.
func digit(c byte, base int) int {
	d := 99
	switch {
	case c >= '0' && c <= '9':
		d = int(c - '0')
	case c >= 'a' && c <= 'z':
		d = int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		d = int(c-'A') + 10
	}
	if d >= base {
		return -1
	}
	return d
}
