package pmapi

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// getdateOnly are golden inputs that libpcp accepts only through its
// getdate fallback, which pmapi does not have: we must reject them.
var getdateOnly = map[string]bool{
	"+10 fortnights": true, "+10x": true, "+x": true,
	"@20": true, "@12 pm": true, "@Thu": true, "@Thu 20:33": true,
}

func goldenTime(t Time) string {
	return fmt.Sprintf("%d.%09d", t.Sec(), t.Nsec())
}

func TestParseTimeWindowGolden(t *testing.T) {
	first, last := TimeOf(1323894707, 2331000), TimeOf(1323894826, 39510000)
	arg := func(s string) *string {
		if s == "-" {
			return nil
		}
		return &s
	}
	text := func(s *string) string {
		if s == nil {
			return "(none)"
		}
		return *s
	}
	for _, r := range readGoldenFile(t, "../testdata/golden/timewindow/timewindow.golden", "W") {
		loc := LoadTZ(r[0])
		start, end, align, origin := arg(r[1]), arg(r[2]), arg(r[3]), arg(r[4])
		w, ok, err := ParseTimeWindow(WindowSpec{start, end, align, origin}, first, last, loc)
		what := fmt.Sprintf("TZ=%s -S %q -T %q -A %q -O %q", r[0], text(start), text(end), text(align), text(origin))
		if getdateOnly[r[1]] || getdateOnly[r[2]] || getdateOnly[r[4]] {
			if ok {
				t.Errorf("%s: accepted; without getdate we should reject it", what)
			}
			continue
		}
		wantMsg := strings.ReplaceAll(r[9], `\n`, "\n")
		switch r[5] {
		case "-1":
			if ok || err == nil || err.Error() != wantMsg {
				t.Errorf("%s: ok=%v err=%v, want error %q", what, ok, err, wantMsg)
			}
			continue
		case "0":
			if !ok || err == nil || err.Error() != wantMsg {
				t.Errorf("%s: ok=%v err=%v, want warning %q", what, ok, err, wantMsg)
			}
		default:
			if !ok || err != nil {
				t.Errorf("%s: ok=%v err=%v", what, ok, err)
				continue
			}
		}
		got := goldenTime(w.Start) + " " + goldenTime(w.End) + " " + goldenTime(w.Origin)
		if want := r[6] + " " + r[7] + " " + r[8]; got != want {
			t.Errorf("%s = %s, want %s", what, got, want)
		}
	}
}

func TestParseInterval(t *testing.T) {
	for spec, want := range map[string]string{
		"10":          "10s",
		"1.5 min":     "1m30s",
		"2hours 3sec": "2h0m3s",
		"0.1":         "100ms",
		"5 nsec":      "5ns",
	} {
		d, err := ParseInterval(spec)
		if err != nil || d.String() != want {
			t.Errorf("ParseInterval(%q) = %v, %v; want %s", spec, d, err, want)
		}
	}
	if _, err := ParseInterval(""); err == nil || err.Error() != "\n^ -- Null or empty specification\n" {
		t.Errorf("empty interval: %v", err)
	}
}

// FuzzParseTime checks that no time specification makes the parser panic
// and that accepted times lie within the window asked for.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"+10", "-1h", "@ Thu Dec 15 20:32:10.25 2011", "@8:32pm", "1 min 30 sec", "@25:00"} {
		f.Add(s)
	}
	first, last := TimeOf(1323894707, 2331000), TimeOf(1323894826, 39510000)
	loc := LoadTZ("EST-11EST-10,89/2:00,299/2:00")
	f.Fuzz(func(t *testing.T, s string) {
		w, ok, _ := ParseTimeWindow(WindowSpec{Origin: &s}, first, last, loc)
		if ok && (w.Origin < first || w.Origin > last) {
			t.Errorf("-O %q gives %v, outside [%v, %v]", s, w.Origin, first, last)
		}
		ParseInterval(s)
	})
}

// TestParseTimeEmpty: a time with nothing after its "+" or "-" (or
// nothing at all) is now, as libpcp's getdate fallback reads the empty
// text its intervals refuse; a blank interval is 0.
func TestParseTimeEmpty(t *testing.T) {
	first, last, at := TimeOf(1000, 0), TimeOf(2000, 0), TimeOf(5000, 0)
	defer func(f func() Time) { now = f }(now)
	now = func() Time { return at }
	for spec, want := range map[string]Time{
		"": at, "  ": at, "+": at, " + ": TimeOf(1000, 0), "-": at, " -": at,
		"- ": last, "@": first,
	} {
		got, err := ParseTime(spec, first, last, time.UTC)
		if err != nil || got != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", spec, got, err, want)
		}
	}
	// live (no end): "-" is no offset, and no interval
	if _, err := ParseTime("-", first, Forever, time.UTC); err == nil {
		t.Errorf(`ParseTime("-") on a live source: no error`)
	}
	w, ok, err := ParseTimeWindow(WindowSpec{Origin: new(string)}, first, last, time.UTC)
	if !ok || err != nil || w.Origin != last {
		t.Errorf(`-O "": %+v, %v, %v; want the origin at the end`, w, ok, err)
	}
	if _, ok, err := ParseTimeWindow(WindowSpec{Align: new(string)}, first, last, time.UTC); ok || err == nil {
		t.Errorf(`-A "": accepted`)
	}
}
