package archive

import (
	"github.com/gopcp/pmie/pmapi"
)

// End is the time of the archive's last record, found as
// pmGetArchiveEnd finds it: working back from the last data volume, the
// record that ends at the end of the volume's file if it reads cleanly,
// else the last of the records that read cleanly going forwards from
// the last temporal index entry within the file (a growing or damaged
// volume), else the same in the volume before. Nothing else is read, so
// finding the end costs the same however long the archive is.
//
// If no volume has a record that reads cleanly, the error (PM_ERR_LOGREC,
// as libpcp gives) says where the last volume tried goes wrong.
func (a *Archive) End() (pmapi.Time, error) {
	if a.hasEnd {
		return a.end, nil
	}
	var first error
	var buf []byte
	for i := len(a.volNums) - 1; i >= 0; i-- {
		v := a.vols[a.volNums[i]]
		if !a.usable(v) {
			continue
		}
		t, found, stop, err := a.volumeEnd(v, &buf)
		if found {
			a.end, a.hasEnd = t, true
			return t, nil
		}
		if first == nil {
			first = err
		}
		if stop {
			break
		}
	}
	if first == nil {
		first = &FormatError{Path: a.base, Volume: a.volNums[len(a.volNums)-1], Code: pmapi.ErrLogRec, Msg: "no data volume has a record"}
	}
	return 0, first
}

// volumeEnd finds the time of the last record of v that reads cleanly,
// as End describes; if there is none, err says why, and stop says not
// to look in earlier volumes (libpcp gives up when the record before the
// index entry it goes forwards from is damaged).
func (a *Archive) volumeEnd(v *volume, buf *[]byte) (t pmapi.Time, found, stop bool, err error) {
	size, err := v.length()
	if err != nil {
		return 0, false, false, err
	}
	if size <= v.first() {
		return 0, false, false, v.f.errorf(size, pmapi.ErrLogRec, "no records after the label")
	}
	h, p, _, err := v.readBefore(size, buf)
	if err == nil {
		err = v.paranoid(&h, p)
	}
	if err == nil {
		return h.time, true, false, nil
	}
	// A damaged or growing volume: go forwards from the last index entry
	// within the file.
	from := int64(-1)
	for i := len(a.index) - 1; i >= 0; i-- {
		if e := a.index[i]; e.Volume == v.num && e.DataOffset <= size {
			from = e.DataOffset
			break
		}
	}
	if from < 0 {
		return 0, false, false, err
	}
	if from > v.first() {
		// The index entry may mark the end of a record: start at the
		// record that ends there.
		h, p, _, err := v.readBefore(from, buf)
		if err == nil {
			err = v.paranoid(&h, p)
		}
		if err != nil {
			return 0, false, true, err
		}
		from = h.off
	}
	for {
		h, p, atEnd, rerr := v.readAt(from, buf)
		switch {
		case atEnd:
			return t, found, false, err
		case rerr == nil:
			rerr = v.paranoid(&h, p)
		}
		if rerr != nil {
			return t, found, false, rerr
		}
		t, found = h.time, true
		from = h.end()
	}
}

// paranoid checks record h, with payload p, as libpcp checks the records
// it considers for the end of an archive: its value sets and value
// blocks as reading checks them (checkRecord), and also that the value
// sets and the value blocks they point to, added up in turn, fit in the
// record.
func (v *volume) paranoid(h *recHead, p []byte) error {
	if err := v.checkRecord(h, p); err != nil {
		return err
	}
	size := int64(uint32(h.size))
	used := int64(8 + recHeaderLen(v.f.label.Version)) // framing and header
	b := p[recHeaderLen(v.f.label.Version):]
	for k := int32(0); k < h.nsets; k++ {
		used += 8
		if used > size {
			return v.f.errorf(h.off, pmapi.ErrLogRec, "value set %d of %d does not fit in the record", k+1, h.nsets)
		}
		var s rawSet
		s, b = nextSet(b)
		if s.numval <= 0 {
			continue
		}
		used += 4 + 8*int64(s.numval)
		if s.valfmt == valInsitu {
			continue
		}
		for i := range int(s.numval) {
			_, n := blockSpan(p, s.lval(i))
			used += (n + 3) &^ 3
		}
	}
	return nil
}
