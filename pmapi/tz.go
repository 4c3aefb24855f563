package pmapi

import (
	"encoding/binary"
	"os"
	"strconv"
	"strings"
	"time"
)

// NewZone is the zone libpcp's pmNewZone makes of tz (-Z, an archive's
// or a host's zone): LoadTZ's, except that a name of exactly three
// characters has "+0" put after it, as libpcp does for libcs that misread
// "GMT", so that "CET" or "EST" is UTC (named so).
func NewZone(tz string) *time.Location {
	if len(tz) == 3 {
		tz += "+0"
	}
	return LoadTZ(tz)
}

// LoadTZ returns the time zone that a $TZ value names, read as glibc's
// tzset(3) reads it, for the timezones PCP archive labels and pmcd carry
// and pmNewZone accepts: a zoneinfo name ("Australia/Melbourne", with or
// without a leading ':') or, failing that, a POSIX rule such as "AEST-10"
// or "EST-11EST-10,89/2:00,299/2:00". An empty value is UTC; a value that
// is neither is UTC too, as glibc falls back.
func LoadTZ(tz string) *time.Location {
	name := strings.TrimPrefix(tz, ":")
	if name == "" {
		return time.UTC
	}
	if name != "Local" && !strings.HasPrefix(name, "/") {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
	}
	if strings.HasPrefix(name, "/") {
		if data, err := os.ReadFile(name); err == nil {
			if loc, err := time.LoadLocationFromTZData(tz, data); err == nil {
				return loc
			}
		}
		return time.UTC
	}
	if strings.HasPrefix(tz, ":") {
		return time.UTC
	}
	abbr, offset, ok := posixStd(name)
	if !ok {
		return time.UTC
	}
	loc, err := time.LoadLocationFromTZData(name, posixTZif(name, abbr, offset))
	if err != nil {
		return time.FixedZone(abbr, offset)
	}
	return loc
}

// posixStd reads the standard-time part of a POSIX TZ rule: its name and
// its offset, given as hours west of UTC, returned as seconds east.
func posixStd(s string) (abbr string, offset int, ok bool) {
	var rest string
	if strings.HasPrefix(s, "<") {
		end := strings.IndexByte(s, '>')
		if end < 0 {
			return "", 0, false
		}
		abbr, rest = s[1:end], s[end+1:]
	} else {
		n := 0
		for n < len(s) && ('a' <= s[n]|0x20 && s[n]|0x20 <= 'z') {
			n++
		}
		abbr, rest = s[:n], s[n:]
	}
	if len(abbr) < 3 || rest == "" {
		return "", 0, false
	}
	sign := -1 // hours west of UTC: "EST5" is UTC-5
	switch rest[0] {
	case '-':
		sign, rest = 1, rest[1:]
	case '+':
		rest = rest[1:]
	}
	// hh[:mm[:ss]]
	secs := 0
	for i, unit := range []int{3600, 60, 1} {
		if i > 0 {
			if !strings.HasPrefix(rest, ":") {
				break
			}
			rest = rest[1:]
		}
		d := leadingDigits(rest)
		if d == "" || len(d) > 3 {
			return "", 0, false
		}
		v, _ := strconv.Atoi(d)
		secs += v * unit
		rest = rest[len(d):]
	}
	return abbr, sign * secs, true
}

func leadingDigits(s string) string {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return s[:n]
}

// posixTZif makes zoneinfo (TZif version 2) data with no transitions, one
// zone type (the standard time) and the POSIX rule as its footer, which
// the time package then uses for every instant.
func posixTZif(rule, abbr string, offset int) []byte {
	var b []byte
	u32 := func(v uint32) { b = binary.BigEndian.AppendUint32(b, v) }
	block := func() {
		b = append(b, "TZif2"...)
		b = append(b, make([]byte, 15)...)
		// isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
		for _, n := range []int{0, 0, 0, 0, 1, len(abbr) + 1} {
			u32(uint32(n))
		}
		u32(uint32(int32(offset)))
		b = append(b, 0, 0) // isdst, abbreviation index
		b = append(b, abbr...)
		b = append(b, 0)
	}
	block() // version 1 data
	block() // version 2 data (no transitions, so the same)
	b = append(b, '\n')
	b = append(b, rule...)
	return append(b, '\n')
}
