package archive

import (
	"errors"
	"io"
	"slices"

	"github.com/gopcp/pmie/pmapi"
)

// volume is one data volume of an archive. Nothing of it is read until
// a record is wanted: opening it checks its label, as libpcp does when
// it changes to a volume, and records are then read where the reading
// position is, by byte offset, forwards or backwards, as __pmLogRead
// reads them. Nothing is kept of the records read: there is no
// framing to work out first, and memory does not grow with the volume.
type volume struct {
	a    *Archive
	num  int
	path string
	f    *file // the file and its label, once opened
	// err, if not nil, is why the volume cannot be opened; it is found
	// once.
	err  error
	src  source // nil while closed
	size int64  // uncompressed length, once known; -1 before
	// lastEnd and lastTime are where the record last checked ends, and
	// its time (see noteRecord).
	lastEnd  int64
	lastTime pmapi.Time
	// described is the metrics of the value sets, in order, of the last
	// record whose every set the metadata describes (see noteRecord).
	described []pmapi.PMID
	// shape is that of a sound record, for checkRecord.
	shape recShape
}

// recHead is where a record is and what its header says.
type recHead struct {
	off   int64      // offset of the record's leading length word
	size  int32      // record length, framing included
	nsets int32      // number of value sets; 0 for a <mark>
	time  pmapi.Time // the record's timestamp
	fits  bool       // a pmapi.Time holds it (see stamp3Fits)
	// gen, if not 0, says that the payload read is a view of the
	// volume's window of that generation, not a copy (see
	// fileSource.view): it holds the record until the window moves.
	gen uint64
}

// end is the offset just after the record.
func (h *recHead) end() int64 { return h.off + int64(uint32(h.size)) }

// recHeaderLen is the length of a record's timestamp and value set
// count, which follow its length word.
func recHeaderLen(version int) int {
	if version == 3 {
		return 16
	}
	return 12
}

// open opens the volume's file and checks its label, if that has not
// been done, returning why the volume cannot be read if it cannot.
func (v *volume) open() error {
	if v.f != nil || v.err != nil {
		return v.err
	}
	f, src, err := openSource(v.path, v.num, v.a.anyFeatures)
	if err == nil && v.a.label.Version != 0 && f.label.Version != v.a.label.Version {
		src.close()
		err = f.errorf(4, pmapi.ErrLabel, "log format %d, but the archive is format %d", f.label.Version, v.a.label.Version)
	}
	if err != nil {
		v.err = err
		return err
	}
	v.f, v.src = f, src
	v.size = -1
	v.a.used(v)
	v.a.checkLabel(f)
	return nil
}

// source returns v's open source, opening it again if it was closed.
func (v *volume) source() (source, error) {
	if err := v.open(); err != nil {
		return nil, err
	}
	if v.src != nil {
		v.a.used(v)
		return v.src, nil
	}
	f, src, err := openSource(v.f.path, v.f.vol, v.a.anyFeatures)
	if err != nil {
		return nil, err
	}
	if f.label != v.f.label {
		src.close()
		return nil, v.f.errorf(0, pmapi.ErrLabel, "the label changed since the volume was opened")
	}
	v.src = src
	v.a.used(v)
	return src, nil
}

// length is the length of the volume's (uncompressed) data.
func (v *volume) length() (int64, error) {
	if v.size >= 0 {
		return v.size, nil
	}
	src, err := v.source()
	if err != nil {
		return 0, err
	}
	n, err := src.size()
	if err != nil {
		return 0, v.readError(0, err)
	}
	v.size = n
	return n, nil
}

// close closes v's source, if open.
func (v *volume) close() {
	if v.src != nil {
		v.src.close()
		v.src = nil
	}
}

// first is the offset of the volume's first record.
func (v *volume) first() int64 { return int64(labelSize(v.a.label.Version)) }

