package archive

import (
	"errors"
	"fmt"
	"slices"
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

// TestCheckedShared reads one archive file from two contexts at once:
// they share what has been found sound, the second reads what the first
// does, a record's bytes changed since are checked again (and found
// damaged), and closing both forgets the file.
func TestCheckedShared(t *testing.T) {
	base := copyArchive(t, "linux-v3")
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
	a, b := open(), open()
	want := fetchAll(t, a)
	if len(want) < 2 {
		t.Fatalf("read %d records, want more", len(want))
	}
	va := a.archives[0].vols[0]
	fa := va.src.(*fileSource)
	if fa.checked == nil {
		t.Fatal("a plain file's source shares no checked records")
	}
	// The first record was found sound; the second context, over the
	// same file, shares that.
	var buf []byte
	h, p, _, err := va.readAt(va.first(), &buf)
	if err != nil {
		t.Fatal(err)
	}
	p = slices.Clone(p)
	if got := fetchAll(t, b); !slices.Equal(got, want) {
		t.Errorf("the second context read\n%q\nthe first\n%q", got, want)
	}
	vb := b.archives[0].vols[0]
	if fb := vb.src.(*fileSource); fb.checked != fa.checked {
		t.Error("two sources of one file do not share their checked records")
	}
	if err := vb.check(&h, p); err != nil {
		t.Errorf("the first record, found sound: %v", err)
	}
	// The same record with a bad value format in its first value set
	// (which has values in this archive) is not taken for it.
	set := recHeaderLen(3)
	if int32(be.Uint32(p[set+4:])) <= 0 {
		t.Fatal("the first value set of the first record has no values")
	}
	bad := slices.Clone(p)
	be.PutUint32(bad[set+8:], 7)
	var fe *FormatError
	if err := vb.check(&h, bad); !errors.As(err, &fe) || fe.Code != pmapi.ErrLogRec {
		t.Errorf("a changed record: %v, want a FormatError for its value format", err)
	}
	id := fa.checked.id
	a.Close()
	b.Close()
	checkedFiles.mu.Lock()
	_, kept := checkedFiles.files[id]
	checkedFiles.mu.Unlock()
	if kept {
		t.Error("the file's checked records are kept after its sources closed")
	}
}
