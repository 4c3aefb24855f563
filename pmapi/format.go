package pmapi

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// FormatValue formats a as pmPrintValue(3) prints it, and so as pminfo -f
// and pmval show values: integers in decimal, floats with 8 and doubles
// with 16 significant digits, strings in double quotes, aggregates as
// their bytes in hex (with guesses at a number or text first), and event
// arrays as a summary of their records, with timestamps in loc. The result
// is right-justified in at least minwidth columns.
func FormatValue(a Atom, minwidth int, loc *time.Location) string {
	switch a.Type {
	case Type32, Type64:
		return padLeft(strconv.FormatInt(a.Int64(), 10), minwidth)
	case TypeU32, TypeU64:
		return padLeft(strconv.FormatUint(a.Uint64(), 10), minwidth)
	case TypeFloat:
		return padLeft(FormatG(a.Float64(), 8), minwidth)
	case TypeDouble:
		return padLeft(FormatG(a.Float64(), 16), minwidth)
	case TypeString:
		return padLeft(`"`+CString(a.str)+`"`, minwidth)
	case TypeAggregate, TypeAggregateStatic:
		return formatBlob(a.str, minwidth)
	case TypeEvent, TypeHighresEvent:
		return EventSummary(a, loc)
	case TypeNoSupport:
		return "pmPrintValue: bogus value, metric Not Supported\n"
	case TypeUnknown:
		return formatStored(a, minwidth)
	}
	return fmt.Sprintf("pmPrintValue: unknown value type=%d\n", int32(a.Type))
}

// CString is s as C sees it: up to its first NUL.
func CString(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// isCPrint is isprint(3) in the C locale.
func isCPrint(c byte) bool { return c >= 0x20 && c < 0x7f }

// formatStored prints a Mismatch atom as pmPrintValue prints a value it
// cannot convert: an insitu value as an unsigned integer, a float (NaNs
// left out) and in hex; a value block as formatBlob does.
func formatStored(a Atom, minwidth int) string {
	insitu, lval, block := a.Stored()
	if !insitu {
		return formatBlob(block, minwidth)
	}
	s := padLeft(strconv.FormatUint(uint64(lval), 10), minwidth)
	if f := math.Float32frombits(lval); !math.IsNaN(float64(f)) {
		s += " " + padLeft(FormatG(float64(f), 8), minwidth)
	}
	if minwidth > 2 {
		minwidth -= 2
	}
	return s + " 0x" + padLeft(strconv.FormatUint(uint64(lval), 16), minwidth)
}

// formatBlob prints the bytes of an aggregate as pmPrintValue does: a
// value of 8 bytes also as a 64-bit unsigned integer and a double, one of
// 4 bytes as a float (NaNs left out), printable bytes as a quoted string,
// and always the bytes in hex.
func formatBlob(b string, minwidth int) string {
	var parts []string
	switch len(b) {
	case 8:
		bits := binary.LittleEndian.Uint64([]byte(b))
		parts = append(parts, padLeft(strconv.FormatUint(bits, 10), minwidth))
		if d := math.Float64frombits(bits); !math.IsNaN(d) {
			parts = append(parts, padLeft(FormatG(d, 16), minwidth))
		}
	case 4:
		f := math.Float32frombits(binary.LittleEndian.Uint32([]byte(b)))
		if !math.IsNaN(float64(f)) {
			parts = append(parts, padLeft(FormatG(float64(f), 8), minwidth))
		}
	}
	printable := true
	for i := 0; i < len(b); i++ {
		if !isCPrint(b[i]) {
			printable = false
			break
		}
	}
	if printable {
		parts = append(parts, padLeft(`"`+b+`"`, minwidth))
	}
	hex := "[" + fmt.Sprintf("%x", b) + "]"
	if pad := minwidth - len(hex); pad > 0 {
		// libpcp pads before the separating space
		hex = strings.Repeat(" ", pad) + hex
		if len(parts) > 0 {
			return strings.Join(parts, " ") + hex[:pad] + " " + hex[pad:]
		}
		return hex
	}
	return strings.Join(append(parts, hex), " ")
}
