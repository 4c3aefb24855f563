package archive

import (
	"github.com/gopcp/pmie/pmapi"
)

// recInfo locates one record of a data volume.
type recInfo struct {
	off     int64      // offset of the record's leading length word
	size    int32      // record length, framing included
	nsets   int32      // number of value sets; 0 for a <mark>
	time    pmapi.Time // the record's timestamp
	checked bool       // the value sets have been checked once
}

// volume is a data volume with the framing of its records worked out.
type volume struct {
	f    *file
	recs []recInfo
	// bad, if not nil, is why the record after the last good one cannot
	// be read: reading on from there gives this error.
	bad *FormatError
}

// recHeaderLen is the length of a record's timestamp and value set
// count, which follow its length word.
func recHeaderLen(version int) int {
	if version == 3 {
		return 16
	}
	return 12
}

// scanVolume works out the framing of every record of f.
func scanVolume(f *file) *volume {
	v := &volume{f: f}
	d := f.data
	version := f.label.Version
	hlen := recHeaderLen(version)
	off := labelSize(version)
	for off < len(d) {
		if len(d)-off < 4 {
			// A partial length word at the end: libpcp treats it as the
			// end of the volume.
			break
		}
		size := int(be.Uint32(d[off:]))
		if size < 8+hlen {
			v.bad = f.errorf(int64(off), pmapi.ErrLogRec, "bad record length %d", size)
			break
		}
		if size > len(d)-off {
			v.bad = f.errorf(int64(off), pmapi.ErrLogRec, "truncated record: length %d, only %d bytes left", size, len(d)-off)
			break
		}
		if trail := int(be.Uint32(d[off+size-4:])); trail != size {
			v.bad = f.errorf(int64(off+size-4), pmapi.ErrLogRec, "record trailer length %d does not match header %d", trail, size)
			break
		}
		r := recInfo{off: int64(off), size: int32(size)}
		p := d[off+4:]
		if version == 3 {
			r.time = stamp3(p)
			r.nsets = int32(be.Uint32(p[12:]))
		} else {
			r.time = stamp2(p)
			r.nsets = int32(be.Uint32(p[8:]))
		}
		if r.nsets < 0 || int(r.nsets) > (size-8-hlen)/8 {
			v.bad = f.errorf(int64(off+4+hlen-4), pmapi.ErrLogRec, "bad value set count %d", r.nsets)
			break
		}
		if r.nsets == 0 && size != 8+hlen {
			v.bad = f.errorf(int64(off), pmapi.ErrLogRec, "<mark> record of length %d, want %d", size, 8+hlen)
			break
		}
		v.recs = append(v.recs, r)
		off += size
	}
	return v
}

// payload is the bytes of record i between its length words.
func (v *volume) payload(i int) []byte {
	r := v.recs[i]
	return v.f.data[r.off+4 : r.off+int64(r.size)-4]
}
