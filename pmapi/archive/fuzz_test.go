package archive

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// Fuzz targets for the decoders: labels (FuzzLabel), data volumes'
// records and the value sets in them, read forwards, fetched and
// interpolated (FuzzVolume), metadata (FuzzMeta), and the check of
// records by their shape (FuzzShape). See testdata/README.md for how to
// run them.
//
// An input to FuzzVolume or FuzzMeta is not a whole file: its first byte
// chooses one of four test archives (its base), and the rest is records,
// put after the label of the base's volume (or metadata) and read with
// the base's metadata (or its first records). Inputs stay small, as they
// must: Go's fuzzer minimises each new input it finds, trying to remove
// every range of its bytes, which takes time growing as the square of
// its length; whole files made it spend the minute -fuzzminimizetime
// allows on each, again and again, and hardly fuzz at all. The seeds
// are a few records of each test archive. Crashers found are kept under
// testdata/fuzz/ and run as regression cases by go test.

// fuzzBases are the test archives inputs are read with.
var fuzzBases = []string{"synth-v2", "synth-v3", "linux-v2", "linux-v3"}

// fuzzBase is one of fuzzBases, read: its first volume and its metadata,
// each split into label and records.
type fuzzBase struct {
	volLabel, vol   []byte
	metaLabel, meta []byte
}

// loadFuzzBases reads the archives of fuzzBases.
func loadFuzzBases(f *testing.F) []fuzzBase {
	var out []fuzzBase
	for _, name := range fuzzBases {
		var b fuzzBase
		for _, part := range []struct {
			suffix        string
			vol           int
			label, record *[]byte
		}{{".0", 0, &b.volLabel, &b.vol}, {".meta", VolMeta, &b.metaLabel, &b.meta}} {
			file, data, err := readFile(filepath.Join(archivesDir, name+part.suffix), part.vol, false)
			if err != nil {
				f.Fatal(err)
			}
			ls := labelSize(file.label.Version)
			*part.label, *part.record = data[:ls], data[ls:]
		}
		out = append(out, b)
	}
	return out
}

// records splits the records of an archive file (d, after its label) into
// runs of about size bytes each (a record longer than that on its own).
func records(d []byte, size int) [][]byte {
	var out [][]byte
	start, off := 0, 0
	for off+8 <= len(d) {
		n := int(be.Uint32(d[off:]))
		if n < 8 || off+n > len(d) {
			break
		}
		if off > start && off+n-start > size {
			out = append(out, d[start:off])
			start = off
		}
		off += n
	}
	if off > start {
		out = append(out, d[start:off])
	}
	return out
}

// input splits a fuzz input into its base and the rest.
func input(bases []fuzzBase, data []byte) (*fuzzBase, []byte, bool) {
	if len(data) == 0 {
		return nil, nil, false
	}
	return &bases[int(data[0])%len(bases)], data[1:], true
}

// join is a followed by b, in a new slice.
func join(a, b []byte) []byte { return append(append([]byte(nil), a...), b...) }

// checkErr fails unless err is nil or one of the errors this package
// documents: a FormatError or a PCP error code.
func checkErr(t *testing.T, err error) {
	var fe *FormatError
	var code pmapi.Errno
	if err != nil && !errors.As(err, &fe) && !errors.As(err, &code) {
		t.Fatalf("unexpected error type %T: %v", err, err)
	}
}

// exercise reads every record of the context's first archive and
// fetches every metric a few times in each mode.
func exercise(t *testing.T, c *Context) {
	r := c.archives[0].Records()
	for n := 0; r.Next() && n < 1000; n++ {
	}
	checkErr(t, r.Err())
	var ids []pmapi.PMID
	for id := range c.meta.descs {
		ids = append(ids, id)
	}
	start, end := c.Bounds()
	var res pmapi.Result
	for _, m := range []struct {
		mode  pmapi.Mode
		at    pmapi.Time
		delta time.Duration
	}{
		{pmapi.ModeInterp, start, 700 * time.Millisecond},
		{pmapi.ModeInterp, end, -1300 * time.Millisecond},
		{pmapi.ModeForw, start, 0},
		{pmapi.ModeBack, end, 0},
	} {
		c.SetMode(m.mode, m.at, m.delta)
		for i := 0; i < 8; i++ {
			err := c.Fetch(ids, &res)
			checkErr(t, err)
			if err != nil && m.mode != pmapi.ModeInterp {
				break
			}
			for _, id := range ids {
				d, _ := c.LookupDesc(id)
				if d.InDom != pmapi.InDomNull {
					c.InDom(d.InDom)
					c.Labels(pmapi.LabelInstances, uint32(d.InDom))
				}
			}
		}
	}
}

