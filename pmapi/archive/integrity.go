package archive

import (
	"os"
	"slices"

	"github.com/gopcp/pmie/pmapi"
)

// Damage that libpcp reads past without a word: a temporal index that
// names volumes that are missing or offsets beyond the end of a file, a
// partial entry or record at the end of a file, labels that disagree
// about when the archive starts, records out of time order, value sets
// of metrics the metadata does not describe. Reading goes on exactly as
// libpcp's does (so that tools give the same answers), but nothing is
// passed over silently: each is reported once to Options.Warn as a
// *FormatError naming the file, the part of the archive and the offset.

// damaged reports err, damage passed over, to the archive's Warn
// function, once for each distinct message.
func (a *Archive) damaged(err *FormatError) {
	if a.warn == nil {
		return
	}
	msg := err.Error()
	if a.warned[msg] {
		return
	}
	if a.warned == nil {
		a.warned = make(map[string]bool)
	}
	a.warned[msg] = true
	a.warn(err)
}

// checkIndex checks the temporal index against the archive's files, as
// far as that can be done without reading the data volumes: the files'
// lengths come from the file system (or the indexes of .xz files).
func (a *Archive) checkIndex(f *file, data []byte) {
	size := 20
	if f.label.Version == 3 {
		size = 32
	}
	ls := labelSize(f.label.Version)
	a.checkLabel(f)
	if extra := (len(data) - ls) % size; extra != 0 {
		a.damaged(f.errorf(int64(len(data)-extra), pmapi.ErrLogRec, "a partial entry of %d bytes at the end (ignored)", extra))
	}
	if f.label.Start != a.label.Start {
		a.damaged(f.errorf(12, pmapi.ErrLabel, "label start time %v is not the first volume's %v", f.label.Start, a.label.Start))
	}
	lengths := map[int]int64{}
	for i, e := range a.index {
		at := int64(ls + i*size)
		if e.Time < a.label.Start {
			a.damaged(f.errorf(at, pmapi.ErrLogRec, "entry %d (time %v) is before the archive's start %v", i, e.Time, a.label.Start))
		}
		if _, ok := slices.BinarySearch(a.meta.bounds, e.MetaOffset); !ok && len(a.meta.bounds) > 0 {
			a.damaged(f.errorf(at, pmapi.ErrLogRec, "entry %d: metadata offset %d is not where a metadata record starts or ends", i, e.MetaOffset))
		}
		if i > 0 {
			if p := a.index[i-1]; e.Time < p.Time || e.Volume < p.Volume {
				a.damaged(f.errorf(at, pmapi.ErrLogRec, "entry %d (volume %d, time %v) is before the entry above it", i, e.Volume, e.Time))
			}
		}
		v := a.vols[e.Volume]
		if v == nil {
			a.damaged(f.errorf(at, pmapi.ErrLogRec, "entry %d names volume %d, which has no file", i, e.Volume))
			continue
		}
		n, ok := lengths[e.Volume]
		if !ok {
			n = fileLength(v.path)
			lengths[e.Volume] = n
		}
		if e.DataOffset < int64(ls) || (n >= 0 && e.DataOffset > n) {
			a.damaged(f.errorf(at, pmapi.ErrLogRec, "entry %d: offset %d is outside volume %d (%d bytes)", i, e.DataOffset, e.Volume, n))
		}
	}
}

// fileLength is the length of the data of the archive file at path, if
// it can be found without decompressing anything, else -1.
func fileLength(path string) int64 {
	name, decomp := compressor(path)
	switch {
	case decomp == nil:
		st, err := os.Stat(path)
		if err != nil {
			return -1
		}
		return st.Size()
	case name == "xz":
		n, err := xzFileLength(path)
		if err != nil {
			return -1
		}
		return n
	}
	return -1
}

// checkLabel reports a label whose start time is beyond what a
// pmapi.Time holds (libpcp takes it as it is; here it wraps).
func (a *Archive) checkLabel(f *file) {
	if f.label.wild {
		a.damaged(f.errorf(12, pmapi.ErrLabel, "label start time beyond the years a timestamp can hold"))
	}
}

// checkMetaLabel checks that the metadata's label agrees with the first
// volume's about when the archive starts.
func (a *Archive) checkMetaLabel(f *file) {
	a.checkLabel(f)
	if f.label.Start != a.label.Start {
		a.damaged(f.errorf(12, pmapi.ErrLabel, "label start time %v is not the first volume's %v", f.label.Start, a.label.Start))
	}
}

// noteRecord looks for damage in record h of v (payload p, checked) that
// libpcp reads past: value sets of metrics the metadata does not
// describe, and a record earlier than the one before it. (A value stored
// otherwise than its descriptor says is not damage: libpcp prints it in
// a form of its own, as pmapi.Mismatch does.)
func (v *volume) noteRecord(h *recHead, p []byte) {
	a := v.a
	if a.warn == nil {
		return
	}
	if !h.fits {
		a.damaged(v.f.errorf(h.off+4, pmapi.ErrLogRec, "record time beyond the years a timestamp can hold"))
	}
	if h.off == v.lastEnd && h.time < v.lastTime {
		a.damaged(v.f.errorf(h.off, pmapi.ErrLogRec, "record time %v is before the time %v of the record before it", h.time, v.lastTime))
	}
	v.lastEnd, v.lastTime = h.end(), h.time
	if a.meta == nil {
		return
	}
	// The metadata only grows, and records mostly hold the sets of the
	// record before them: a set where the last record whose every set
	// was described had one of the same metric needs no look-up.
	b := p[recHeaderLen(v.f.label.Version):]
	same, all := int(h.nsets) == len(v.described), true
	for k := range int(h.nsets) {
		at := h.off + 4 + int64(len(p)-len(b))
		var s rawSet
		s, b = nextSet(b)
		if k < len(v.described) && v.described[k] == s.pmid {
			continue
		}
		same = false
		if _, ok := a.meta.descs[s.pmid]; !ok {
			all = false
			a.damaged(v.f.errorf(at, pmapi.ErrLogRec, "a value set of %s, which the metadata does not describe (ignored)", s.pmid))
		}
	}
	if all && !same {
		v.described = v.described[:0]
		b = p[recHeaderLen(v.f.label.Version):]
		for range h.nsets {
			var s rawSet
			s, b = nextSet(b)
			v.described = append(v.described, s.pmid)
		}
	}
}
