package pmapi

import (
	"bufio"
	"os"
	"strings"
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

// getdateSeeds are the texts of the timewindow golden's inputs.
func getdateSeeds(f *testing.F) []string {
	file, err := os.Open("../testdata/golden/timewindow/inputs.txt")
	if err != nil {
		f.Fatal(err)
	}
	defer file.Close()
	var seeds []string
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		for _, field := range strings.Split(sc.Text(), "|")[1:] {
			if field != "-" && field != "live" {
				seeds = append(seeds, field)
			}
		}
	}
	return seeds
}

// FuzzGetdate checks that no text makes the getdate reader panic, that
// it reads each token once (so its time is linear) and that it gives the
// same answer twice.
func FuzzGetdate(f *testing.F) {
	for _, s := range getdateSeeds(f) {
		f.Add(s)
	}
	ref := TimeOf(1700000000, 123456789)
	zones := []*time.Location{time.UTC, LoadTZ("America/New_York"), LoadTZ("Australia/Lord_Howe")}
	f.Fuzz(func(t *testing.T, s string) {
		if toks := gdLex(s); len(toks) > len(s)+1 {
			t.Fatalf("%q: %d tokens", s, len(toks))
		}
		for _, loc := range zones {
			a, okA := getdate(s, ref, loc)
			b, okB := getdate(s, ref, loc)
			if a != b || okA != okB {
				t.Errorf("getdate(%q) in %v: %v %v, then %v %v", s, loc, a, okA, b, okB)
			}
		}
	})
}
