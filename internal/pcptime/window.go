package pcptime

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Forever is the end of an unbounded time window (live mode).
const Forever = time.Duration(math.MaxInt64)

// tmSpec is a date and time with -1 for the fields not given.
type tmSpec struct {
	year, mon, mday, hour, min, sec, nsec int
}

var wdayNames = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
var monthNames = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// scanner walks a time specification as libpcp's parser does.
type scanner struct {
	s string
	i int
}

func (p *scanner) skip() {
	for p.i < len(p.s) && isSpace(p.s[p.i]) {
		p.i++
	}
}

// word3 matches up to three letters against codes (compared as lower case,
// and as a whole: "am" does not match "amx").
func (p *scanner) word3(codes []string) int {
	p.skip()
	start := p.i
	if start >= len(p.s) || !isAlpha(p.s[start]) {
		return -1
	}
	end := start
	for end < len(p.s) && end-start < 3 && isAlpha(p.s[end]) {
		end++
	}
	w := strings.ToLower(p.s[start:end])
	for k, c := range codes {
		if w == c {
			p.i = end
			return k
		}
	}
	return -1
}

func (p *scanner) char(c byte) bool {
	p.skip()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// integer matches a decimal integer in lo..hi.
func (p *scanner) integer(lo, hi int) (int, bool) {
	p.skip()
	j := p.i
	if j < len(p.s) && (p.s[j] == '+' || p.s[j] == '-') {
		j++
	}
	k := j
	for k < len(p.s) && isDigit(p.s[k]) {
		k++
	}
	if k == j {
		return 0, false
	}
	v, err := strconv.Atoi(p.s[p.i:k])
	if err != nil || v < lo || v > hi {
		return 0, false
	}
	p.i = k
	return v, true
}

func (p *scanner) float(lo, hi float64) (float64, bool) {
	p.skip()
	v, n := leadingFloat(p.s[p.i:])
	if n == 0 || v < lo || v > hi {
		return 0, false
	}
	p.i += n
	return v, true
}

// parseCtime parses the datetime after an @: "Mon Mar  4 13:07:47 1996",
// "Mar 4 1996", "13:07", "13:07:50.25", "4 pm" and so on.
func parseCtime(spec string) (tmSpec, error) {
	tm := tmSpec{-1, -1, -1, -1, -1, -1, -1}
	p := &scanner{s: spec}
	wday := p.word3(wdayNames)
	tm.mon = p.word3(monthNames)
	if v, ok := p.integer(0, 31); ok {
		tm.mday = v
	}
	if v, ok := p.integer(0, 23); ok {
		tm.hour = v
	}
	if tm.mday == 0 && tm.hour != -1 {
		tm.mday = -1
	}
	p.skip()
	if tm.hour == -1 && tm.mday >= 0 && tm.mday <= 23 && (tm.mon == -1 || (p.i < len(p.s) && p.s[p.i] == ':')) {
		tm.hour, tm.mday = tm.mday, -1
	}
	if p.char(':') {
		if tm.hour == -1 {
			tm.hour = 0
		}
		tm.min = 0
		if v, ok := p.integer(0, 59); ok {
			tm.min = v
		}
		if p.char(':') {
			if d, ok := p.float(0, 61); ok {
				tm.sec = int(d)
				tm.nsec = int(1e9 * (d - float64(tm.sec)))
			}
		}
	}
	if save := p.i; true {
		if pm := p.word3([]string{"am", "pm"}); pm >= 0 {
			if tm.hour > 12 || tm.hour == -1 {
				p.i = save
			} else if pm == 1 {
				if tm.hour < 12 {
					tm.hour += 12
				}
			} else if tm.hour == 12 {
				tm.hour = 0
			}
		}
	}
	if v, ok := p.integer(1900, 9999); ok {
		tm.year = v
	}
	p.skip()
	if p.i != len(p.s) {
		return tm, &ParseError{Spec: spec, At: p.i, Msg: whatMsg}
	}
	if (wday != -1 && tm.mon == -1 && tm.mday == -1) ||
		(tm.hour != -1 && tm.min == -1 && tm.mday == -1 && tm.mon == -1 && tm.year == -1) {
		return tm, &ParseError{Spec: spec, At: p.i, Msg: moreMsg}
	}
	dflt := tm.year != -1
	fill := func(f *int, zero int) {
		if *f != -1 {
			dflt = true
		} else if dflt {
			*f = zero
		}
	}
	fill(&tm.mon, 0)
	fill(&tm.mday, 1)
	fill(&tm.hour, 0)
	fill(&tm.min, 0)
	if tm.sec == -1 && dflt {
		tm.sec, tm.nsec = 0, 0
	}
	return tm, nil
}

// absolute converts a parsed datetime to a time, taking the fields not
// given from origin (and moving forward to the next time that matches).
func absolute(tm tmSpec, origin time.Time, loc *time.Location) time.Time {
	nsec := origin.Nanosecond()
	var y, mo, d, h, mi, s int
	if tm.year != -1 {
		y, mo, d, h, mi, s = tm.year, tm.mon, tm.mday, tm.hour, tm.min, tm.sec
		nsec = tm.nsec
	} else {
		o := origin.In(loc)
		y, mo, d = o.Year(), int(o.Month())-1, o.Day()
		h, mi, s = o.Hour(), o.Minute(), o.Second()
		switch {
		case tm.mon != -1:
			if tm.mon < mo {
				y++
			}
			mo, d, h, mi, s, nsec = tm.mon, tm.mday, tm.hour, tm.min, tm.sec, tm.nsec
		case tm.mday != -1:
			if tm.mday < d {
				mo++
			}
			d, h, mi, s, nsec = tm.mday, tm.hour, tm.min, tm.sec, tm.nsec
		case tm.hour != -1:
			if tm.hour < h {
				d++
			}
			h, mi, s, nsec = tm.hour, tm.min, tm.sec, tm.nsec
		case tm.min != -1:
			if tm.min < mi {
				h++
			}
			mi, s, nsec = tm.min, tm.sec, tm.nsec
		case tm.sec != -1:
			if tm.sec < s {
				mi++
			}
			s, nsec = tm.sec, tm.nsec
		}
	}
	if nsec < 0 {
		nsec = 0
	}
	t := time.Date(y, time.Month(mo+1), d, h, mi, s, 0, loc)
	return time.Unix(t.Unix(), int64(nsec))
}

// isoTime parses the ISO forms libpcp's fallback date parser accepts most
// often: "2013-01-05 06:44:20[.frac]", "2013-01-05T06:44", "2013-01-05".
func isoTime(s string, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
		"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// fromSeconds converts an interval to a duration rounded to nanoseconds.
func fromSeconds(sec float64) time.Duration {
	whole := math.Trunc(sec)
	return time.Duration(whole)*time.Second + time.Duration(math.Floor((sec-whole)*1e9+0.5))
}

// ParseTime interprets a -S, -T or -O argument: "@datetime", "-interval"
// (from the end, when there is one) or "[+]interval" (from start).
func ParseTime(spec string, start, end time.Time, unbounded bool, loc *time.Location) (time.Time, error) {
	p := &scanner{s: spec}
	var first error
	switch {
	case p.char('@'):
		tm, err := parseCtime(spec[p.i:])
		if err == nil {
			return absolute(tm, start, loc), nil
		}
		first = err
	case !unbounded && p.char('-'):
		d, err := ParseInterval(spec[p.i:])
		if err == nil {
			return end.Add(-fromSeconds(d)), nil
		}
		first = err
	default:
		p.char('+')
		d, err := ParseInterval(spec[p.i:])
		if err == nil {
			return start.Add(fromSeconds(d)), nil
		}
		first = err
	}
	rest := strings.TrimPrefix(strings.TrimSpace(spec), "@")
	if t, ok := isoTime(rest, loc); ok {
		return t, nil
	}
	switch strings.ToLower(strings.TrimSpace(rest)) {
	case "now":
		return start, nil
	}
	return time.Time{}, first
}

// Window is a time window: where evaluation starts (the origin, which -O
// can move inside the window) and where it ends.
type Window struct {
	Start, End, Origin time.Time
	Warning            error // -A could not be applied
}

// ParseTimeWindow interprets -S, -T, -A and -O (empty when not given) over
// the span logStart..logEnd of the source (logEnd unused if unbounded), as
// pmParseTimeWindow does.
func ParseTimeWindow(swStart, swEnd, swAlign, swOrigin string, logStart, logEnd time.Time, unbounded bool, loc *time.Location) (Window, error) {
	var w Window
	start, end := logStart, logEnd
	if swStart != "" {
		t, err := ParseTime(swStart, start, end, unbounded, loc)
		if err != nil {
			return w, err
		}
		start = t
	}
	if start.Before(logStart) {
		start = logStart
	}
	var delta int64
	if swAlign != "" {
		d, err := ParseInterval(swAlign)
		if err != nil {
			return w, err
		}
		delta = int64(fromSeconds(d))
		if delta == 0 {
			return w, &ParseError{Spec: swAlign, Msg: alignMsg}
		}
		a := alignUp(start.UnixNano(), delta)
		at := time.Unix(0, a)
		if !at.Before(logStart) && (unbounded || !at.After(logEnd)) {
			start = at
		} else {
			w.Warning = &ParseError{Spec: swAlign, Msg: alignMsg}
		}
	}
	if swEnd != "" {
		t, err := ParseTime(swEnd, start, end, unbounded, loc)
		if err != nil {
			return w, err
		}
		end = t
	}
	if !unbounded && end.After(logEnd) {
		end = logEnd
	}
	origin := start
	if swOrigin != "" {
		t, err := ParseTime(swOrigin, start, end, unbounded, loc)
		if err != nil {
			return w, err
		}
		origin = t
		if origin.Before(start) {
			origin = start
		} else if !unbounded && origin.After(end) {
			origin = end
		}
		if swAlign != "" {
			a := alignUp(origin.UnixNano(), delta)
			if !unbounded && a > end.UnixNano() {
				a -= delta
			}
			at := time.Unix(0, a)
			if !at.Before(start) && (unbounded || !at.After(end)) {
				origin = at
			} else {
				w.Warning = &ParseError{Spec: swAlign, Msg: alignMsg}
			}
		}
	}
	w.Start, w.End, w.Origin = start, end, origin
	return w, nil
}

// alignUp rounds t up to a multiple of delta.
func alignUp(t, delta int64) int64 {
	b := (t / delta) * delta
	if b < t {
		b += delta
	}
	return b
}
