package archive

import (
	"errors"
	"io"

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
// Its records are read from the file when needed (see load), through
// its archive's open sources.
type volume struct {
	f    *file
	a    *Archive // whose open sources src counts among; nil for none
	src  source   // nil while closed
	size int64    // uncompressed length
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

// sparseMin is the record length from which scanning a plain file
// reads just the framing of each record rather than all of it.
const sparseMin = 8 << 10

// scanVolume works out the framing of every record of the volume f,
// reading it from src. It fails only if src cannot be read to its end.
func scanVolume(f *file, src source) (*volume, error) {
	v := &volume{f: f, src: src}
	hl := 4 + recHeaderLen(f.label.Version)
	off := int64(labelSize(f.label.Version))
	// A record's trailer, then the next record's length word and header,
	// read together (in one array, as it escapes to the heap).
	var buf [4 + 4 + 16]byte
	n, err := src.readAt(buf[4:4+hl], off)
	for {
		if err != nil && err != io.EOF {
			return nil, v.readError(err)
		}
		if n < 4 {
			// A partial length word at the end: libpcp treats it as the
			// end of the volume.
			break
		}
		r := v.header(off, buf[4:4+hl])
		size := int64(uint32(r.size))
		if size < int64(hl+4) {
			v.bad = f.errorf(off, pmapi.ErrLogRec, "bad record length %d", size)
			break
		}
		read := src.readAt
		if fs, ok := src.(*fileSource); ok && size >= sparseMin {
			read = fs.readDirect
		}
		if n, err = read(buf[:4+hl], off+size-4); n < 4 {
			if err != io.EOF {
				return nil, v.readError(err)
			}
			end, err := src.size()
			if err != nil {
				return nil, v.readError(err)
			}
			v.bad = f.errorf(off, pmapi.ErrLogRec, "truncated record: length %d, only %d bytes left", size, end-off)
			break
		}
		if v.bad = v.checkFrame(r, int64(be.Uint32(buf[:]))); v.bad != nil {
			break
		}
		v.recs = append(v.recs, r)
		off += size
		n -= 4
	}
	// Read to the end, so that damage anywhere in a compressed file is
	// found now.
	if v.size, err = src.size(); err != nil {
		return nil, v.readError(err)
	}
	return v, nil
}

// header decodes the length word and header of the record at off.
func (v *volume) header(off int64, b []byte) recInfo {
	r := recInfo{off: off, size: int32(be.Uint32(b))}
	if v.f.label.Version == 3 {
		r.time = stamp3(b[4:])
		r.nsets = int32(be.Uint32(b[16:]))
	} else {
		r.time = stamp2(b[4:])
		r.nsets = int32(be.Uint32(b[12:]))
	}
	return r
}

// checkFrame checks the trailer and value set count of record r, whose
// length word has been checked.
func (v *volume) checkFrame(r recInfo, trail int64) *FormatError {
	hlen := int64(recHeaderLen(v.f.label.Version))
	size := int64(r.size)
	switch {
	case trail != size:
		return v.f.errorf(r.off+size-4, pmapi.ErrLogRec, "record trailer length %d does not match header %d", trail, size)
	case r.nsets < 0 || int64(r.nsets) > (size-8-hlen)/8:
		return v.f.errorf(r.off+hlen, pmapi.ErrLogRec, "bad value set count %d", r.nsets)
	case r.nsets == 0 && size != 8+hlen:
		return v.f.errorf(r.off, pmapi.ErrLogRec, "<mark> record of length %d, want %d", size, 8+hlen)
	}
	return nil
}

// readError is the error for data of v that cannot be read (or
// decompressed).
func (v *volume) readError(err error) error {
	if name, decomp := compressor(v.f.path); decomp != nil {
		return v.f.errorf(0, pmapi.ErrLogFile, "cannot decompress (%s): %v", name, err)
	}
	var fe *FormatError
	if errors.As(err, &fe) {
		return fe
	}
	return v.f.errorf(0, pmapi.ErrLogFile, "cannot read: %v", err)
}

// load reads the payload of record i, the bytes between its length
// words, into *buf (grown as needed) and returns it. The payload is
// valid until the next load into the same buffer.
func (v *volume) load(i int, buf *[]byte) ([]byte, error) {
	r := &v.recs[i]
	n := int(r.size) - 8
	if cap(*buf) < n {
		*buf = make([]byte, n, n+n/4)
	}
	p := (*buf)[:n]
	src, err := v.source()
	if err != nil {
		return nil, err
	}
	if k, err := src.readAt(p, r.off+4); k < n {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, v.f.errorf(r.off, pmapi.ErrLogRec, "cannot read record: %v", err)
	}
	return p, nil
}

// source returns v's open source, opening it if need be.
func (v *volume) source() (source, error) {
	if v.src != nil {
		if v.a != nil {
			v.a.used(v)
		}
		return v.src, nil
	}
	f, src, err := openSource(v.f.path, v.f.vol)
	if err != nil {
		return nil, err
	}
	if f.label != v.f.label {
		src.close()
		return nil, v.f.errorf(0, pmapi.ErrLabel, "the label changed since the volume was opened")
	}
	v.src = src
	if v.a != nil {
		v.a.used(v)
	}
	return src, nil
}

// close closes v's source, if open.
func (v *volume) close() {
	if v.src != nil {
		v.src.close()
		v.src = nil
	}
}
