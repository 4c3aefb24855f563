package pmapi

import (
	"strconv"
	"testing"
	"time"
)

func TestLoadTZGolden(t *testing.T) {
	recs := readGoldenFile(t, "../testdata/golden/tz/tz.golden", "T")
	locs := map[string]*time.Location{}
	for _, r := range recs {
		loc, ok := locs[r[0]]
		if !ok {
			loc = LoadTZ(r[0])
			locs[r[0]] = loc
		}
		sec, err := strconv.ParseInt(r[1], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		lt := time.Unix(sec, 0).In(loc)
		_, off := lt.Zone()
		got := lt.Format("2006-01-02 15:04:05") + " " + strconv.Itoa(off)
		if want := r[2] + " " + r[4]; got != want {
			t.Errorf("TZ=%q at %d: %s, want %s", r[0], sec, got, want)
		}
	}
}
