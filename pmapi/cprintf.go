package pmapi

import (
	"math"
	"strconv"
	"strings"
)

// This file formats numbers as C's printf does, for output that must match
// PCP's byte for byte.

// cSpecial is how printf writes infinities and NaNs: "inf", "-inf", "nan"
// or "-nan" (glibc shows a NaN's sign bit).
func cSpecial(v float64) (string, bool) {
	switch {
	case math.IsInf(v, 1):
		return "inf", true
	case math.IsInf(v, -1):
		return "-inf", true
	case math.IsNaN(v):
		if math.Signbit(v) {
			return "-nan", true
		}
		return "nan", true
	}
	return "", false
}

// FormatG formats v as printf's "%.<prec>g" does: prec significant
// digits, exponent form when the exponent is below -4 or at least prec,
// trailing zeros removed.
func FormatG(v float64, prec int) string {
	if s, ok := cSpecial(v); ok {
		return s
	}
	if prec == 0 {
		prec = 1
	}
	e := strconv.FormatFloat(v, 'e', prec-1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	if x < -4 || x >= prec {
		return trimFraction(mant) + cExponent(x)
	}
	return trimFraction(strconv.FormatFloat(v, 'f', prec-1-x, 64))
}

// FormatE formats v as printf's "%e" does.
func FormatE(v float64) string { return FormatEPrec(v, 6) }

// FormatEPrec formats v as printf's "%.<prec>e" does.
func FormatEPrec(v float64, prec int) string {
	if s, ok := cSpecial(v); ok {
		return s
	}
	e := strconv.FormatFloat(v, 'e', prec, 64)
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	return mant + cExponent(x)
}

// cExponent is printf's exponent suffix: "e+06", "e-10", "e+300".
func cExponent(x int) string {
	sign := "+"
	if x < 0 {
		sign, x = "-", -x
	}
	s := strconv.Itoa(x)
	if len(s) < 2 {
		s = "0" + s
	}
	return "e" + sign + s
}

// trimFraction drops trailing zeros after a decimal point, and the point
// itself if nothing follows it.
func trimFraction(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// padLeft right-justifies s in width columns, as printf's "%*s" does.
func padLeft(s string, width int) string {
	if len(s) >= width {
		return s
	}
	return strings.Repeat(" ", width-len(s)) + s
}
