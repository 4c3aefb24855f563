package archive

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// Archive is one PCP archive: its label, metadata, temporal index and
// data volumes. Data volumes are read into memory when first needed.
type Archive struct {
	base     string // directory and base name, without suffixes
	label    Label  // the label of the first data volume
	metaFile *file
	meta     *meta // this archive's own metadata
	index    []IndexEntry
	volNums  []int // data volume numbers present, ascending
	volPath  map[int]string
	vols     map[int]*volume
	end      pmapi.Time // time of the last record; valid if hasEnd
	hasEnd   bool
}

// baseName strips the suffix that names one file of an archive (.meta,
// .index or a volume number, each optionally followed by a compression
// suffix) from name, returning the base name and the suffix without
// compression ("" if name has none of these suffixes).
func baseName(name string) (string, string) {
	s := name
	for _, c := range compressors {
		if t, ok := strings.CutSuffix(s, c.suffix); ok && strings.Contains(t, ".") {
			s = t
			break
		}
	}
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return name, ""
	}
	suf := s[i+1:]
	if suf == "meta" || suf == "index" {
		return s[:i], suf
	}
	if suf != "" && strings.Trim(suf, "0123456789") == "" {
		return s[:i], suf
	}
	return name, ""
}

// OpenArchive opens the archive called name: its base name, or the name
// of any of its files (.meta, .index or a data volume, compressed or
// not).
func OpenArchive(name string) (*Archive, error) {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	if _, ok := findFile(name); ok {
		base, _ = baseName(base)
	}
	a := &Archive{base: filepath.Join(dir, base), volPath: make(map[int]string), vols: make(map[int]*volume)}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var metaPath, indexPath string
	found := false
	for _, e := range ents {
		b, suf := baseName(e.Name())
		if b != base || suf == "" {
			continue
		}
		found = true
		path := filepath.Join(dir, e.Name())
		switch suf {
		case "meta":
			metaPath = path
		case "index":
			indexPath = path
		default:
			n, err := strconv.ParseUint(suf, 10, 31)
			if err != nil {
				continue
			}
			if _, dup := a.volPath[int(n)]; !dup {
				a.volNums = append(a.volNums, int(n))
			}
			a.volPath[int(n)] = path
		}
	}
	if len(a.volNums) == 0 || metaPath == "" {
		if found {
			return nil, &os.PathError{Op: "open archive", Path: name, Err: pmapi.ErrLogFile}
		}
		return nil, &os.PathError{Op: "open archive", Path: name, Err: os.ErrNotExist}
	}
	slices.Sort(a.volNums)
	if err := a.load(metaPath, indexPath); err != nil {
		return nil, err
	}
	return a, nil
}

// load reads the first volume's label, the temporal index and the
// metadata, and checks that they belong together.
func (a *Archive) load(metaPath, indexPath string) error {
	first := a.volNums[0]
	v, err := a.volume(first)
	if err != nil {
		return err
	}
	a.label = v.f.label
	if indexPath != "" {
		f, err := readFile(indexPath, VolIndex)
		if err != nil {
			return err
		}
		if err := f.sameArchive(a.label); err != nil {
			return err
		}
		a.index = decodeIndex(f)
	}
	f, err := readFile(metaPath, VolMeta)
	if err != nil {
		return err
	}
	if err := f.sameArchive(a.label); err != nil {
		return err
	}
	a.metaFile = f
	a.meta = newMeta()
	if err := a.meta.load(f); err != nil {
		return err
	}
	a.meta.dedupLabels()
	return nil
}

// volume returns data volume n, reading it if need be.
func (a *Archive) volume(n int) (*volume, error) {
	if v := a.vols[n]; v != nil {
		return v, nil
	}
	f, err := readFile(a.volPath[n], n)
	if err != nil {
		return nil, err
	}
	if a.label.Version != 0 && f.label.Version != a.label.Version {
		return nil, f.errorf(4, pmapi.ErrLabel, "log format %d, but the archive is format %d", f.label.Version, a.label.Version)
	}
	v := scanVolume(f)
	a.vols[n] = v
	return v, nil
}

// Label is the archive's label (that of its first data volume).
func (a *Archive) Label() Label { return a.label }

// Name is the archive's base name, with its directory.
func (a *Archive) Name() string { return a.base }

// Index is the archive's temporal index.
func (a *Archive) Index() []IndexEntry { return a.index }

// End is the time of the archive's last readable record: the last
// record of the last volume that has one, as pmGetArchiveEnd finds it.
func (a *Archive) End() (pmapi.Time, error) {
	if a.hasEnd {
		return a.end, nil
	}
	for i := len(a.volNums) - 1; i >= 0; i-- {
		v, err := a.volume(a.volNums[i])
		if err != nil {
			return 0, err
		}
		if len(v.recs) > 0 {
			a.end, a.hasEnd = v.recs[len(v.recs)-1].time, true
			return a.end, nil
		}
	}
	return 0, pmapi.ErrNoData
}
