package pmapi

import (
	"testing"
	"time"
)

// TestLookupWord: how words are classified, in libpcp's order of tables.
func TestLookupWord(t *testing.T) {
	for word, want := range map[string]gdToken{
		"am": {gdMeridian, merAM}, "P.M.": {gdMeridian, merPM},
		"Mon": {gdDay, 1}, "mar": {gdMonth, 3}, "sep.": {gdMonth, 9},
		"sept": {gdMonth, 9}, "thurs": {gdDay, 4}, "wednes": {gdDay, 3},
		"mond": {gdOther, 0}, // neither three letters nor a whole name
		"est.": {gdZone, 300}, "e.s.t.": {gdZone, 300}, "EDT": {gdDayZone, 300},
		"sec.": {gdSecUnit, 1}, "hours": {gdMinuteUnit, 60}, "years": {gdMonthUnit, 12},
		"s": {gdZone, -360}, "j": {gdOther, 0}, "z": {gdZone, 0},
		"this": {gdMinuteUnit, 0}, "next": {gdUnsigned, 2}, "last": {gdUnsigned, -1},
		"second": {gdSecUnit, 1}, "dst": {gdDST, 0}, "ago": {gdAgo, 1},
	} {
		if got := lookupWord(word); got != want {
			t.Errorf("lookupWord(%q) = %v, want %v", word, got, want)
		}
	}
}

// TestGetdateFar: years past 2^31, which the golden leaves out because
// libpcp takes seconds over each. libpcp's count of years is 32 bits
// wide, so year 2^32+2020 is read as 2020 (with its own leap rule); an
// instant localtime(3) cannot break down is refused.
func TestGetdateFar(t *testing.T) {
	ref := TimeOf(1700000000, 0)
	for text, want := range map[string]int64{
		"4294969316-02-29 12:00": 1582977600, // from real libpcp
		"1 jan 4294969316":       1577836800,
		"42949693160101":         1577836800,
		"2147483647-01-01":       -1, // libpcp reads uninitialised memory
		"4294969266-03-01":       -1,
		"3000000000 years":       -1,
	} {
		got, ok := getdate(text, ref, time.UTC)
		switch {
		case want < 0 && ok:
			t.Errorf("getdate(%q) = %d, want it refused", text, got)
		case want >= 0 && (!ok || got != want):
			t.Errorf("getdate(%q) = %d, %v; want %d", text, got, ok, want)
		}
	}
}
