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
// data volumes. Opening it reads the label of its first data volume, its
// temporal index and its metadata, as libpcp does; data volumes are
// opened when first read, and records are read from them as they are
// wanted, with at most maxOpen volumes open at a time.
type Archive struct {
	base     string // directory and base name, without suffixes
	label    Label  // the label of the first data volume
	metaPath string
	meta     *meta // this archive's own metadata
	index    []IndexEntry
	volNums  []int // data volume numbers present, ascending
	vols     map[int]*volume
	open     []*volume  // volumes with an open source, least recently used first
	end      pmapi.Time // time of the last record; valid if hasEnd
	hasEnd   bool
	// warn, if not nil, is told of damage passed over as libpcp passes
	// over it (a volume that cannot be opened).
	warn        func(error)
	warned      map[string]bool // the damage reported, by message
	anyFeatures bool            // Options.NoFeatureCheck
}

// maxOpen is how many data volumes of an archive are kept open.
const maxOpen = 2

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

// archiveFiles lists the files of archive base in directory dir, in the
// order of their names. It reads the directory in batches, as readdir(3)
// does, keeping only those names: a directory such as /tmp may hold
// thousands of others.
func archiveFiles(dir, base string) ([]string, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := namesWithPrefix(d, base+".")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if b, suf := baseName(n); b == base && suf != "" {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

// OpenArchive opens the archive called name: its base name, or the name
// of any of its files (.meta, .index or a data volume, compressed or
// not). Of the options, only Warn and NoFeatureCheck apply.
func OpenArchive(name string, opts ...Options) (*Archive, error) {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	if _, ok := findFile(name); ok {
		base, _ = baseName(base)
	}
	a := &Archive{base: filepath.Join(dir, base), vols: make(map[int]*volume)}
	if len(opts) > 0 {
		a.warn, a.anyFeatures = opts[0].Warn, opts[0].NoFeatureCheck
	}
	files, err := archiveFiles(dir, base)
	if err != nil {
		return nil, err
	}
	var metaPath, indexPath string
	found := len(files) > 0
	for _, f := range files {
		_, suf := baseName(f)
		path := filepath.Join(dir, f)
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
			if _, dup := a.vols[int(n)]; !dup {
				a.volNums = append(a.volNums, int(n))
			}
			a.vols[int(n)] = &volume{a: a, num: int(n), path: path, size: -1}
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
		a.Close()
		return nil, err
	}
	return a, nil
}

// load reads the first volume's label, the temporal index and the
// metadata, and checks that they belong together.
func (a *Archive) load(metaPath, indexPath string) error {
	v := a.vols[a.volNums[0]]
	if err := v.open(); err != nil {
		return err
	}
	a.label = v.f.label
	var index *file
	var indexData []byte
	if indexPath != "" {
		f, data, err := readFile(indexPath, VolIndex, a.anyFeatures)
		if err != nil {
			return err
		}
		if err := f.sameArchive(a.label); err != nil {
			return err
		}
		a.index = decodeIndex(f, data)
		index, indexData = f, data
	}
	a.metaPath = metaPath
	a.meta = newMeta()
	if err := a.loadMeta(a.meta); err != nil {
		return err
	}
	a.meta.dedupLabels()
	if index != nil {
		a.checkIndex(index, indexData)
	}
	a.meta.bounds = nil
	a.meta.settle()
	return nil
}

// loadMeta reads the archive's metadata file and loads it into m.
func (a *Archive) loadMeta(m *meta) error {
	f, data, err := readFile(a.metaPath, VolMeta, a.anyFeatures)
	if err != nil {
		return err
	}
	if err := f.sameArchive(a.label); err != nil {
		return err
	}
	a.checkMetaLabel(f)
	m.note = a.damaged
	defer func() { m.note = nil }()
	return m.load(f, data)
}

// usable opens v if need be and reports whether it can be read. A
// volume that cannot is passed over, as libpcp passes over it, with a
// warning the first time.
func (a *Archive) usable(v *volume) bool {
	known := v.err != nil
	if err := v.open(); err != nil {
		if !known && a.warn != nil {
			a.warn(err)
		}
		return false
	}
	return true
}

// used notes that v, whose source is open, has just been read, closing
// the volume least recently read if more than maxOpen are open.
func (a *Archive) used(v *volume) {
	for i, o := range a.open {
		if o == v {
			if i < len(a.open)-1 {
				copy(a.open[i:], a.open[i+1:])
				a.open[len(a.open)-1] = v
			}
			return
		}
	}
	a.open = append(a.open, v)
	if len(a.open) > maxOpen {
		a.open[0].close()
		a.open = append(a.open[:0], a.open[1:]...)
	}
}

// Close closes the files the archive has open. Reading records after
// Close opens them again.
func (a *Archive) Close() error {
	for _, v := range a.open {
		v.close()
	}
	a.open = a.open[:0]
	return nil
}

// Label is the archive's label (that of its first data volume).
func (a *Archive) Label() Label { return a.label }

// Name is the archive's base name, with its directory.
func (a *Archive) Name() string { return a.base }

// Index is the archive's temporal index.
func (a *Archive) Index() []IndexEntry { return a.index }
