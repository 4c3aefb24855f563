package pmapi

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// goldenNow is the instant timewindow.golden was made at: gen.c ran with
// fakenow.so preloaded, which gives libpcp this as the current time.
var goldenNow = TimeOf(1700000000, 123456789)

func goldenTime(t Time) string {
	return fmt.Sprintf("%d.%09d", t.Sec(), t.Nsec())
}

// goldenClamped is a time of the golden as a Time can hold it: held at
// the ends of its range (years 1677 to 2262), as getdate's are.
func goldenClamped(t *testing.T, s string) string {
	sec, nsec, ok := strings.Cut(s, ".")
	if !ok {
		t.Fatalf("bad golden time %q", s)
	}
	secs, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		t.Fatalf("bad golden time %q", s)
	}
	ns, err := strconv.ParseInt(nsec, 10, 64)
	if err != nil {
		t.Fatalf("bad golden time %q", s)
	}
	return goldenTime(clampedTime(secs, ns))
}

func TestParseTimeWindowGolden(t *testing.T) {
	checkWindowGolden(t, "../testdata/golden/timewindow/timewindow.golden", goldenNow)
}

// TestParseTimeWindowSweep compares with a golden made as
// timewindow.golden is, from other inputs, at another time: the file
// $TIMEWINDOW_GOLDEN made at $TIMEWINDOW_NOW (seconds[.nanoseconds], as
// fakenow.so reads $FAKE_NOW). scripts/diff-getdate.py runs it over
// random getdate texts.
func TestParseTimeWindowSweep(t *testing.T) {
	path := os.Getenv("TIMEWINDOW_GOLDEN")
	if path == "" {
		t.Skip("TIMEWINDOW_GOLDEN not set")
	}
	sec, nsec, _ := strings.Cut(os.Getenv("TIMEWINDOW_NOW"), ".")
	s, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		t.Fatalf("TIMEWINDOW_NOW: %v", err)
	}
	ns, _ := strconv.ParseInt(nsec, 10, 64)
	checkWindowGolden(t, path, TimeOf(s, ns))
}

// checkWindowGolden compares every row of a golden of gen.c, made at the
// time at, with ParseTimeWindow's answer.
func checkWindowGolden(t *testing.T, path string, at Time) {
	defer func(f func() Time) { now = f }(now)
	now = func() Time { return at }
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
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, bad := 0, 0
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		r := strings.Split(line, "\t")
		if len(r) != 11 || (r[0] != "W" && r[0] != "L") {
			t.Fatalf("%s: bad line %q", path, line)
		}
		end := last
		if r[0] == "L" { // live: the window has no end
			end = Forever
		}
		r = r[1:]
		rows++
		loc := NewZone(r[0])
		start, stop, align, origin := arg(r[1]), arg(r[2]), arg(r[3]), arg(r[4])
		w, ok, err := ParseTimeWindow(WindowSpec{start, stop, align, origin}, first, end, loc)
		what := fmt.Sprintf("%s TZ=%s -S %q -T %q -A %q -O %q", line[:1], r[0], text(start), text(stop), text(align), text(origin))
		wantMsg := strings.ReplaceAll(r[9], `\n`, "\n")
		got := goldenTime(w.Start) + " " + goldenTime(w.End) + " " + goldenTime(w.Origin)
		want := goldenClamped(t, r[6]) + " " + goldenClamped(t, r[7]) + " " + goldenClamped(t, r[8])
		var problem string
		switch r[5] {
		case "-1":
			if ok || err == nil || err.Error() != wantMsg {
				problem = fmt.Sprintf("ok=%v err=%v, want error %q", ok, err, wantMsg)
			}
		case "0":
			if !ok || err == nil || err.Error() != wantMsg {
				problem = fmt.Sprintf("ok=%v err=%v, want warning %q", ok, err, wantMsg)
			} else if got != want {
				problem = fmt.Sprintf("= %s, want %s", got, want)
			}
		default:
			if !ok || err != nil {
				problem = fmt.Sprintf("ok=%v err=%v, want %s", ok, err, want)
			} else if got != want {
				problem = fmt.Sprintf("= %s, want %s", got, want)
			}
		}
		if problem != "" {
			bad++
			t.Errorf("%s: %s", what, problem)
		}
	}
	t.Logf("%s: %d rows, %d differ", path, rows, bad)
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
// nothing at all) reaches the getdate fallback, which reads the empty
// text as midnight of today; a blank interval is 0.
func TestParseTimeEmpty(t *testing.T) {
	first, last := TimeOf(1000, 0), TimeOf(2000, 0)
	midnight := TimeOf(3*86400, 0)
	defer func(f func() Time) { now = f }(now)
	now = func() Time { return midnight + TimeOf(5000, 250) }
	for spec, want := range map[string]Time{
		"": midnight, "  ": midnight, "+": midnight, " + ": TimeOf(1000, 0),
		"-": midnight, " -": midnight, "- ": last, "@": first,
	} {
		got, err := ParseTime(spec, first, last, time.UTC)
		if err != nil || got != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", spec, got, err, want)
		}
	}
	// live (no end): "-" is no offset, and no interval, but getdate
	// drops a sign with no digit after it
	if got, err := ParseTime("-", first, Forever, time.UTC); err != nil || got != midnight {
		t.Errorf(`ParseTime("-") on a live source = %v, %v; want %v`, got, err, midnight)
	}
	w, ok, err := ParseTimeWindow(WindowSpec{Origin: new(string)}, first, last, time.UTC)
	if !ok || err != nil || w.Origin != last {
		t.Errorf(`-O "": %+v, %v, %v; want the origin at the end`, w, ok, err)
	}
	if _, ok, err := ParseTimeWindow(WindowSpec{Align: new(string)}, first, last, time.UTC); ok || err == nil {
		t.Errorf(`-A "": accepted`)
	}
}
