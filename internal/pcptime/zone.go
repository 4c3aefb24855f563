package pcptime

import (
	"encoding/binary"
	"strings"
	"time"
)

// LoadZone returns the time zone a $TZ value names, as the C library reads
// it: ":name" or a name with a zoneinfo file is an Olson zone; anything
// else a POSIX rule (std offset [dst [offset] [,start[/time],end[/time]]]).
// An empty value is UTC.
func LoadZone(tz string) (*time.Location, error) {
	if tz == "" {
		return time.UTC, nil
	}
	if name, ok := strings.CutPrefix(tz, ":"); ok {
		return time.LoadLocation(name)
	}
	if loc, err := time.LoadLocation(tz); err == nil {
		return loc, nil
	}
	return posixZone(tz)
}

// posixZone makes a Location from a POSIX TZ rule, by wrapping it as the
// rule of a zoneinfo file with no transitions.
func posixZone(rule string) (*time.Location, error) {
	return time.LoadLocationFromTZData(rule, tzif(rule))
}

// tzif builds a version 2 zoneinfo file with one (placeholder) local time
// type, no transitions, and rule as its footer.
func tzif(rule string) []byte {
	header := func(b []byte) []byte {
		b = append(b, "TZif2"...)
		b = append(b, make([]byte, 15)...)
		// isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
		for _, n := range []uint32{0, 0, 0, 0, 1, 4} {
			b = binary.BigEndian.AppendUint32(b, n)
		}
		// one type: UTC offset 0, not DST, abbreviation at 0
		b = append(b, 0, 0, 0, 0, 0, 0)
		return append(b, "UTC\x00"...)
	}
	b := header(nil) // version 1 block
	b = header(b)    // version 2 block (64-bit times; there are none)
	b = append(b, '\n')
	b = append(b, rule...)
	return append(b, '\n')
}

// Ctime formats t in loc as ctime(3) does, without the newline:
// "Thu Jan  1 00:00:00 1970".
func Ctime(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("Mon Jan _2 15:04:05 2006")
}

// CtimeSec is Ctime of whole seconds since the epoch.
func CtimeSec(sec int64, loc *time.Location) string {
	return Ctime(time.Unix(sec, 0), loc)
}