// contextOf makes a one-archive context from the contents of a metadata
// file and a data volume, however damaged.
func contextOf(meta, vol []byte) (*Context, error) {
	mf := &file{path: "fuzz.meta", vol: VolMeta}
	vf := &file{path: "fuzz.0", vol: 0}
	var err error
	if mf.label, err = mf.decodeLabel(meta); err != nil {
		return nil, err
	}
	if vf.label, err = vf.decodeLabel(vol); err != nil {
		return nil, err
	}
	a := &Archive{
		base:    "fuzz",
		label:   vf.label,
		volNums: []int{0},
		vols:    map[int]*volume{},
		meta:    newMeta(),
	}
	a.vols[0] = &volume{a: a, num: 0, path: vf.path, f: vf, src: memSource(vol), size: -1}
	if err := a.meta.load(mf, meta); err != nil {
		return nil, err
	}
	a.meta.dedupLabels()
	return newContext("fuzz", []*Archive{a})
}

func FuzzLabel(f *testing.F) {
	bases := loadFuzzBases(f)
	for _, b := range bases {
		f.Add(b.volLabel, 0)
		f.Add(b.metaLabel, VolMeta)
	}
	f.Fuzz(func(t *testing.T, data []byte, vol int) {
		lf := &file{path: "fuzz", vol: vol}
		_, err := lf.decodeLabel(data)
		checkErr(t, err)
	})
}

func FuzzVolume(f *testing.F) {
	bases := loadFuzzBases(f)
	for i, b := range bases {
		for _, r := range records(b.vol, 600) {
			f.Add(join([]byte{byte(i)}, r))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, recs, ok := input(bases, data)
		if !ok {
			return
		}
		c, err := contextOf(join(b.metaLabel, b.meta), join(b.volLabel, recs))
		if err != nil {
			checkErr(t, err)
			return
		}
		exercise(t, c)
	})
}

func FuzzMeta(f *testing.F) {
	bases := loadFuzzBases(f)
	for i, b := range bases {
		for _, r := range records(b.meta, 600) {
			f.Add(join([]byte{byte(i)}, r))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, recs, ok := input(bases, data)
		if !ok {
			return
		}
		vol := join(b.volLabel, records(b.vol, 1500)[0])
		c, err := contextOf(join(b.metaLabel, recs), vol)
		if err != nil {
			checkErr(t, err)
			return
		}
		for _, n := range allNames(c) {
			id, err := c.LookupName(n)
			checkErr(t, err)
			_, err = c.NameAll(id)
			checkErr(t, err)
			_, err = c.Text(uint32(id), pmapi.TextHelp|pmapi.TextPMID)
			checkErr(t, err)
			for _, l := range []pmapi.LabelFlag{pmapi.LabelContext, pmapi.LabelDomain, pmapi.LabelCluster, pmapi.LabelItem} {
				_, err = c.Labels(l, uint32(id))
				checkErr(t, err)
			}
		}
		for indom := range c.meta.indoms {
			_, err := c.InDomArchive(indom)
			checkErr(t, err)
			c.lifetimes(indom)
		}
		exercise(t, c)
	})
}

// FuzzShape checks that a record passes checkRecord by its shape (see
// recShape) only if checking it in full passes too. An input is a base
// and records; the seeds are a record of each base three times over, as
// regular archives have them (the second makes the shape remembered,
// the third is checked by it), which the fuzzer varies.
func FuzzShape(f *testing.F) {
	bases := loadFuzzBases(f)
	for i, b := range bases {
		for _, r := range records(b.vol, 0)[:4] {
			f.Add(join([]byte{byte(i)}, join(r, join(r, r))))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, recs, ok := input(bases, data)
		if !ok {
			return
		}
		vf := &file{path: "fuzz.0", vol: 0}
		var err error
		if vf.label, err = vf.decodeLabel(join(b.volLabel, b.vol)); err != nil {
			t.Fatal(err)
		}
		v := &volume{f: vf}
		hlen := recHeaderLen(vf.label.Version)
		for off := 0; off+8 <= len(recs); {
			size := int64(be.Uint32(recs[off:]))
			if size < 8 || int64(off)+size > int64(len(recs)) {
				return
			}
			h, p, _, err := v.head(int64(off), size, recs[off+4:off+int(size)-4])
			off += int(size)
			if err != nil {
				continue
			}
			_, full := v.checkInFull(&h, p, hlen)
			if err := v.checkRecord(&h, p); (err == nil) != (full == nil) || (err != nil && err.Error() != full.Error()) {
				t.Fatalf("record at %d: checkRecord gives %v, checked in full %v", h.off, err, full)
			}
		}
	})
}
