package pmapi

import (
	"math"
	"strings"
	"time"
)

// This file is the last resort of libpcp's time parser: when a -S, -T or
// -O argument is neither an interval nor a ctime-style "@" time, libpcp
// reads it as a free-form date in the manner of getdate(3) (its
// getdate.y, the public-domain parser of Bellovin, Salz and Berets):
// "2023-11-14 22:13:30", "1:30pm", "Thu", "last week", "3 days ago",
// "yesterday", "10:00 EST", "17-jun-1992". The grammar, the word tables
// and the date arithmetic (with its shortcuts: the standard zone offset
// of the reference time, an hour off when the date is in daylight time,
// leap years every fourth year past 1970) are libpcp's, so that the same
// text gives the same second.
//
// The text is a sequence of items:
//
//	item     = time | zone | date | day | rel | number
//	time     = N meridian
//	         | N ":" N [meridian | S]
//	         | N ":" N ":" N [meridian | S]         (S: a "-hhmm" offset)
//	zone     = ZONE ["dst"] | DAYZONE
//	day      = DAY [","] | N DAY                    (N: which one, "last" is -1)
//	date     = N "/" N ["/" N]                      (m/d/y, or y/m/d if y >= 100)
//	         | N S S                                (yyyy-mm-dd)
//	         | N MONTH [S | N]                      (17-jun-1992, 17 june 1992)
//	         | MONTH N ["," N]
//	rel      = relunit ["ago"]
//	relunit  = [N | S] (MINUTE_UNIT | SEC_UNIT | MONTH_UNIT | DAY_UNIT)
//	number   = N                  (a year after a date and a time, else
//	                                yyyymmdd above 10000, else hh or hhmm)
//
// where N is an unsigned number (or an ordinal word), S a signed one
// ("-0500"). Where two readings are possible the longer wins, as in
// libpcp's LALR parser, which shifts on each of its conflicts: "10:30 -5
// min" is 10:30 at UTC-00:05 and then one minute. The answer is in whole
// seconds.

// getdateRef is the instant a getdate text is read relative to, which
// libpcp picks from its words: a text with a unit after a space
// (" days", " min", " year") is relative to the start of the time window,
// or to its end when it says "last" or "ago" anywhere or begins with '-'
// (and the window has an end); anything else is relative to now.
func getdateRef(text string, start, end Time) Time {
	t := asciiLower(strings.TrimLeft(text, " \t\n\v\f\r"))
	for _, unit := range []string{" year", " month", " fortnight", " week", " day", " hour", " min", " sec"} {
		if !strings.Contains(t, unit) {
			continue
		}
		back := strings.Contains(t, "last") || strings.Contains(t, "ago") || strings.HasPrefix(t, "-")
		if back && end != Forever {
			return end
		}
		return start
	}
	return now()
}

// getdate reads text as a date relative to the whole second of ref, in
// loc, giving seconds since the epoch. It reports false for text that
// libpcp refuses, and for the few whose instants are too far off for
// localtime(3) (years past 2^31), where libpcp reads what was left in a
// struct tm.
func getdate(text string, ref Time, loc *time.Location) (int64, bool) {
	nowSec := ref.Sec()
	gmt, ok := localTime(nowSec, time.UTC)
	tm, ok2 := localTime(nowSec, loc)
	if !ok || !ok2 {
		return 0, false
	}
	// the reference time's offset from UTC, in minutes west, taken back
	// to standard time when it is daylight time
	zone := difftm(gmt, tm) / 60
	if tm.isDST {
		zone += 60
	}
	d := gdDate{
		toks: gdLex(text), loc: loc,
		year: tm.year, month: tm.mon + 1, day: tm.mday,
		zone: zone, dst: dstMaybe, meridian: mer24,
	}
	if !d.parse() || d.haveTime > 1 || d.haveZone > 1 || d.haveDate > 1 || d.haveDay > 1 || d.haveAlign > 1 {
		return 0, false
	}
	var start int64
	if d.haveDate > 0 || d.haveTime > 0 || d.haveDay > 0 || d.haveAlign > 0 {
		if start, ok = d.convert(d.month, d.day, d.year, d.hour, d.minutes, d.secs, d.meridian, d.dst); !ok || start < 0 {
			return 0, false
		}
	} else {
		start = nowSec
		if d.haveRel == 0 { // midnight
			start -= (tm.hour*60+tm.min)*60 + tm.sec
		}
	}
	start += d.relSecs
	months, ok := d.relativeMonth(start)
	if !ok {
		return 0, false
	}
	start += months
	if d.haveDay > 0 && d.haveDate == 0 {
		days, ok := d.relativeDay(start)
		if !ok {
			return 0, false
		}
		start += days
	}
	return start, true
}

// brokenTime is a struct tm: the year in full, the month from 0.
type brokenTime struct {
	year, mon, mday, hour, min, sec, wday, yday int64
	isDST                                       bool
}

