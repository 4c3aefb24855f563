package archive

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// fetchAll reads every record of c with FetchArchive, as text.
func fetchAll(t *testing.T, c *Context) []string {
	t.Helper()
	var out []string
	var r pmapi.Result
	for {
		err := c.FetchArchive(&r)
		if errors.Is(err, pmapi.ErrEOL) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(r))
	}
}

// TestSharedFile reads one archive file from two contexts at once, in
// step: they share the windows read and what was found sound, so that
// the file is read as often as for one context, and they read what one
// context alone reads. A record changed on disk since is read again and
// checked again (and found damaged) by each; closing both forgets the
// file.
func TestSharedFile(t *testing.T) {
	defer smallBuffers(512, 1<<20, 1<<20)()
	base := copyArchive(t, "collector")
	open := func() *Context {
		c, err := Open(base)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.SetMode(pmapi.ModeForw, 0, 0); err != nil {
			t.Fatal(err)
		}
		return c
	}
	// Alone: the windows one context reads.
	alone := open()
	before := windowGen.Load()
	want := fetchAll(t, alone)
	reads := windowGen.Load() - before
	alone.Close()
	if len(want) < 2 || reads < 2*ringLen {
		t.Fatalf("read %d records in %d windows, want more", len(want), reads)
	}
	// Two, in step.
	a, b := open(), open()
	before = windowGen.Load()
	var got [2][]string
	var r pmapi.Result
	for done := 0; done < 2; {
		done = 0
		for i, c := range []*Context{a, b} {
			switch err := c.FetchArchive(&r); {
			case errors.Is(err, pmapi.ErrEOL):
				done++
			case err != nil:
				t.Fatal(err)
			default:
				got[i] = append(got[i], fmt.Sprint(r))
			}
		}
	}
	for i := range got {
		if !slices.Equal(got[i], want) {
			t.Errorf("context %d of two read\n%q\nalone\n%q", i, got[i], want)
		}
	}
	if n := windowGen.Load() - before; n != reads {
		t.Errorf("two contexts in step read %d windows, one alone %d", n, reads)
	}
	va, vb := a.archives[0].vols[0], b.archives[0].vols[0]
	sf := va.src.(*fileSource).shared
	if vb.src.(*fileSource).shared != sf || sf.users.Load() != 2 {
		t.Fatal("two sources of one file do not share it")
	}
	// The last record, found sound in the window both hold, is not
	// checked again.
	var buf []byte
	end, err := va.length()
	if err != nil {
		t.Fatal(err)
	}
	last, _, _, err := va.readBefore(end, &buf)
	if err != nil || last.gen == 0 || last.gen != vb.src.(*fileSource).gen {
		t.Fatalf("the last record: %v, viewed in window %d, the other source's is %d", err, last.gen, vb.src.(*fileSource).gen)
	}
	if !sf.has(&last) {
		t.Error("the last record, read by both, is not remembered as sound")
	}
	// A record remembered as sound, in the first half of the file (so
	// that the windows kept hold it no more), gets a bad value format in
	// its first value set on disk: both contexts read it again, check it
	// and find it damaged.
	var target recHead
	for off := va.first(); off < end/2; {
		h, _, _, err := va.readAt(off, &buf)
		if err != nil {
			t.Fatal(err)
		}
		if sl := sf.slots[slot(off)]; sl.off == off && sl.size == h.size && h.nsets > 0 {
			target = h
			break
		}
		off = h.end()
	}
	if target.size == 0 {
		t.Fatal("no record of the first half is remembered as sound")
	}
	for off := target.end(); off < end; {
		h, _, _, err := va.readAt(off, &buf)
		if err != nil {
			t.Fatal(err)
		}
		off = h.end()
	}
	f, err := os.OpenFile(base+".0", os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	var w [4]byte
	at := target.off + 4 + int64(recHeaderLen(va.a.label.Version))
	if _, err := f.ReadAt(w[:], at+4); err != nil || int32(be.Uint32(w[:])) <= 0 {
		t.Fatalf("the first value set of the record at %d has no values (%v)", target.off, err)
	}
	be.PutUint32(w[:], 7)
	if _, err := f.WriteAt(w[:], at+8); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for i, c := range []*Context{a, b} {
		if err := c.SetMode(pmapi.ModeForw, 0, 0); err != nil {
			t.Fatal(err)
		}
		var fe *FormatError
		err := c.FetchArchive(&r)
		for err == nil {
			err = c.FetchArchive(&r)
		}
		if !errors.As(err, &fe) || fe.Code != pmapi.ErrLogRec || !strings.Contains(fe.Msg, "bad value format 7") {
			t.Errorf("context %d, the changed record: %v, want a FormatError for its value format", i, err)
		}
	}
	// Its new bytes are not taken for the old ones that were sound.
	h, p, _, err := va.readAt(target.off, &buf)
	if err != nil || h.gen == 0 {
		t.Fatalf("the changed record: %v, viewed in window %d", err, h.gen)
	}
	var fe *FormatError
	if err := va.check(&h, p); !errors.As(err, &fe) || fe.Code != pmapi.ErrLogRec {
		t.Errorf("checking the changed record: %v, want a FormatError for its value format", err)
	}
	a.Close()
	b.Close()
	sharedFiles.mu.Lock()
	_, kept := sharedFiles.files[sf.id]
	sharedFiles.mu.Unlock()
	if kept {
		t.Error("the file is kept shared after its sources closed")
	}
}

// TestSharedFileConcurrent reads one archive file from several contexts
// in goroutines of their own, forwards and backwards: each reads what a
// context alone reads (run with -race, it also shows the sharing sound).
func TestSharedFileConcurrent(t *testing.T) {
	defer smallBuffers(512, 1<<20, 1<<20)()
	base := filepath.Join(archivesDir, "collector")
	read := func(mode pmapi.Mode) ([]string, error) {
		c, err := Open(base)
		if err != nil {
			return nil, err
		}
		defer c.Close()
		start, end := c.Bounds()
		at := start
		if mode == pmapi.ModeBack {
			at = end
		}
		if err := c.SetMode(mode, at, 0); err != nil {
			return nil, err
		}
		var out []string
		var r pmapi.Result
		for {
			err := c.FetchArchive(&r)
			if errors.Is(err, pmapi.ErrEOL) {
				return out, nil
			}
			if err != nil {
				return nil, err
			}
			out = append(out, fmt.Sprint(r))
		}
	}
	modes := []pmapi.Mode{pmapi.ModeForw, pmapi.ModeBack}
	want := map[pmapi.Mode][]string{}
	for _, m := range modes {
		out, err := read(m)
		if err != nil || len(out) < 2 {
			t.Fatalf("alone, mode %v: %d records, %v", m, len(out), err)
		}
		want[m] = out
	}
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := modes[i%2]
			got, err := read(m)
			if err == nil && !slices.Equal(got, want[m]) {
				err = fmt.Errorf("mode %v: read\n%q\nalone\n%q", m, got, want[m])
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("context %d: %v", i, err)
		}
	}
}
