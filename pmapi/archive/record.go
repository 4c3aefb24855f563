package archive

import (
	"math"

	"github.com/gopcp/pmie/pmapi"
)

// Value formats of a value set (PM_VAL_*).
const (
	valInsitu = 0
	valDPTR   = 1
	valSPTR   = 2
)

// pduHeader is how far a record's payload is from the start of the
// buffer libpcp decodes it in: value block offsets are counted in
// 32-bit words from there.
const pduHeader = 12

// rawSet is one value set of a record, not yet decoded.
type rawSet struct {
	pmid   pmapi.PMID
	numval int32  // number of values, or a negative PCP error code
	valfmt int32  // valInsitu, valDPTR or valSPTR
	vals   []byte // numval (instance, value) pairs of 32-bit words
}

func (s *rawSet) inst(i int) int32  { return int32(be.Uint32(s.vals[8*i:])) }
func (s *rawSet) lval(i int) uint32 { return be.Uint32(s.vals[8*i+4:]) }

// nextSet decodes the value set at the start of b, which must have been
// checked, and returns it and the rest of b.
func nextSet(b []byte) (rawSet, []byte) {
	s := rawSet{pmid: pmapi.PMID(be.Uint32(b)), numval: int32(be.Uint32(b[4:]))}
	if s.numval <= 0 {
		return s, b[8:]
	}
	s.valfmt = int32(be.Uint32(b[8:]))
	n := 12 + 8*int(s.numval)
	s.vals = b[12:n]
	return s, b[n:]
}

// block returns the value block a non-insitu value points to in payload
// p: its type and its bytes after the 4-byte header.
func block(p []byte, lval uint32) (pmapi.Type, []byte) {
	off := int(lval)*4 - pduHeader
	w := be.Uint32(p[off:])
	return pmapi.Type(w >> 24), p[off+4 : off+int(w&0xffffff)]
}

// checkRecord checks, as libpcp's decoding does, that the value sets
// of record h of v, whose payload is p, lie within the record, that
// every value block they point to does too, and that the value blocks
// exactly fill the record after the value sets, so that nextSet and
// block can then be used without further checks.
//
// A record of the shape of one found sound before passes at once (see
// recShape); any other is checked in full (checkInFull).
func (v *volume) checkRecord(h *recHead, p []byte) error {
	hlen := recHeaderLen(v.f.label.Version)
	if v.shape.fits(h, p, hlen) {
		return nil
	}
	listEnd, err := v.checkInFull(h, p, hlen)
	if err == nil {
		v.shape.note(h, p, hlen, listEnd)
	}
	return err
}

// checkInFull is checkRecord for a record whose header is hlen bytes,
// step by step; it returns where the value sets end in the payload.
func (v *volume) checkInFull(h *recHead, p []byte, hlen int) (int, error) {
	b := p[hlen:]
	blocks := tiling{first: int64(len(p))}
	for k := int32(0); k < h.nsets; k++ {
		var err error
		if b, err = v.checkSet(h, k, p, b, &blocks); err != nil {
			return 0, err
		}
	}
	listEnd := int64(len(p) - len(b))
	switch {
	case blocks.first != listEnd:
		return 0, v.f.errorf(h.off+4+listEnd, pmapi.ErrLogRec, "the value sets end at payload offset %d, but the first value block is at %d", listEnd, blocks.first)
	case listEnd+blocks.total != int64(len(p)):
		return 0, v.f.errorf(h.off+4+listEnd, pmapi.ErrLogRec, "value blocks of %d bytes in all do not fill the %d bytes after the value sets", blocks.total, int64(len(p))-listEnd)
	}
	return int(listEnd), nil
}

// tiling is where a record's value blocks start and how much of the
// record they take, in all.
type tiling struct {
	first, total int64
}

