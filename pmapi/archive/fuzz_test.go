package archive

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// Fuzz targets for the two decoders: data volumes (records and the value
// sets in them, read forwards, fetched and interpolated) and metadata.
// They are seeded with the files of the test archives; crashers found
// are kept under testdata/fuzz/ and run as regression cases by go test.

// seedFiles returns the uncompressed contents of the test archive files
// whose names end in suffix (".meta", or ".0" for first volumes).
func seedFiles(f *testing.F, suffix string) map[string][]byte {
	ents, err := os.ReadDir(archivesDir)
	if err != nil {
		f.Fatal(err)
	}
	out := make(map[string][]byte)
	for _, e := range ents {
		name := strings.TrimSuffix(e.Name(), ".xz")
		if !strings.HasSuffix(name, suffix) {
			continue
		}
		vol := VolMeta
		if suffix != ".meta" {
			vol = 0
		}
		_, data, err := readFile(filepath.Join(archivesDir, e.Name()), vol, false)
		if err != nil {
			f.Fatal(err)
		}
		out[strings.TrimSuffix(name, suffix)] = data
	}
	return out
}

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
// fetches every metric in each mode.
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
		for i := 0; i < 30; i++ {
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

func FuzzVolume(f *testing.F) {
	vols := seedFiles(f, ".0")
	metas := seedFiles(f, ".meta")
	for _, v := range vols {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vf := &file{path: "fuzz.0", vol: 0}
		l, err := vf.decodeLabel(data)
		if err != nil {
			checkErr(t, err)
			return
		}
		m := metas["synth-v3"]
		if l.Version == 2 {
			m = metas["synth-v2"]
		}
		c, err := contextOf(m, data)
		if err != nil {
			checkErr(t, err)
			return
		}
		exercise(t, c)
	})
}

func FuzzMeta(f *testing.F) {
	metas := seedFiles(f, ".meta")
	vols := seedFiles(f, ".0")
	for _, m := range metas {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mf := &file{path: "fuzz.meta", vol: VolMeta}
		l, err := mf.decodeLabel(data)
		if err != nil {
			checkErr(t, err)
			return
		}
		vol := vols["synth-v3"]
		if l.Version == 2 {
			vol = vols["synth-v2"]
		}
		c, err := contextOf(data, vol)
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
