package derive

import (
	"slices"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
)

// TestMatchInstAtFetchTime: matchinst() names an instance as of the time
// of the fetch it evaluates, as libpcp does, not as of the archive
// context's time, which an interpolated fetch has moved on by the
// interval. In testdata/archives/procs process 23171 ("023171 sleep") is
// in the records up to 14:48:05.79 and gone from the one at 06.79: a
// fetch at 05.07 with a 2 s interval leaves the context at 07.07.
// InDomAt reaches the archive through the derived layer.
func TestMatchInstAtFetchTime(t *testing.T) {
	a, err := archive.Open("../testdata/archives/procs")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx := Layer(a, registryOf(t, "my.sleepy = matchinst(/^0231/, proc.psinfo.nice)"))
	start, _ := a.Bounds()
	at := start + pmapi.Time(300*time.Millisecond)
	if err := ctx.(pmapi.Seeker).SetMode(pmapi.ModeInterp, at, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	id, err := ctx.LookupName("my.sleepy")
	if err != nil {
		t.Fatal(err)
	}
	var r pmapi.Result
	var seen [][]int32
	for range 3 {
		if err := ctx.Fetch([]pmapi.PMID{id}, &r); err != nil {
			t.Fatal(err)
		}
		var insts []int32
		for _, v := range r.Sets[0].Values {
			insts = append(insts, v.Inst)
		}
		seen = append(seen, insts)
	}
	if !slices.Contains(seen[0], 23171) || slices.Contains(seen[1], 23171) {
		t.Errorf("instances of my.sleepy at each fetch: %v; want 23171 at the first only", seen)
	}
	desc, err := a.LookupDesc(mustPMID(t, a, "proc.psinfo.nice"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := a.InDomAt(desc.InDom, at)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pmapi.InDomAt(ctx, desc.InDom, at)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("InDomAt through the derived layer: %d instances (%v), want %d", len(got), err, len(want))
	}
}

func mustPMID(t *testing.T, c pmapi.Context, name string) pmapi.PMID {
	t.Helper()
	id, err := c.LookupName(name)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
