package pmieconf

import "github.com/gopcp/pmie/pmapi"

// The C library's number conversions, as pmieconf uses them: each gives
// the value of the longest prefix of s that reads as a number (after
// leading white space), and the length of that prefix, 0 if none does.

// skipSpace is the number of blanks s begins with.
func skipSpace(s string) int {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// strtod is strtod(3) in the C locale.
func strtod(s string) (float64, int) {
	v, n, _ := pmapi.ScanFloat(s)
	return v, n
}

// strtol is strtol(3) in base 10, clamping on overflow.
func strtol(s string) (int64, int) {
	v, n, _ := pmapi.Strtoll(s, 10)
	return v, n
}

// strtoul is strtoul(3) in base 10: a '-' negates in unsigned arithmetic.
func strtoul(s string) (uint64, int) {
	v, n, _ := pmapi.Strtoull(s, 10)
	return v, n
}

// cG formats v as C's printf("%g") does.
func cG(v float64) string { return pmapi.FormatG(v, 6) }
