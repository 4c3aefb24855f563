package pcptime

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestZones checks zones against the C library's reading of the same TZ
// values, recorded by date(1) in testdata/zones.golden (see README there).
func TestZones(t *testing.T) {
	data, err := os.ReadFile("testdata/zones.golden")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		tz, rest, _ := strings.Cut(line, "|")
		sec, want, _ := strings.Cut(rest, "|")
		loc, err := LoadZone(tz)
		if err != nil {
			t.Errorf("LoadZone(%q): %v", tz, err)
			continue
		}
		var s int64
		for _, c := range sec {
			s = s*10 + int64(c-'0')
		}
		if got := CtimeSec(s, loc); got != want {
			t.Errorf("TZ=%q at %d: got %q want %q", tz, s, got, want)
		}
		n++
	}
	if n < 10 {
		t.Fatalf("only %d cases", n)
	}
}

// TestZonesLive compares with date(1) directly when it is available.
func TestZonesLive(t *testing.T) {
	if _, err := exec.LookPath("date"); err != nil {
		t.Skip("no date(1)")
	}
	loc, err := LoadZone("EST-11EST-10,89/2:00,299/2:00")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []int64{870731141, 881030000, 860000000} {
		cmd := exec.Command("date", "-d", "@"+itoa(s), "+%a %b %e %H:%M:%S %Y")
		cmd.Env = append(os.Environ(), "TZ=EST-11EST-10,89/2:00,299/2:00")
		out, err := cmd.Output()
		if err != nil {
			t.Skip(err)
		}
		if got, want := CtimeSec(s, loc), strings.TrimSpace(string(out)); got != want {
			t.Errorf("%d: got %q want %q", s, got, want)
		}
	}
	_ = time.UTC
}

func itoa(v int64) string {
	if v == 0 {
		return "0"
	}
	var b []byte
	for v > 0 {
		b = append([]byte{byte('0' + v%10)}, b...)
		v /= 10
	}
	return string(b)
}
