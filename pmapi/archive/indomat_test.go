package archive

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// TestInDomAt checks InDomAt against InDom with the context moved to the
// same time, over procs, whose process instance domain changes every
// second: before its first record, at each record, between records and
// after the last. InDomAt leaves the context where it was, and
// pmapi.InDomAt reaches it through a namespace layered over the context.
func TestInDomAt(t *testing.T) {
	c, err := Open(filepath.Join(archivesDir, "procs"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	id, err := c.LookupName("proc.psinfo.nice")
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.LookupDesc(id)
	if err != nil {
		t.Fatal(err)
	}
	start, end := c.Bounds()
	moved := start + pmapi.Time(3*time.Second)
	if err := c.SetMode(pmapi.ModeInterp, moved, time.Second); err != nil {
		t.Fatal(err)
	}
	here, err := c.InDom(d.InDom)
	if err != nil {
		t.Fatal(err)
	}
	ns := pmapi.WithNamespace(c, nil)
	sizes := map[int]bool{}
	for at := start - pmapi.Time(time.Second); at <= end+pmapi.Time(time.Second); at += pmapi.Time(250 * time.Millisecond) {
		got, gotErr := c.InDomAt(d.InDom, at)
		viaNS, nsErr := pmapi.InDomAt(ns, d.InDom, at)
		probe, _ := Open(filepath.Join(archivesDir, "procs"))
		probe.SetMode(pmapi.ModeInterp, at, time.Second)
		want, wantErr := probe.InDom(d.InDom)
		probe.Close()
		if pmapi.Code(gotErr) != pmapi.Code(wantErr) || !slices.Equal(got, want) {
			t.Errorf("InDomAt %v: %d instances, error %v; InDom there: %d, %v", at, len(got), gotErr, len(want), wantErr)
		}
		if pmapi.Code(nsErr) != pmapi.Code(wantErr) || !slices.Equal(viaNS, want) {
			t.Errorf("pmapi.InDomAt through a namespace %v: %d instances, error %v; want %d, %v", at, len(viaNS), nsErr, len(want), wantErr)
		}
		sizes[len(got)] = true
	}
	if len(sizes) < 3 {
		t.Errorf("the instance domain took %d sizes over the archive, want several", len(sizes))
	}
	after, err := c.InDom(d.InDom)
	if err != nil || !slices.Equal(after, here) {
		t.Errorf("InDomAt moved the context: InDom gives %d instances (%v), had %d", len(after), err, len(here))
	}
}
