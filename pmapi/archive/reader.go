package archive

import (
	"github.com/gopcp/pmie/pmapi"
)

// Record is one record of a data volume: a <mark> (a gap in logging) or
// the values of one fetch by pmlogger.
type Record struct {
	Time pmapi.Time
	Mark bool
	// Sets holds one value set per metric in the record, in archive
	// order. A set whose Err is not nil holds the error pmlogger got for
	// that metric instead of values.
	Sets []pmapi.ValueSet
	// Volume and Offset say where the record is: the data volume number
	// and the byte offset of the record in it.
	Volume int
	Offset int64
}

// Reader reads the records of an archive in order, across its volumes.
// The Record it returns, and the value sets and values in it, are reused
// by the next call to Next; strings and other variable-length values
// stay valid (they are copies, shared between equal values).
type Reader struct {
	a    *Archive
	vi   int   // index into a.volNums
	off  int64 // offset of the next record in that volume; 0 before it is opened
	rec  Record
	vals []pmapi.Value
	buf  []byte // the record being decoded
	strs interner
	err  error
}

// Records returns a Reader positioned at the archive's first record.
func (a *Archive) Records() *Reader {
	return &Reader{a: a}
}

// Next moves to the next record, reporting false at the end of the
// archive or on error (see Err). Volumes that cannot be opened, other
// than the first, are passed over as libpcp passes over them (see
// Options.Warn).
func (r *Reader) Next() bool {
	if r.err != nil {
		return false
	}
	for r.vi < len(r.a.volNums) {
		v := r.a.vols[r.a.volNums[r.vi]]
		if r.off == 0 {
			if r.vi > 0 && !r.a.usable(v) {
				r.vi++
				continue
			}
			if err := v.open(); err != nil {
				r.err = err
				return false
			}
			r.off = v.first()
		}
		h, p, atEnd, err := v.readAt(r.off, &r.buf)
		if err == nil && !atEnd {
			if err = v.checkRecord(&h, p); err == nil {
				v.noteRecord(&h, p)
				err = r.decode(v, &h, p)
			}
		}
		if err != nil {
			r.err = err
			return false
		}
		if !atEnd {
			r.off = h.end()
			return true
		}
		r.vi++
		r.off = 0
	}
	return false
}

// Record is the current record.
func (r *Reader) Record() *Record { return &r.rec }

// Err is the error that stopped Next, or nil at the end of the archive.
func (r *Reader) Err() error { return r.err }

// decode fills r.rec from record h of volume v, whose payload is p
// (checked).
func (r *Reader) decode(v *volume, h *recHead, p []byte) error {
	rec := &r.rec
	rec.Time, rec.Mark = h.time, h.nsets == 0
	rec.Volume, rec.Offset = v.num, h.off
	var err error
	rec.Sets, r.vals, err = decodeSets(v, h, p, r.a.meta.descs, &r.strs, rec.Sets[:0], r.vals[:0])
	return err
}

// decodeSets appends the value sets of record h of v, whose payload is
// p (checked), to sets and their values to vals, decoding the values as
// the types descs give, and returns both. The sets' values are slices of
// the vals returned.
func decodeSets(v *volume, h *recHead, p []byte, descs map[pmapi.PMID]pmapi.Desc, strs *interner,
	sets []pmapi.ValueSet, vals []pmapi.Value) ([]pmapi.ValueSet, []pmapi.Value, error) {
	first, base := len(sets), len(vals)
	b := p[recHeaderLen(v.f.label.Version):]
	for k := int32(0); k < h.nsets; k++ {
		var s rawSet
		s, b = nextSet(b)
		set := pmapi.ValueSet{PMID: s.pmid}
		if s.numval < 0 {
			set.Err = pmapi.Errno(s.numval)
		}
		t := pmapi.TypeUnknown
		if d, ok := descs[s.pmid]; ok {
			t = d.Type
		}
		start := len(vals)
		var ok bool
		if vals, ok = appendValues(vals, t, &s, p, strs); !ok {
			return sets, vals, v.f.errorf(h.off, pmapi.ErrLogRec, "a value of %s is too short for type %s", s.pmid, t)
		}
		set.Values = vals[start:len(vals):len(vals)]
		sets = append(sets, set)
	}
	// vals may have moved while growing: point the sets at its final
	// storage.
	n := base
	for k := first; k < len(sets); k++ {
		l := len(sets[k].Values)
		sets[k].Values = vals[n : n+l : n+l]
		n += l
	}
	return sets, vals, nil
}