// localTime is localtime(3) of sec in loc; false where glibc's fails
// (a year that does not fit a C int after 1900).
func localTime(sec int64, loc *time.Location) (brokenTime, bool) {
	if sec > 1<<57 || sec < -(1<<57) {
		return brokenTime{}, false
	}
	t := time.Unix(sec, 0).In(loc)
	if y := int64(t.Year()) - 1900; y > math.MaxInt32 || y < math.MinInt32 {
		return brokenTime{}, false
	}
	return brokenTime{
		int64(t.Year()), int64(t.Month()) - 1, int64(t.Day()),
		int64(t.Hour()), int64(t.Minute()), int64(t.Second()),
		int64(t.Weekday()), int64(t.YearDay()) - 1, t.IsDST(),
	}, true
}

// difftm is a - b in seconds, counted from the fields as getdate counts
// them (the years' leap days by the Gregorian rule).
func difftm(a, b brokenTime) int64 {
	ay, by := a.year-1, b.year-1
	days := a.yday - b.yday +
		(ay>>2 - by>>2) - (ay/100 - by/100) + ((ay/100)>>2 - (by/100)>>2) +
		(ay-by)*365
	return 60*(60*(24*days+a.hour-b.hour)+a.min-b.min) + a.sec - b.sec
}

// daysIn is the length of month (1 to 12) of year.
func daysIn(month, year int64) int64 {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// convert is the second a date and time name, at the parsed zone: -1 for
// one that does not exist (or lies before 1970). Years 0 to 68 are
// 2000 to 2068, 69 to 99 are 1969 to 1999, a negative year is its
// absolute value. Leap days are counted every fourth year from 1970 on,
// as libpcp counts them. The daylight mode takes an hour off, or does
// when the instant is in daylight time in loc. It reports false when
// that instant is too far off for localtime(3), where libpcp goes on
// with what its struct tm held before.
func (d *gdDate) convert(month, day, year, hours, minutes, secs int64, meridian, dst int) (int64, bool) {
	if year < 0 {
		year = -year
	}
	if year < 69 {
		year += 2000
	} else if year < 100 {
		year += 1900
	}
	if year < 1970 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) {
		return -1, true
	}
	days := day - 1
	for m := int64(1); m < month; m++ {
		days += daysIn(m, year)
	}
	// libpcp counts the years from 1970 with a C int, which gcc runs as
	// a 32-bit count of them: past 2^31 the count wraps, 0 being 2^32
	if years := int64(uint32(year - 1970)); year > 1970 {
		if years == 0 {
			years = 1 << 32
		}
		days += 365*years + (1969+years)/4 - 1969/4
	}
	julian := days*86400 + d.zone*60
	tod := clockSeconds(hours, minutes, secs, meridian)
	if tod < 0 {
		return -1, true
	}
	julian += tod
	switch dst {
	case dstOn:
		julian -= 3600
	case dstMaybe:
		tm, ok := localTime(julian, d.loc)
		if !ok {
			return 0, false
		}
		if tm.isDST {
			julian -= 3600
		}
	}
	return julian, true
}

// clockSeconds is the time of day in seconds, or -1 for a time that does
// not exist (12-hour clocks run from 12 to 11).
func clockSeconds(hours, minutes, secs int64, meridian int) int64 {
	if minutes < 0 || minutes > 59 || secs < 0 || secs > 59 {
		return -1
	}
	if meridian == mer24 {
		if hours < 0 || hours > 23 {
			return -1
		}
	} else {
		if hours < 1 || hours > 12 {
			return -1
		}
		hours %= 12
		if meridian == merPM {
			hours += 12
		}
	}
	return (hours*60+minutes)*60 + secs
}

// dstCorrect is the step from start to future, less the difference of
// their hours of the day (each taken one later, modulo 24) in hours: a
// day later across a change of daylight saving is the same wall time.
func (d *gdDate) dstCorrect(start, future int64) (int64, bool) {
	a, ok := localTime(start, d.loc)
	b, ok2 := localTime(future, d.loc)
	if !ok || !ok2 {
		return 0, false
	}
	return future - start + ((a.hour+1)%24-(b.hour+1)%24)*3600, true
}

// relativeDay is the step from start to the day named: the next such
// day (start's own day counting), moved by whole weeks for an ordinal
// ("last" goes back one, "third" on two, "next" on one).
func (d *gdDate) relativeDay(start int64) (int64, bool) {
	tm, ok := localTime(start, d.loc)
	if !ok {
		return 0, false
	}
	weeks := d.dayOrdinal
	if weeks > 0 {
		weeks--
	}
	offset := start + 86400*((d.dayNumber-tm.wday+7)%7) + 7*86400*weeks
	return d.dstCorrect(start, offset)
}

// relativeMonth is the step from start to the same day of the month and
// time, d.relMonths on (from a day the target month lacks, the step is
// to -1, as libpcp does not check).
func (d *gdDate) relativeMonth(start int64) (int64, bool) {
	if d.relMonths == 0 {
		return 0, true
	}
	tm, ok := localTime(start, d.loc)
	if !ok {
		return 0, false
	}
	m := 12*tm.year + tm.mon + d.relMonths
	future, ok := d.convert(m%12+1, tm.mday, m/12, tm.hour, tm.min, tm.sec, mer24, dstMaybe)
	if !ok {
		return 0, false
	}
	return d.dstCorrect(start, future)
}
