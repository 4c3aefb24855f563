package pmapi

// ScanFloat is strtod(3) in the C locale: it skips leading white space,
// then reads the longest prefix of s that strtod would read. It returns
// the value, the bytes read including the white space (0 if no number
// was read) and whether strtod would set ERANGE.
func ScanFloat(s string) (v float64, n int, rangeErr bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	v, n, rangeErr = scanFloat(s[i:])
	if n == 0 {
		return 0, 0, false
	}
	return v, i + n, rangeErr
}
