package pmapi

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// This file reads the time syntax of PCPIntro(1) as libpcp's
// pmParseHighResInterval, __pmParseHighResTime and
// pmParseHighResTimeWindow do: intervals ("5min", "1.5 hours"), offsets
// from the start ("+30s") or end ("-1h") of a time window, and absolute
// times in ctime(3) style ("@ Mon Apr 16 10:01:25 2018", "@10:30"), for
// the -S, -T, -A and -O options of the PCP tools.

// Forever is the end of a time window that has none (a live source);
// libpcp's PM_MAX_TIME_T.
const Forever Time = math.MaxInt64

// TimeSpecError is a time or interval that does not parse. Its text is
// libpcp's: the specification, a line with a caret under the point of the
// error and the reason, as in
//
//	garbage
//	^ -- unexpected value
type TimeSpecError struct {
	Msg string
}

func (e *TimeSpecError) Error() string { return e.Msg }

// The reasons a TimeSpecError gives.
const (
	msgUnexpected = "unexpected value"
	msgMore       = "more information expected"
	msgAlign      = "alignment specified by -A switch could not be applied"
)

// specError builds libpcp's message for spec failing at byte point.
func specError(spec string, point int, why string) *TimeSpecError {
	var b strings.Builder
	b.WriteString(spec)
	b.WriteByte('\n')
	for i := 0; i < point && i < len(spec); i++ {
		if c := spec[i]; c > ' ' && c < 0x7f { // isgraph
			b.WriteByte(' ')
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteString("^ -- " + why + "\n")
	return &TimeSpecError{b.String()}
}

// intervalUnits are the scale words of an interval, in the order libpcp
// tries them, with their length in seconds.
var intervalUnits = []struct {
	name string
	secs float64 // negative: divide by -secs
}{
	{"nanosecond", -1e9}, {"microsecond", -1e6}, {"millisecond", -1e3},
	{"second", 1}, {"minute", 60}, {"hour", 3600}, {"day", 86400},
	{"msec", -1e3}, {"usec", -1e6}, {"nsec", -1e9},
	{"sec", 1}, {"min", 60}, {"hr", 3600},
	{"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400},
}

// maxTimeT is PM_MAX_TIME_T as a double.
const maxTimeT = float64(math.MaxInt64)

func skipSpace(s string, i int) int {
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	return i
}

// parseDoubleAt is libpcp's parseDouble: after white space, a strtod(3)
// number within [lo, hi]. It returns the value and the position after it,
// or ok false and the position after the white space.
func parseDoubleAt(s string, i int, lo, hi float64) (float64, int, bool) {
	i = skipSpace(s, i)
	v, n, _ := scanFloat(s[i:])
	if n == 0 || v < lo || v > hi || math.IsNaN(v) {
		return 0, i, false
	}
	return v, i + n, true
}

// intervalSeconds is __pmParseInterval: a sum of numbers, each with an
// optional unit (seconds by default; a trailing 's' is ignored).
func intervalSeconds(spec string) (float64, error) {
	if spec == "" {
		return 0, specError("", 0, "Null or empty specification")
	}
	sec := 0.0
	i := 0
	for i < len(spec) {
		d, next, ok := parseDoubleAt(spec, i, 0, maxTimeT)
		if !ok {
			i = next
			break
		}
		i = skipSpace(spec, next)
		if i == len(spec) {
			sec += d
			break
		}
		end := i
		for end < len(spec) && isAlpha(spec[end]) {
			end++
		}
		word := spec[i:end]
		if len(word) > 1 && (word[len(word)-1]|0x20) == 's' {
			word = word[:len(word)-1]
		}
		if word == "" {
			sec += d
		} else {
			found := false
			for _, u := range intervalUnits {
				if len(word) == len(u.name) && asciiEqualFold(word, u.name) {
					if u.secs < 0 {
						sec += d / -u.secs
					} else {
						sec += d * u.secs
					}
					found = true
					break
				}
			}
			if !found {
				break
			}
		}
		i = end
	}
	if i < len(spec) {
		return 0, specError(spec, i, msgUnexpected)
	}
	return sec, nil
}

func isAlpha(c byte) bool { return ('a' <= c|0x20 && c|0x20 <= 'z') }

// extended is a number in the 64-bit precision of x86's long double.
func extended(x float64) *big.Float { return new(big.Float).SetPrec(64).SetFloat64(x) }

// secondsToTime is seconds as a Time, split as pmtimespecFromReal splits
// them (see splitSeconds).
func secondsToTime(secs float64) Time {
	if secs >= 9e9 {
		return Forever
	}
	whole, ns := splitSeconds(secs)
	return Time(whole*1e9 + ns)
}

// splitSeconds splits seconds (below 2^63) as pmtimespecFromReal does:
// whole seconds truncated, nanoseconds rounded in long double arithmetic.
func splitSeconds(secs float64) (whole, nsec int64) {
	w := math.Trunc(secs)
	frac := extended(secs - w)
	frac.Mul(frac, extended(1e9))
	frac.Add(frac, extended(0.5))
	ns, _ := frac.Int64()
	return int64(w), ns
}

// intervalOffset is an interval of secs seconds as __pmParseHighResTime
// adds it to (or takes it from) a time: split by splitSeconds, the whole
// seconds then cut to a C int, so that 2^32 seconds is none. Beyond
// time_t (2^63 seconds) x86 makes both parts its out-of-range integer,
// which the cut makes 0.
func intervalOffset(secs float64) Time {
	if !(secs < 1<<63) {
		return 0
	}
	whole, ns := splitSeconds(secs)
	return Time(int32(whole))*1e9 + Time(ns)
}

// clampedTime is sec and nsec as a Time, held at the ends of Time's range
// (years 1677 to 2262) for instants beyond them.
func clampedTime(sec, nsec int64) Time {
	const limit = math.MaxInt64 / 1_000_000_000
	switch {
	case sec >= limit:
		return Forever
	case sec < -limit:
		return math.MinInt64
	}
	return TimeOf(sec, nsec)
}

// addSaturating is t + d, held at the ends of Time's range.
func addSaturating(t, d Time) Time {
	switch {
	case d > 0 && t > math.MaxInt64-d:
		return Forever
	case d < 0 && t < math.MinInt64-d:
		return math.MinInt64
	}
	return t + d
}

// ParseInterval is pmParseHighResInterval(3): a PCPIntro(1) interval such
// as "10", "2.5min" or "1 hour 30 minutes".
func ParseInterval(spec string) (time.Duration, error) {
	secs, err := intervalSeconds(spec)
	if err != nil {
		return 0, err
	}
	return time.Duration(secondsToTime(secs)), nil
}

// ctimeSpec is a partly specified absolute time read from ctime(3)-like
// text: fields left unset are -1.
type ctimeSpec struct {
	mon, mday, hour, min, sec, year int
	nsec                            int
}

var (
	weekdayCodes = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
	monthCodes   = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	ampmCodes    = []string{"am", "pm"}
)

// parse3char is libpcp's: up to three letters, after white space, naming
// one of codes. It returns the code's index and the position after the
// letters, or -1 and the position after the white space.
func parse3char(s string, i int, codes []string) (int, int) {
	i = skipSpace(s, i)
	if i >= len(s) || !isAlpha(s[i]) {
		return -1, i
	}
	j := i
	for j < len(s) && j < i+3 && isAlpha(s[j]) {
		j++
	}
	word := strings.ToLower(s[i:j])
	for k, c := range codes {
		if word == c {
			return k, j
		}
	}
	return -1, i
}

// parseIntAt is libpcp's parseInt: a strtol(3) number within [lo, hi].
func parseIntAt(s string, i int, lo, hi int) (int, int, bool) {
	i = skipSpace(s, i)
	j := i
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	d := leadingDigits(s[j:])
	if d == "" {
		return 0, i, false
	}
	v, err := strconv.ParseInt(s[i:j+len(d)], 10, 64)
	if err != nil || v < int64(lo) || v > int64(hi) {
		return 0, i, false
	}
	return int(v), j + len(d), true
}

// fracNanos is libpcp's conversion of the fraction of seconds d to
// nanoseconds: truncated, in long double arithmetic.
func fracNanos(d float64) int {
	f := extended(d - math.Trunc(d))
	f.Mul(f, extended(1e9))
	n, _ := f.Int64()
	return int(n)
}

// parseCtime is __pmParseCtime.
func parseCtime(spec string) (ctimeSpec, error) {
	t := ctimeSpec{-1, -1, -1, -1, -1, -1, -1}
	weekday, i := parse3char(spec, 0, weekdayCodes)
	t.mon, i = parse3char(spec, i, monthCodes)
	i = t.dayHour(spec, i)
	i = t.clock(spec, i)
	i = t.meridian(spec, i)
	var v int
	var ok bool
	if v, i, ok = parseIntAt(spec, i, 1900, 9999); ok {
		t.year = v
	}
	i = skipSpace(spec, i)
	if i < len(spec) {
		return t, specError(spec, i, msgUnexpected)
	}
	if t.incomplete(weekday) {
		return t, specError(spec, i, msgMore)
	}
	t.fillBelow()
	return t, nil
}

// dayHour reads the day of the month and the hour, where given, at i in
// spec, and returns the position after them. A lone number up to 23 is
// the hour when no month was given or a ':' follows it; a day 0 with an
// hour is no day.
func (t *ctimeSpec) dayHour(spec string, i int) int {
	var v int
	var ok bool
	if v, i, ok = parseIntAt(spec, i, 0, 31); ok {
		t.mday = v
	}
	if v, i, ok = parseIntAt(spec, i, 0, 23); ok {
		t.hour = v
	}
	if t.mday == 0 && t.hour != -1 {
		t.mday = -1
	}
	if t.hour == -1 && t.mday >= 0 && t.mday <= 23 && (t.mon == -1 || (i < len(spec) && spec[i] == ':')) {
		t.hour, t.mday = t.mday, -1
	}
	return i
}

// colon reports whether a ':' follows the white space at i in spec, and
// returns the position after it, else after the white space.
func colon(spec string, i int) (int, bool) {
	j := skipSpace(spec, i)
	if j < len(spec) && spec[j] == ':' {
		return j + 1, true
	}
	return j, false
}

// clock reads ":MM[:SS.FFF]" at i in spec, where given, and returns the
// position after it. A ':' alone sets the hour (if none) and the minute
// to 0.
func (t *ctimeSpec) clock(spec string, i int) int {
	i, ok := colon(spec, i)
	if !ok {
		return i
	}
	if t.hour == -1 {
		t.hour = 0
	}
	t.min = 0
	var v int
	if v, i, ok = parseIntAt(spec, i, 0, 59); ok {
		t.min = v
	}
	if i, ok = colon(spec, i); !ok {
		return i
	}
	d, next, ok := parseDoubleAt(spec, i, 0, 61)
	if ok {
		t.sec, t.nsec = int(d), fracNanos(d)
	}
	return next
}

// meridian reads "am" or "pm" at i in spec, where given, and returns the
// position after it. After an hour over 12, or none, it is not taken: the
// position goes back to its letters, which are then unexpected.
func (t *ctimeSpec) meridian(spec string, i int) int {
	pm, j := parse3char(spec, i, ampmCodes)
	if pm < 0 {
		return j
	}
	switch {
	case t.hour > 12 || t.hour == -1:
		j -= 2
	case pm == 1 && t.hour < 12:
		t.hour += 12
	case pm == 0 && t.hour == 12:
		t.hour = 0
	}
	return j
}

// incomplete reports whether t, with weekday, says too little to be a
// time: a weekday without a month or day, or an hour without minutes,
// day, month or year.
func (t ctimeSpec) incomplete(weekday int) bool {
	return (weekday != -1 && t.mon == -1 && t.mday == -1) ||
		(t.hour != -1 && t.min == -1 && t.mday == -1 && t.mon == -1 && t.year == -1)
}

// fillBelow gives the fields below the most significant one given their
// start (month 0, day 1, hour, minute and second 0).
func (t *ctimeSpec) fillBelow() {
	dflt := t.year != -1
	fill := func(f *int, zero int) {
		if *f != -1 {
			dflt = true
		} else if dflt {
			*f = zero
		}
	}
	fill(&t.mon, 0)
	fill(&t.mday, 1)
	fill(&t.hour, 0)
	fill(&t.min, 0)
	if t.sec == -1 && dflt {
		t.sec, t.nsec = 0, 0
	}
}

// resolve is __pmConvertHighResTime for an absolute time: fields not
// given are taken from origin, moving to the next month (day, hour...)
// when the given field is earlier than origin's.
func (t ctimeSpec) resolve(origin Time, loc *time.Location) Time {
	var y, mo, d, h, mi, s, ns int
	if t.year != -1 {
		y, mo, d, h, mi, s, ns = t.year, t.mon, t.mday, t.hour, t.min, t.sec, t.nsec
	} else {
		o := origin.Std().In(loc)
		y, mo, d, h, mi, s = o.Year(), int(o.Month())-1, o.Day(), o.Hour(), o.Minute(), o.Second()
		ns = int(origin.Nsec())
		switch {
		case t.mon != -1:
			if t.mon < mo {
				y++
			}
			mo, d, h, mi, s, ns = t.mon, t.mday, t.hour, t.min, t.sec, t.nsec
		case t.mday != -1:
			if t.mday < d {
				mo++
			}
			d, h, mi, s, ns = t.mday, t.hour, t.min, t.sec, t.nsec
		case t.hour != -1:
			if t.hour < h {
				d++
			}
			h, mi, s, ns = t.hour, t.min, t.sec, t.nsec
		case t.min != -1:
			if t.min < mi {
				h++
			}
			mi, s, ns = t.min, t.sec, t.nsec
		case t.sec != -1:
			if t.sec < s {
				mi++
			}
			s, ns = t.sec, t.nsec
		}
	}
	// mktime(3) normalises out-of-range fields as time.Date does; the
	// nanoseconds are kept apart from it
	secs := time.Date(y, time.Month(mo+1), d, h, mi, s, 0, loc).Unix()
	return clampedTime(secs, int64(ns))
}

// ParseTime is __pmParseHighResTime: a time given as "@" and a ctime(3)
// style date, "-" and an interval before end (when end is not Forever),
// or an optional "+" and an interval after start (its whole seconds cut
// to 32 bits, as libpcp keeps them in an int). Absolute times are read
// in loc. When the text after the prefix is none of these, it is read as
// a getdate(3) style date (see getdate.go), after one more '@' if there
// is one; if that fails too, the error is the first reading's.
func ParseTime(spec string, start, end Time, loc *time.Location) (Time, error) {
	i := skipSpace(spec, 0)
	var err error
	switch {
	case i < len(spec) && spec[i] == '@':
		i++
		var t ctimeSpec
		if t, err = parseCtime(spec[i:]); err == nil {
			return t.resolve(start, loc), nil
		}
	case end != Forever && i < len(spec) && spec[i] == '-':
		i++
		var secs float64
		if secs, err = intervalSeconds(spec[i:]); err == nil {
			return addSaturating(end, -intervalOffset(secs)), nil
		}
	default:
		if i < len(spec) && spec[i] == '+' {
			i++
		}
		var secs float64
		if secs, err = intervalSeconds(spec[i:]); err == nil {
			return addSaturating(start, intervalOffset(secs)), nil
		}
	}
	if j := skipSpace(spec, i); j < len(spec) && spec[j] == '@' {
		i = j + 1
	}
	text := CString(spec[i:])
	if secs, ok := getdate(text, getdateRef(text, start, end), loc); ok {
		return clampedTime(secs, 0), nil
	}
	return 0, err
}

// now is the current time, which getdate texts with no unit ("today",
// "10:30", "") are read relative to; a variable for tests.
var now = func() Time { return FromStd(time.Now()) }

// TimeWindow is what the -S, -T and -O options select within the time
// span of a source (pmParseHighResTimeWindow).
type TimeWindow struct {
	Start, End, Origin Time
}

// WindowSpec holds the arguments of -S (Start), -T (End), -A (Align) and
// -O (Origin). Nil is an option not given, which libpcp tells from one
// given as "" (an empty time is now, an empty alignment an error).
type WindowSpec struct{ Start, End, Align, Origin *string }

// Given reports whether any of the options was given.
func (s WindowSpec) Given() bool {
	return s.Start != nil || s.End != nil || s.Align != nil || s.Origin != nil
}

// ParseTimeWindow is pmParseHighResTimeWindow(3): it applies the -S
// (start), -T (end), -A (align) and -O (origin) arguments of spec to the
// span [first, last] of a source (last is Forever for a live one). Start
// and end are kept within the span and the origin within the window. An
// alignment that cannot be applied is a warning: the window is still
// returned, with the warning as the error and ok true.
func ParseTimeWindow(spec WindowSpec, first, last Time, loc *time.Location) (w TimeWindow, ok bool, err error) {
	w.Start, w.End = first, last
	if spec.Start != nil {
		if w.Start, err = ParseTime(*spec.Start, w.Start, w.End, loc); err != nil {
			return w, false, err
		}
	}
	if w.Start < first {
		w.Start = first
	}
	var delta Time
	var align string
	var warning error
	if spec.Align != nil {
		align = *spec.Align
		d, err := ParseInterval(align)
		if err != nil {
			return w, false, err
		}
		if d == 0 {
			return w, false, specError(align, 0, msgAlign)
		}
		delta = Time(d)
		a := roundUp(w.Start, delta)
		if a >= first && a <= last {
			w.Start = a
		} else {
			warning = specError(align, 0, msgAlign)
		}
	}
	if spec.End != nil {
		if w.End, err = ParseTime(*spec.End, w.Start, w.End, loc); err != nil {
			return w, false, err
		}
	}
	if w.End > last {
		w.End = last
	}
	w.Origin = w.Start
	if spec.Origin != nil {
		if w.Origin, err = ParseTime(*spec.Origin, w.Start, w.End, loc); err != nil {
			return w, false, err
		}
		// libpcp moves the origin into the window, the start first: with
		// a start past the end (-S beyond the archive), it is the end.
		if w.Origin < w.Start {
			w.Origin = w.Start
		} else if w.Origin > w.End {
			w.Origin = w.End
		}
		if spec.Align != nil {
			a := roundUp(w.Origin, delta)
			if a > w.End {
				a -= delta
			}
			if a >= w.Start && a <= w.End {
				w.Origin = a
			} else {
				warning = specError(align, 0, msgAlign)
			}
		}
	}
	return w, true, warning
}

// roundUp is t rounded up to a multiple of delta, as libpcp aligns.
func roundUp(t, delta Time) Time {
	b := (t / delta) * delta
	if b < t {
		b += delta
	}
	return b
}