// checkSet checks value set k of record h, which starts at b within the
// record's payload p, adding the value blocks it points to to blocks,
// and returns the rest of the payload after it.
func (v *volume) checkSet(h *recHead, k int32, p, b []byte, blocks *tiling) ([]byte, error) {
	base := h.off + 4
	at := base + int64(len(p)-len(b))
	if len(b) < 8 {
		return nil, v.f.errorf(at, pmapi.ErrLogRec, "value set %d of %d truncated", k+1, h.nsets)
	}
	numval := int32(be.Uint32(b[4:]))
	if numval <= 0 {
		return b[8:], nil
	}
	if len(b) < 12 || int(numval) > (len(b)-12)/8 {
		return nil, v.f.errorf(at, pmapi.ErrLogRec, "value set %d (%s): %d values do not fit in the record", k+1, pmapi.PMID(be.Uint32(b)), numval)
	}
	valfmt := int32(be.Uint32(b[8:]))
	switch valfmt {
	case valInsitu:
	case valDPTR, valSPTR:
		if j := blocks.add(p, b[12:12+8*int(numval)]); j >= 0 {
			return nil, v.blockError(p, base, be.Uint32(b[12+8*j+4:]), at+int64(12+8*j+4))
		}
	default:
		return nil, v.f.errorf(at+8, pmapi.ErrLogRec, "value set %d (%s): bad value format %d", k+1, pmapi.PMID(be.Uint32(b)), valfmt)
	}
	return b[12+8*int(numval):], nil
}

// add adds to t the value blocks in record payload p that the values
// w, (instance, value) pairs of 32-bit words, point to. If one does not
// lie within p, it returns its index, else -1.
func (t *tiling) add(p, w []byte) int {
	first, total := t.first, t.total
	// A block's header lies within p if its offset is at most last: one
	// comparison, as a negative offset is taken as a large unsigned one.
	last := uint64(len(p) - 4)
	size := int64(len(p))
	for k := 0; k+8 <= len(w); k += 8 {
		off := uint64(be.Uint32(w[k+4:k+8]))*4 - pduHeader
		if off > last {
			return k / 8
		}
		n := int64(be.Uint32(p[off:off+4:off+4]) & 0xffffff)
		if n < 4 || int64(off)+n > size {
			return k / 8
		}
		first = min(first, int64(off))
		total += (n + 3) &^ 3
	}
	t.first, t.total = first, total
	return -1
}

// blockSpan locates the value block at lval in record payload p: its
// offset in p and its length (header included), or a length of -1 if its
// header is not within p.
func blockSpan(p []byte, lval uint32) (off, n int64) {
	off = int64(lval)*4 - pduHeader
	if lval > math.MaxInt32 || off < 0 || off+4 > int64(len(p)) {
		return off, -1
	}
	return off, int64(be.Uint32(p[off:]) & 0xffffff)
}

// blockError says how the value block at lval, pointed to from offset at
// of the volume, does not fit in record payload p, which starts at base.
func (v *volume) blockError(p []byte, base int64, lval uint32, at int64) error {
	off, n := blockSpan(p, lval)
	if n < 0 {
		return v.f.errorf(at, pmapi.ErrLogRec, "value block offset %d outside the record", lval)
	}
	return v.f.errorf(base+off, pmapi.ErrLogRec, "value block length %d runs past the record", n)
}