// readAt reads the record at off into *buf (grown as needed), as
// __pmLogRead does reading forwards: its header, and its payload (the
// bytes between its length words), valid until the next read into buf.
// At the end of the volume (fewer than 4 bytes at off) it reports
// atEnd. The record's framing is checked; its value sets are not (see
// checkRecord).
func (v *volume) readAt(off int64, buf *[]byte) (h recHead, p []byte, atEnd bool, err error) {
	src, err := v.source()
	if err != nil {
		return h, nil, false, err
	}
	var word [4]byte
	if n, err := src.readAt(word[:], off); n < 4 {
		if err == io.EOF {
			// libpcp takes a partial length word for the end of the volume
			if n > 0 {
				v.a.damaged(v.f.errorf(off, pmapi.ErrLogRec, "%d stray bytes at the end (ignored)", n))
			}
			return h, nil, true, nil
		}
		return h, nil, false, v.readError(off, err)
	}
	size := int64(be.Uint32(word[:]))
	h.off = off
	if size < 8 {
		return h, nil, false, v.f.errorf(off, pmapi.ErrLogRec, "bad record length %d", size)
	}
	p, gen, err := v.readRest(src, off, size, buf)
	if err != nil {
		return h, nil, false, err
	}
	h, p, atEnd, err = v.head(off, size, p)
	h.gen = gen
	return h, p, atEnd, err
}

// readBefore reads the record that ends at off, as __pmLogRead does
// reading backwards, into *buf, reporting atStart if off is at the start
// of the volume's records.
func (v *volume) readBefore(off int64, buf *[]byte) (h recHead, p []byte, atStart bool, err error) {
	if off <= v.first() {
		return h, nil, true, nil
	}
	src, err := v.source()
	if err != nil {
		return h, nil, false, err
	}
	var word [4]byte
	if n, err := src.readAt(word[:], off-4); n < 4 {
		if err == io.EOF {
			// Past the end of the file (from a damaged temporal
			// index): libpcp finds nothing to read there.
			return h, nil, false, pmapi.ErrEOL
		}
		return h, nil, false, v.readError(off-4, err)
	}
	size := int64(be.Uint32(word[:]))
	start := off - size
	h.off = off - 4
	switch {
	case size < 8 || size-8 > off:
		return h, nil, false, v.f.errorf(off-4, pmapi.ErrLogRec, "bad record length %d in the trailer before offset %d", size, off)
	case start < 0:
		return h, nil, false, v.f.errorf(off-4, pmapi.ErrLogRec, "record of length %d ending at offset %d starts before the volume", size, off)
	}
	if n, err := src.readAt(word[:], start); n < 4 {
		return h, nil, false, v.readError(start, err)
	}
	if head := int64(be.Uint32(word[:])); head != size {
		return h, nil, false, v.f.errorf(start, pmapi.ErrLogRec, "record header length %d does not match trailer %d", head, size)
	}
	p, gen, err := v.readRest(src, start, size, buf)
	if err != nil {
		return h, nil, false, err
	}
	h, p, atStart, err = v.head(start, size, p)
	h.gen = gen
	return h, p, atStart, err
}

// readRest reads the payload and trailer of the record of length size
// at off, whose leading length word has been read, and checks the
// trailer. It returns the payload: a view of a plain file's window where
// the record fits in it (gen is then the window's generation), else a
// copy in *buf (gen 0).
func (v *volume) readRest(src source, off, size int64, buf *[]byte) (p []byte, gen uint64, err error) {
	n := int(size - 4)
	if end := src.known(); end >= 0 && off+size > end {
		return nil, 0, v.f.errorf(off, pmapi.ErrLogRec, "truncated record: length %d, only %d bytes left", size, max(end-off, 0))
	}
	var b []byte
	if fs, ok := src.(*fileSource); ok {
		b, gen, ok = fs.view(off+4, n)
	}
	switch {
	case gen != 0:
	case n > growLimit && src.known() < 0:
		b, err := v.readLarge(src, off, size, buf)
		return b, 0, err
	default:
		if cap(*buf) < n {
			*buf = make([]byte, n, n+n/4)
		}
		b = (*buf)[:n]
		if k, err := src.readAt(b, off+4); k < n {
			if err != io.EOF {
				return nil, 0, v.readError(off+4, err)
			}
			return nil, 0, v.f.errorf(off, pmapi.ErrLogRec, "truncated record: length %d, only %d bytes left", size, 4+int64(k))
		}
	}
	if trail := int64(be.Uint32(b[n-4:])); trail != size {
		return nil, 0, v.f.errorf(off+size-4, pmapi.ErrLogRec, "record trailer length %d does not match header %d", trail, size)
	}
	return b[:n-4], gen, nil
}

