// Package damaged makes a corpus of damaged PCP archives from the
// project's small test archives (testdata/archives): files truncated at
// many offsets, and bytes changed in labels, temporal indexes, metadata
// and data volumes, for log formats 2 and 3 and for xz-compressed files.
// The corpus is made afresh when wanted (it is cheap) rather than kept:
// pmapi/archive's, cmd/pminfo's and cmd/pmie's tests read it against
// goldens of what real PCP tools make of each case (testdata/golden/damaged,
// whose gen.sh runs the real tools over it), and mkdamaged writes it out
// to look at.
//
// It knows the archive format only as far as needed to aim the damage:
// where labels, records and their fields are.
package damaged

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ulikunitz/xz"
)

// Case is one damaged archive: Name is its base name in the corpus
// directory, Source the test archive it was made from, Damage what was
// done to it, and File the suffix of the file damaged (".0", ".meta.xz").
type Case struct {
	Name   string
	Source string
	Damage string
	File   string
	files  map[string][]byte // file suffix (".0", ".meta.xz") -> contents
}

var be = binary.BigEndian

// source is a test archive read into memory, with its files' layout.
type source struct {
	name    string
	version int
	files   map[string][]byte // suffix -> contents, as stored
	plain   map[string][]byte // suffix without ".xz" -> uncompressed contents
}

func labelSize(version int) int {
	if version == 3 {
		return 808
	}
	return 132
}