// appendValues appends the values of set s, from record payload p, as
// values of type t (see atom), reporting false if one is too short.
func appendValues(dst []pmapi.Value, t pmapi.Type, s *rawSet, p []byte, strs *interner) ([]pmapi.Value, bool) {
	n := int(s.numval)
	if s.valfmt == valInsitu && pmapi.InsituFits(t) {
		for j := 0; j < n; j++ {
			w := s.vals[8*j:]
			dst = append(dst, pmapi.Value{Inst: int32(be.Uint32(w)), Atom: pmapi.Insitu(t, be.Uint32(w[4:]))})
		}
		return dst, true
	}
	if (t == pmapi.TypeU64 || t == pmapi.Type64) && s.valfmt != valInsitu {
		for j := 0; j < n; j++ {
			w := s.vals[8*j:]
			off := int(be.Uint32(w[4:]))*4 - pduHeader
			if hdr := be.Uint32(p[off:]); hdr&0xffffff != 12 || !pmapi.VTypeFits(t, pmapi.Type(hdr>>24)) {
				a, _ := atom(t, s, j, p, strs)
				dst = append(dst, pmapi.Value{Inst: int32(be.Uint32(w)), Atom: a})
				continue
			}
			x := be.Uint64(p[off+4:])
			a := pmapi.U64(x)
			if t == pmapi.Type64 {
				a = pmapi.I64(int64(x))
			}
			dst = append(dst, pmapi.Value{Inst: int32(be.Uint32(w)), Atom: a})
		}
		return dst, true
	}
	for j := 0; j < n; j++ {
		a, ok := atom(t, s, j, p, strs)
		if !ok {
			return dst, false
		}
		dst = append(dst, pmapi.Value{Inst: s.inst(j), Atom: a})
	}
	return dst, true
}

// atom decodes one value of a set as a value of type t (the metric's
// type from its descriptor, or TypeUnknown if the archive has none),
// taking strings and other variable-length values from strs. It returns
// false if the value does not hold enough bytes for that type.
//
// A value stored otherwise than t needs (see pmapi.InsituFits and pmapi.BlockFits) is
// a pmapi.Mismatch, which libpcp's pmExtractValue would refuse.
func atom(t pmapi.Type, s *rawSet, i int, p []byte, strs *interner) (pmapi.Atom, bool) {
	lval := s.lval(i)
	if s.valfmt == valInsitu && !pmapi.InsituFits(t) {
		return pmapi.Mismatch(true, lval, ""), true
	}
	if s.valfmt == valInsitu {
		return pmapi.Insitu(t, lval), true
	}
	vt, b := block(p, lval)
	if t == pmapi.TypeUnknown || t == pmapi.TypeNoSupport {
		t = vt
	}
	if !pmapi.BlockFits(t, vt, len(b)) {
		return pmapi.Mismatch(false, 0, strs.str(pmapi.HostOrder(vt, b))), true
	}
	switch t {
	case pmapi.Type32, pmapi.TypeU32:
		if len(b) < 4 {
			return pmapi.Atom{}, false
		}
		if t == pmapi.Type32 {
			return pmapi.I32(int32(be.Uint32(b))), true
		}
		return pmapi.U32(be.Uint32(b)), true
	case pmapi.Type64, pmapi.TypeU64:
		if len(b) < 8 {
			return pmapi.Atom{}, false
		}
		if t == pmapi.Type64 {
			return pmapi.I64(int64(be.Uint64(b))), true
		}
		return pmapi.U64(be.Uint64(b)), true
	case pmapi.TypeFloat:
		if len(b) < 4 {
			return pmapi.Atom{}, false
		}
		return pmapi.F32(math.Float32frombits(be.Uint32(b))), true
	case pmapi.TypeDouble:
		if len(b) < 8 {
			return pmapi.Atom{}, false
		}
		return pmapi.F64(math.Float64frombits(be.Uint64(b))), true
	}
	return blockAtom(t, strs.str(b)), true
}

// asRead is the bytes of a numeric value block b of type vt, big-endian,
// as libpcp's interpolation reads them as a value of type t: from the
// block in host order (see pmapi.HostOrder), whatever the block's own type.
func asRead(t, vt pmapi.Type, b []byte) []byte {
	if pmapi.VTypeFits(t, vt) {
		return b
	}
	n := 8
	switch t {
	case pmapi.Type32, pmapi.TypeU32, pmapi.TypeFloat:
		n = 4
	}
	return pmapi.Swapped(pmapi.HostOrder(vt, b), n)
}
