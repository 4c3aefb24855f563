package archive

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// copyArchive copies the test archive name into a temporary directory
// and returns the new base name.
func copyArchive(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	ents, err := os.ReadDir(archivesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if b, _ := baseName(e.Name()); b != name {
			continue
		}
		data, err := os.ReadFile(filepath.Join(archivesDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, name)
}

// edit rewrites the file path with f.
func edit(t *testing.T, path string, f func([]byte) []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, f(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wantFormatError checks that err is a FormatError for file, volume vol,
// at offset off, with PCP error code.
func wantFormatError(t *testing.T, err error, file string, vol int, off int64, code pmapi.Errno) {
	t.Helper()
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("got %v (%T), want a FormatError", err, err)
	}
	if filepath.Base(fe.Path) != file || fe.Volume != vol || fe.Offset != off || fe.Code != code {
		t.Fatalf("got %s: volume %d offset %d code %v; want %s volume %d offset %d code %v (%v)",
			filepath.Base(fe.Path), fe.Volume, fe.Offset, fe.Code, file, vol, off, code, err)
	}
	if pmapi.Code(err) != code {
		t.Fatalf("pmapi.Code(%v) = %v, want %v", err, pmapi.Code(err), code)
	}
	msg := err.Error()
	if !strings.Contains(msg, file) || !strings.Contains(msg, volumeName(vol)) || !strings.Contains(msg, "offset") {
		t.Fatalf("message %q does not name the file, volume and offset", msg)
	}
}

// recordOffsets lists the offsets of the records of the data volume at
// path, the first volume of its archive.
func recordOffsets(t *testing.T, path string) []int64 {
	t.Helper()
	a, err := OpenArchive(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var offs []int64
	r := a.Records()
	for r.Next() && r.Record().Volume == 0 {
		offs = append(offs, r.Record().Offset)
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return offs
}

// readAll reads every record of the archive, returning the reader's
// error.
func readAll(t *testing.T, base string) error {
	t.Helper()
	a, err := OpenArchive(base)
	if err != nil {
		return err
	}
	defer a.Close()
	r := a.Records()
	for r.Next() {
	}
	return r.Err()
}

func TestTruncatedVolume(t *testing.T) {
	base := copyArchive(t, "linux-v3")
	vol := base + ".0"
	offs := recordOffsets(t, vol)
	cut := offs[3] + 20
	edit(t, vol, func(b []byte) []byte { return b[:cut] })
	err := readAll(t, base)
	wantFormatError(t, err, "linux-v3.0", 0, offs[3], pmapi.ErrLogRec)

	// Interpolating up to the damage works; reading past it fails with
	// the same error, and does not panic.
	c, err := Open(base)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := c.LookupName("kernel.all.pswitch")
	start, _ := c.Bounds()
	c.SetMode(pmapi.ModeInterp, start, 500*time.Millisecond)
	var r pmapi.Result
	var last error
	for i := 0; i < 20 && last == nil; i++ {
		last = c.Fetch([]pmapi.PMID{id}, &r)
	}
	if pmapi.Code(last) != pmapi.ErrLogRec && pmapi.Code(last) != pmapi.ErrEOL {
		t.Fatalf("fetching past the damage: %v", last)
	}
}

func TestCorruptTrailer(t *testing.T) {
	base := copyArchive(t, "linux-v2")
	vol := base + ".0"
	offs := recordOffsets(t, vol)
	edit(t, vol, func(b []byte) []byte {
		size := int64(binary.BigEndian.Uint32(b[offs[2]:]))
		binary.BigEndian.PutUint32(b[offs[2]+size-4:], 12345)
		return b
	})
	data, _ := os.ReadFile(vol)
	size := int64(binary.BigEndian.Uint32(data[offs[2]:]))
	wantFormatError(t, readAll(t, base), "linux-v2.0", 0, offs[2]+size-4, pmapi.ErrLogRec)
}

func TestCorruptValueSet(t *testing.T) {
	base := copyArchive(t, "linux-v3")
	vol := base + ".0"
	offs := recordOffsets(t, vol)
	// The first value set of the second record claims a million values.
	at := offs[1] + 4 + 16
	edit(t, vol, func(b []byte) []byte {
		binary.BigEndian.PutUint32(b[at+4:], 1000000)
		return b
	})
	wantFormatError(t, readAll(t, base), "linux-v3.0", 0, at, pmapi.ErrLogRec)
}

func TestCorruptValueBlock(t *testing.T) {
	base := copyArchive(t, "synth-v3")
	vol := base + ".0"
	offs := recordOffsets(t, vol)
	// Find the first value set with pointers to value blocks and point
	// its first value far past the end of the record.
	a, err := OpenArchive(base)
	if err != nil {
		t.Fatal(err)
	}
	v := a.vols[0]
	var buf []byte
	h, p, _, err := v.readAt(offs[0], &buf)
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	b := p[recHeaderLen(3):]
	var at int64 = -1
	for k := 0; k < int(h.nsets); k++ {
		var s rawSet
		pos := offs[0] + 4 + int64(len(p)-len(b))
		s, b = nextSet(b)
		if s.numval > 0 && s.valfmt == valDPTR {
			at = pos + 12 + 4
			break
		}
	}
	if at < 0 {
		t.Fatal("no value blocks in synth-v3")
	}
	edit(t, vol, func(d []byte) []byte {
		binary.BigEndian.PutUint32(d[at:], 0x7fffffff)
		return d
	})
	wantFormatError(t, readAll(t, base), "synth-v3.0", 0, at, pmapi.ErrLogRec)
}

func TestTruncatedMeta(t *testing.T) {
	base := copyArchive(t, "linux-v2")
	meta := base + ".meta"
	data, _ := os.ReadFile(meta)
	// Cut the fourth metadata record short.
	off := labelSizeV2
	for i := 0; i < 3; i++ {
		off += int(binary.BigEndian.Uint32(data[off:]))
	}
	edit(t, meta, func(b []byte) []byte { return b[:off+10] })
	_, err := Open(base)
	wantFormatError(t, err, "linux-v2.meta", VolMeta, int64(off), pmapi.ErrLogRec)
}

func TestCorruptInDom(t *testing.T) {
	base := copyArchive(t, "linux-v3")
	meta := base + ".meta"
	data, _ := os.ReadFile(meta)
	off := labelSizeV3
	for binary.BigEndian.Uint32(data[off+4:]) != metaInDom {
		off += int(binary.BigEndian.Uint32(data[off:]))
	}
	// The first instance's name offset points outside the record.
	n := int(binary.BigEndian.Uint32(data[off+8+16:]))
	at := off + 8 + 20 + 4*n
	edit(t, meta, func(b []byte) []byte {
		binary.BigEndian.PutUint32(b[at:], 99999)
		return b
	})
	_, err := Open(base)
	wantFormatError(t, err, "linux-v3.meta", VolMeta, int64(at), pmapi.ErrLogRec)
}

func TestWrongVersion(t *testing.T) {
	base := copyArchive(t, "linux-v2")
	edit(t, base+".0", func(b []byte) []byte {
		b[7] = 4 // PM_LOG_MAGIC | 4
		return b
	})
	_, err := Open(base)
	wantFormatError(t, err, "linux-v2.0", 0, 4, pmapi.ErrLabel)
	if !strings.Contains(err.Error(), "version 4") {
		t.Errorf("message %q does not give the version", err)
	}
}

func TestNotAnArchive(t *testing.T) {
	base := copyArchive(t, "linux-v2")
	edit(t, base+".meta", func(b []byte) []byte { return []byte("this is not a PCP archive at all") })
	_, err := Open(base)
	wantFormatError(t, err, "linux-v2.meta", VolMeta, 4, pmapi.ErrLabel)
}

func TestTruncatedLabel(t *testing.T) {
	base := copyArchive(t, "linux-v3")
	edit(t, base+".index", func(b []byte) []byte { return b[:100] })
	_, err := Open(base)
	wantFormatError(t, err, "linux-v3.index", VolIndex, 100, pmapi.ErrLabel)
}

func TestLabelVolumeMismatch(t *testing.T) {
	base := copyArchive(t, "multivol")
	// Give volume 1 the label of volume 0: like libpcp (pmdumplog reads
	// 7 of the 10 records), reading passes over it, with a warning.
	v0, _ := os.ReadFile(base + ".0")
	edit(t, base+".1", func(b []byte) []byte {
		copy(b[:labelSizeV2], v0[:labelSizeV2])
		return b
	})
	n, warned, rerr := readWarned(t, base)
	if rerr != nil || n != 7 {
		t.Fatalf("read %d records, error %v; want 7 and no error", n, rerr)
	}
	if len(warned) != 1 {
		t.Fatalf("warnings %v, want one", warned)
	}
	wantFormatError(t, warned[0], "multivol.1", 1, 20, pmapi.ErrLabel)
}

func TestEmptyVolume(t *testing.T) {
	base := copyArchive(t, "linux-v2")
	edit(t, base+".0", func(b []byte) []byte { return b[:0] })
	_, err := Open(base)
	wantFormatError(t, err, "linux-v2.0", 0, 0, pmapi.ErrNoData)
}

func TestPartialIndexEntryIgnored(t *testing.T) {
	base := copyArchive(t, "linux-v3")
	idx, _ := os.ReadFile(base + ".index")
	edit(t, base+".index", func(b []byte) []byte { return b[:len(b)-7] })
	a, err := OpenArchive(base)
	if err != nil {
		t.Fatal(err)
	}
	if want := (len(idx)-labelSizeV3)/32 - 1; len(a.Index()) != want {
		t.Fatalf("got %d index entries, want %d", len(a.Index()), want)
	}
}

func TestMissingFiles(t *testing.T) {
	base := copyArchive(t, "linux-v2")
	if err := os.Remove(base + ".meta"); err != nil {
		t.Fatal(err)
	}
	_, err := Open(base)
	if pmapi.Code(err) != pmapi.ErrLogFile || !strings.Contains(err.Error(), "linux-v2") {
		t.Fatalf("got %v, want PM_ERR_LOGFILE naming the archive", err)
	}
	_, err = Open(filepath.Join(t.TempDir(), "nothing"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("got %v, want not-exist", err)
	}
}

// TestUndescribedSetsWarned gives the first value set of the second and
// third records a metric the metadata does not describe: reading passes
// over them as libpcp does, warning once for each record.
func TestUndescribedSetsWarned(t *testing.T) {
	base := copyArchive(t, "collector")
	var offs []int64
	edit(t, base+".0", func(b []byte) []byte {
		for off := int64(labelSizeV2); off+4 <= int64(len(b)); off += int64(binary.BigEndian.Uint32(b[off:])) {
			offs = append(offs, off)
		}
		for _, off := range offs[1:3] {
			binary.BigEndian.PutUint32(b[off+4+12:], 0x7ffffff0)
		}
		return b
	})
	n, warned, rerr := readWarned(t, base)
	if rerr != nil || n != len(offs) {
		t.Fatalf("read %d records, error %v; want %d and no error", n, rerr, len(offs))
	}
	if len(warned) != 2 {
		t.Fatalf("warnings %v, want two", warned)
	}
	for i, err := range warned {
		wantFormatError(t, err, "collector.0", 0, offs[1+i]+4+12, pmapi.ErrLogRec)
	}
}

// readWarned opens the archive base and reads all its records, returning
// how many it read, the warnings given, and the error that ended reading.
func readWarned(t *testing.T, base string) (int, []error, error) {
	t.Helper()
	var warned []error
	a, err := OpenArchive(base, Options{Warn: func(err error) { warned = append(warned, err) }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	r := a.Records()
	n := 0
	for r.Next() {
		n++
	}
	return n, warned, r.Err()
}
