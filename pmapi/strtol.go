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
	v, n, _ := Strtoll(s, base)
	return v, s[n:]
}

// Strtoll is strtoll(3) (and strtol(3), a long being 64 bits) in base 8,
// 10, 16 or 0 as StrtolBase reads them: the value, saturated at the
// int64 limits, the number of bytes read (0 when no digits are, however
// many blanks and signs come first), and whether it was saturated
// (strtoll's ERANGE).
func Strtoll(s string, base int) (v int64, n int, erange bool) {
	mag, neg, n, over := scanDigits(s, base)
	switch {
	case neg && (over || mag > 1<<63):
		return math.MinInt64, n, true
	case neg:
		return -int64(mag), n, false
	case over || mag > math.MaxInt64:
		return math.MaxInt64, n, true
	}
	return int64(mag), n, false
}

// Strtoull is strtoull(3) (and strtoul(3)) as Strtoll is strtoll(3): a
// negative number's magnitude is negated as an unsigned value ("-1" is
// the maximum uint64), and a magnitude beyond 64 bits saturates at the
// maximum with erange set, whatever its sign.
func Strtoull(s string, base int) (v uint64, n int, erange bool) {
	mag, neg, n, over := scanDigits(s, base)
	switch {
	case over:
		return math.MaxUint64, n, true
	case neg:
		return -mag, n, false
	}
	return mag, n, false
}

// scanDigits is what strtoll and strtoull share: blanks, a sign, the base's
// prefix, digits. It gives the digits' magnitude (saturated at the
// maximum uint64, with over set), the sign, and the bytes read, 0 (and a
// magnitude of 0) when there are no digits.
func scanDigits(s string, base int) (mag uint64, neg bool, n int, over bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
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
	start := i
	for ; i < len(s); i++ {
		d := digit(s[i], base)
		if d < 0 {
			break
		}
		if mag > (math.MaxUint64-uint64(d))/uint64(base) {
			over, mag = true, math.MaxUint64
		} else if !over {
			mag = mag*uint64(base) + uint64(d)
		}
	}
	if i == start {
		return 0, false, 0, false
	}
	return mag, neg, i, over
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