// loadSource reads the files of the archive name in dir.
func loadSource(dir, name string) (*source, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	s := &source{name: name, files: map[string][]byte{}, plain: map[string][]byte{}}
	for _, e := range ents {
		suf, ok := strings.CutPrefix(e.Name(), name+".")
		if !ok || strings.Contains(strings.TrimSuffix(suf, ".xz"), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		s.files["."+suf] = data
		plain := data
		if p, ok := strings.CutSuffix(suf, ".xz"); ok {
			r, err := xz.NewReader(bytes.NewReader(data))
			if err != nil {
				return nil, err
			}
			var b bytes.Buffer
			if _, err := b.ReadFrom(r); err != nil {
				return nil, err
			}
			plain, suf = b.Bytes(), p
		}
		s.plain["."+suf] = plain
	}
	meta := s.plain[".meta"]
	if len(meta) < 8 {
		return nil, fmt.Errorf("%s: no metadata", name)
	}
	s.version = int(meta[7])
	return s, nil
}

// records lists the offsets of the records of a data volume or metadata
// file (uncompressed contents d), following their length words.
func (s *source) records(d []byte) []int {
	var offs []int
	for off := labelSize(s.version); off+4 <= len(d); {
		n := int(be.Uint32(d[off:]))
		if n < 8 || off+n > len(d) {
			break
		}
		offs = append(offs, off)
		off += n
	}
	return offs
}

// storedName is the suffix under which the file with uncompressed
// suffix suf is stored (".0" or ".0.xz").
func (s *source) storedName(suf string) string {
	if _, ok := s.files[suf]; ok {
		return suf
	}
	return suf + ".xz"
}

// with makes a case of the source with the stored file suf replaced by
// data (or removed, if data is nil).
func (s *source) with(name, damage, suf string, data []byte) Case {
	c := Case{Name: name, Source: s.name, Damage: damage, File: suf, files: map[string][]byte{}}
	for k, v := range s.files {
		c.files[k] = v
	}
	if data == nil {
		delete(c.files, suf)
	} else {
		c.files[suf] = data
	}
	return c
}

// truncated makes the case of file suf (uncompressed, compressed again if
// it is stored compressed) cut at n bytes.
func (s *source) truncated(tag, suf string, n int, why string) Case {
	d := s.plain[suf]
	n = max(0, min(n, len(d)))
	return s.with(fmt.Sprintf("%s-cut%s-%d", tag, suf, n), fmt.Sprintf("%s cut at %d bytes (of %d): %s", suf, n, len(d), why),
		s.storedName(suf), s.restore(suf, d[:n]))
}

// flipped makes the case of file suf (uncompressed) with the byte at off
// inverted.
func (s *source) flipped(tag, suf string, off int, why string) Case {
	d := bytes.Clone(s.plain[suf])
	if off < 0 || off >= len(d) {
		panic(fmt.Sprintf("damaged: %s%s: offset %d outside the file", s.name, suf, off))
	}
	d[off] ^= 0xff
	return s.with(fmt.Sprintf("%s-flip%s-%d", tag, suf, off), fmt.Sprintf("%s byte %d inverted: %s", suf, off, why),
		s.storedName(suf), s.restore(suf, d))
}

// restore compresses d again if suf is stored compressed.
func (s *source) restore(suf string, d []byte) []byte {
	if _, ok := s.files[suf]; ok {
		return d
	}
	var b bytes.Buffer
	w, err := xz.NewWriter(&b)
	if err != nil {
		panic(err)
	}
	w.Write(d)
	if err := w.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// Cases makes the corpus from the test archives in dir.
func Cases(dir string) ([]Case, error) {
	var out []Case
	for _, m := range []struct {
		name, tag string
		make      func(*source, string) []Case
	}{
		{"linux-v2", "v2", generic},
		{"linux-v3", "v3", generic},
		{"synth-v3", "s3", valueBlocks},
		{"synth-v2", "s2", valueBlocks},
		{"linux-xz", "xz", compressed},
		{"pminfo-v2xz", "xz2", compressed},
		{"multivol", "mv", volumes},
	} {
		s, err := loadSource(dir, m.name)
		if err != nil {
			return nil, err
		}
		out = append(out, m.make(s, m.tag)...)
	}
	// Cases aimed at the same byte are the same case: keep the first.
	seen := map[string]bool{}
	kept := out[:0]
	for _, c := range out {
		if !seen[c.Name] {
			seen[c.Name] = true
			kept = append(kept, c)
		}
	}
	return kept, nil
}

// Write makes the corpus from the test archives in srcDir and writes it
// to dir: the files of each case under the case's name.
func Write(dir, srcDir string) ([]Case, error) {
	cases, err := Cases(srcDir)
	if err != nil {
		return nil, err
	}
	for _, c := range cases {
		names := make([]string, 0, len(c.files))
		for suf := range c.files {
			names = append(names, suf)
		}
		sort.Strings(names)
		for _, suf := range names {
			if err := os.WriteFile(filepath.Join(dir, c.Name+suf), c.files[suf], 0o644); err != nil {
				return nil, err
			}
		}
	}
	return cases, nil
}

// generic damages a plain archive of one volume: truncations and changed
// bytes in every file.
func generic(s *source, tag string) []Case {
	var out []Case
	ls := labelSize(s.version)
	vol := s.plain[".0"]
	recs := s.records(vol)
	cut := func(n int, why string) { out = append(out, s.truncated(tag, ".0", n, why)) }
	for _, n := range []int{0, 1, ls - 1, ls, ls + 1, ls + 3, ls + 4, ls + 10} {
		cut(n, "at the label")
	}
	for _, k := range []int{0, 1, len(recs) / 2, len(recs) - 1} {
		off := recs[k]
		size := int(be.Uint32(vol[off:]))
		if k > 0 {
			cut(off, fmt.Sprintf("at the start of record %d", k))
		}
		for _, d := range []int{1, 2, 4, 8 + ls%16, size / 2, size - 4, size - 1} {
			cut(off+d, fmt.Sprintf("inside record %d (length %d)", k, size))
		}
	}
	cut(len(vol)-1, "the last byte")
	out = append(out, labelFlips(s, tag, ".0")...)
	out = append(out, recordFlips(s, tag, recs)...)
	out = append(out, metaCases(s, tag)...)
	out = append(out, indexCases(s, tag)...)
	return out
}

// labelFlips changes the fields of the label of file suf.
func labelFlips(s *source, tag, suf string) []Case {
	flip := func(off int, why string) Case { return s.flipped(tag, suf, off, why) }
	out := []Case{
		flip(3, "label length word"),
		flip(4, "label magic"),
		flip(7, "label format version"),
		flip(8, "label pid"),
	}
	if s.version == 3 {
		out = append(out, flip(4+8+4, "label start time (seconds, high word)"), flip(4+20+3, "label volume number"),
			flip(4+24, "label feature bits"), flip(4+32, "label host name"), flip(807, "label trailer length"))
	} else {
		out = append(out, flip(4+8+3, "label start time"), flip(4+16+3, "label volume number"),
			flip(4+20, "label host name"), flip(131, "label trailer length"))
	}
	return out
}

// recordFlips changes the framing and value sets of records of the first
// data volume.
func recordFlips(s *source, tag string, recs []int) []Case {
	vol := s.plain[".0"]
	hl := 12
	if s.version == 3 {
		hl = 16
	}
	var out []Case
	flip := func(off int, why string) { out = append(out, s.flipped(tag, ".0", off, why)) }
	for _, k := range []int{0, 1, len(recs) - 1} {
		off := recs[k]
		size := int(be.Uint32(vol[off:]))
		flip(off+3, fmt.Sprintf("record %d length word (low byte)", k))
		flip(off, fmt.Sprintf("record %d length word (high byte)", k))
		flip(off+size-1, fmt.Sprintf("record %d trailer", k))
		flip(off+4+hl-1, fmt.Sprintf("record %d value set count", k))
		if k > 0 {
			flip(off+4+2, fmt.Sprintf("record %d timestamp", k))
		}
		// the first value set
		set := off + 4 + hl
		if set+12 <= off+size-4 {
			flip(set+2, fmt.Sprintf("record %d first value set's PMID", k))
			flip(set+4, fmt.Sprintf("record %d first value set's value count (high byte)", k))
			flip(set+7, fmt.Sprintf("record %d first value set's value count (low byte)", k))
			if int32(be.Uint32(vol[set+4:])) > 0 {
				flip(set+11, fmt.Sprintf("record %d first value set's value format", k))
			}
		}
	}
	return out
}

// metaCases truncates the metadata and changes its records.
func metaCases(s *source, tag string) []Case {
	meta := s.plain[".meta"]
	ls := labelSize(s.version)
	recs := s.records(meta)
	var out []Case
	cut := func(n int, why string) { out = append(out, s.truncated(tag, ".meta", n, why)) }
	flip := func(off int, why string) { out = append(out, s.flipped(tag, ".meta", off, why)) }
	cut(ls-1, "inside the label")
	cut(ls, "just after the label")
	cut(ls+6, "inside the first record's header")
	mid := recs[len(recs)/2]
	cut(mid+int(be.Uint32(meta[mid:]))/2, "inside a record")
	cut(len(meta)-1, "the last byte")
	out = append(out, labelFlips(s, tag, ".meta")[1:4]...)
	seen := map[uint32]bool{}
	for _, off := range recs {
		typ := be.Uint32(meta[off+4:])
		if seen[typ] {
			continue
		}
		seen[typ] = true
		size := int(be.Uint32(meta[off:]))
		flip(off+3, fmt.Sprintf("length of the first metadata record of type %d", typ))
		flip(off+7, fmt.Sprintf("type of the first metadata record of type %d", typ))
		flip(off+size-1, fmt.Sprintf("trailer of the first metadata record of type %d", typ))
		switch typ {
		case 1: // descriptor: pmid, type, indom, sem, units, then names
			flip(off+8+7, "descriptor type")
			flip(off+8+11, "descriptor instance domain")
			flip(off+8+15, "descriptor semantics")
			flip(off+8+23, "descriptor name count")
			flip(off+8+27, "descriptor name length")
		case 2, 5, 6: // instance domain: time, indom, count, ids, name offsets
			at := off + 8 + 12
			if typ != 2 {
				at = off + 8 + 16
			}
			flip(at+3, "instance domain count")
			n := int(be.Uint32(meta[at:]))
			if n > 0 {
				flip(at+4+4*n+3, "first instance name offset")
				flip(at+4+1, "first instance identifier")
			}
		case 3, 7: // labels
			flip(off+size-9, "label set contents")
		case 4: // help text
			flip(off+8+3, "help text kind")
		}
	}
	return out
}

// indexCases truncates the temporal index and changes its entries.
func indexCases(s *source, tag string) []Case {
	idx := s.plain[".index"]
	ls := labelSize(s.version)
	size, volAt, metaAt, dataAt := 20, 8, 12, 16
	if s.version == 3 {
		size, volAt, metaAt, dataAt = 32, 12, 16, 24
	}
	var out []Case
	cut := func(n int, why string) { out = append(out, s.truncated(tag, ".index", n, why)) }
	flip := func(off int, why string) { out = append(out, s.flipped(tag, ".index", off, why)) }
	cut(ls-1, "inside the label")
	cut(ls, "no entries")
	cut(ls+size/2, "a partial entry")
	cut(len(idx)-3, "the last entry partial")
	out = append(out, labelFlips(s, tag, ".index")[1:4]...)
	n := (len(idx) - ls) / size
	for _, k := range []int{0, n - 1} {
		e := ls + k*size
		last := 3 // the low byte of a 32-bit offset
		if s.version == 3 {
			last = 7 // of a 64-bit one
		}
		flip(e+2, fmt.Sprintf("index entry %d time", k))
		flip(e+volAt+3, fmt.Sprintf("index entry %d volume", k))
		flip(e+metaAt+last, fmt.Sprintf("index entry %d metadata offset", k))
		flip(e+dataAt+last, fmt.Sprintf("index entry %d data offset (low byte)", k))
		flip(e+dataAt+last-1, fmt.Sprintf("index entry %d data offset", k))
	}
	return out
}

// valueBlocks damages the value blocks (strings, 64-bit and floating
// point values) and the records that hold them.
func valueBlocks(s *source, tag string) []Case {
	vol := s.plain[".0"]
	recs := s.records(vol)
	hl := 12
	if s.version == 3 {
		hl = 16
	}
	var out []Case
	flip := func(off int, why string) { out = append(out, s.flipped(tag, ".0", off, why)) }
	found := 0
	for k, off := range recs {
		nsets := int(be.Uint32(vol[off+hl:]))
		at := off + 4 + hl
		for i := 0; i < nsets && found < 3; i++ {
			numval := int(int32(be.Uint32(vol[at+4:])))
			if numval <= 0 {
				at += 8
				continue
			}
			valfmt := be.Uint32(vol[at+8:])
			if valfmt != 0 {
				lval := int(be.Uint32(vol[at+12+4:]))
				blk := off + 4 + lval*4 - 12
				flip(at+12+4+3, fmt.Sprintf("record %d: value block pointer", k))
				flip(at+12+4, fmt.Sprintf("record %d: value block pointer (high byte)", k))
				flip(blk+1, fmt.Sprintf("record %d: value block length", k))
				flip(blk+3, fmt.Sprintf("record %d: value block length (low byte)", k))
				flip(blk, fmt.Sprintf("record %d: value block type", k))
				found++
			}
			at += 12 + 8*numval
		}
		if found >= 3 {
			break
		}
	}
	rng := rand.New(rand.NewSource(int64(len(vol))))
	ls := labelSize(s.version)
	for range 6 {
		off := ls + rng.Intn(len(vol)-ls)
		flip(off, "a byte chosen at random")
	}
	return out
}

// compressed damages xz-compressed files: the compressed bytes
// themselves, and the data inside.
func compressed(s *source, tag string) []Case {
	var out []Case
	for _, suf := range []string{".0.xz", ".meta.xz"} {
		z := s.files[suf]
		if z == nil {
			continue
		}
		base := strings.TrimSuffix(suf, ".xz")
		raw := func(name, why string, d []byte) {
			out = append(out, s.with(fmt.Sprintf("%s-%s%s", tag, name, suf), suf+": "+why, suf, d))
		}
		for _, n := range []int{0, 6, 20, len(z) / 2, len(z) - 13, len(z) - 12, len(z) - 1} {
			raw(fmt.Sprintf("zcut-%d", n), fmt.Sprintf("compressed file cut at %d bytes (of %d)", n, len(z)), z[:n])
		}
		for _, at := range []struct {
			off int
			why string
		}{
			{2, "stream header magic"}, {7, "stream flags"}, {len(z) / 2, "compressed data"},
			{len(z) - 20, "block index"}, {len(z) - 9, "footer backward size"}, {len(z) - 1, "footer magic"},
		} {
			d := bytes.Clone(z)
			d[at.off] ^= 0xff
			raw(fmt.Sprintf("zflip-%d", at.off), fmt.Sprintf("compressed byte %d inverted: %s", at.off, at.why), d)
		}
		d := s.plain[base]
		recs := s.records(d)
		k := recs[len(recs)/2]
		out = append(out,
			s.truncated(tag, base, k+int(be.Uint32(d[k:]))/2, "inside a record, compressed again"),
			s.truncated(tag, base, labelSize(s.version)+6, "just after the label, compressed again"),
			s.flipped(tag, base, k+3, "a record's length word, compressed again"))
	}
	return out
}

// volumes damages the later volumes of an archive of several.
func volumes(s *source, tag string) []Case {
	ls := labelSize(s.version)
	v1, v2 := s.plain[".1"], s.plain[".2"]
	r2 := s.records(v2)
	return []Case{
		s.with(tag+"-no.1", "volume 1 removed", ".1", nil),
		s.with(tag+"-no.0", "volume 0 removed", ".0", nil),
		s.truncated(tag, ".1", ls, "volume 1 cut after its label"),
		s.truncated(tag, ".1", ls+10, "volume 1 cut inside its first record"),
		s.truncated(tag, ".2", r2[len(r2)-1]+6, "the last volume cut inside its last record"),
		s.truncated(tag, ".2", 0, "the last volume empty"),
		s.flipped(tag, ".1", 4+16+3, "volume 1's label volume number"),
		s.flipped(tag, ".2", 7, "the last volume's label format version"),
		s.flipped(tag, ".1", ls+3, "volume 1's first record length"),
		s.flipped(tag, ".2", len(v2)-1, "the last volume's last trailer"),
		s.flipped(tag, ".1", len(v1)-1, "volume 1's last trailer"),
	}
}