// holds reports whether the window of generation gen still holds what
// was read from it: whether v's window is still of that generation.
func (v *volume) holds(gen uint64) bool {
	fs, ok := v.src.(*fileSource)
	return ok && fs.gen == gen
}

// growLimit is the largest record read into a buffer of its length at
// once from a source whose length is not known: a damaged length word
// must not make a huge buffer.
const growLimit = 1 << 20

// readLarge is readRest for a record longer than growLimit in a source
// of unknown length: it reads the record a growLimit at a time, so that
// the buffer grows only as far as the data goes.
func (v *volume) readLarge(src source, off, size int64, buf *[]byte) ([]byte, error) {
	b := (*buf)[:0]
	for at := off + 4; at < off+size; {
		n := int(min(growLimit, off+size-at))
		b = slices.Grow(b, n)
		k, err := src.readAt(b[len(b):len(b)+n], at)
		b = b[:len(b)+k]
		at += int64(k)
		if k < n {
			*buf = b
			if err != io.EOF {
				return nil, v.readError(at, err)
			}
			return nil, v.f.errorf(off, pmapi.ErrLogRec, "truncated record: length %d, only %d bytes left", size, at-off)
		}
	}
	*buf = b
	if trail := int64(be.Uint32(b[len(b)-4:])); trail != size {
		return nil, v.f.errorf(off+size-4, pmapi.ErrLogRec, "record trailer length %d does not match header %d", trail, size)
	}
	return b[:len(b)-4], nil
}

// head decodes and checks the header of the record of length size at
// off, whose payload is p.
func (v *volume) head(off, size int64, p []byte) (recHead, []byte, bool, error) {
	h := recHead{off: off, size: int32(size)}
	hlen := int64(recHeaderLen(v.f.label.Version))
	if int64(len(p)) < hlen {
		return h, nil, false, v.f.errorf(off, pmapi.ErrLogRec, "record length %d too short for its header", size)
	}
	if v.f.label.Version == 3 {
		h.time, h.fits = stamp3(p), stamp3Fits(p)
		h.nsets = int32(be.Uint32(p[12:]))
	} else {
		h.time, h.fits = stamp2(p), true
		h.nsets = int32(be.Uint32(p[8:]))
	}
	switch {
	case h.nsets < 0 || int64(h.nsets) > (size-8-hlen)/8:
		return h, nil, false, v.f.errorf(off+hlen, pmapi.ErrLogRec, "bad value set count %d", h.nsets)
	case h.nsets == 0 && size != 8+hlen:
		return h, nil, false, v.f.errorf(off, pmapi.ErrLogRec, "<mark> record of length %d, want %d", size, 8+hlen)
	}
	return h, p, false, nil
}

// readError is the error for data of v at off that cannot be read (or
// decompressed).
func (v *volume) readError(off int64, err error) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		return fe
	}
	if name, decomp := compressor(v.f.path); decomp != nil {
		return v.f.errorf(off, pmapi.ErrLogRec, "cannot decompress (%s): %v", name, err)
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return v.f.errorf(off, pmapi.ErrLogRec, "the file ends at offset %d", off)
	}
	return v.f.errorf(off, pmapi.ErrLogFile, "cannot read: %v", err)
}
