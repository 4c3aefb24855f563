package archive

import (
	"bytes"
	"encoding/binary"
)

// The records of a regular archive (the same metrics and instances
// logged at every interval) have one shape: the same length, the same
// value sets, and value blocks of the same lengths in the same places;
// only the values differ. Each volume remembers the shape of a record it
// found sound (recShape), once two records in a row have had the same
// length. A record of that shape (its length and value set count, its
// value sets' headers, the (instance, value block offset) pairs of its
// sets that point to value blocks, and its value blocks' headers, all
// the same) passes checkRecord as that record did: what checkRecord
// finds depends on nothing else. So it is passed after a comparison of
// those bytes, without checkSet's steps for each value. Any other record
// is checked in full, its errors reported as before.

// recShape is the shape of a sound record of a volume.
type recShape struct {
	last  int32 // the length of the last record checked in full
	size  int32 // the record's length; 0 if no shape is remembered
	nsets int32
	list  []byte   // its value sets: its payload from its header to its first value block
	offs  []int32  // the offsets in the payload of its value blocks
	heads []uint32 // their headers, as read in the host's byte order
}

// fits reports whether record h, whose payload after its hlen-byte header
// is p, has the shape remembered (and so is sound).
func (s *recShape) fits(h *recHead, p []byte, hlen int) bool {
	if s.size == 0 || h.size != s.size || h.nsets != s.nsets {
		return false
	}
	// The shape's list is a sound record's, and p is as long as that
	// record's payload: the walk stays within both.
	b, list := p[hlen:], s.list
	for range h.nsets {
		n := 8
		numval := int32(be.Uint32(list[4:]))
		if numval > 0 {
			n = 12
		}
		if !bytes.Equal(b[:n], list[:n]) {
			return false
		}
		if numval > 0 {
			pairs := 8 * int(numval)
			if be.Uint32(list[8:]) != valInsitu && !bytes.Equal(b[n:n+pairs], list[n:n+pairs]) {
				return false
			}
			n += pairs
		}
		b, list = b[n:], list[n:]
	}
	heads := s.heads[:len(s.offs)]
	for i, off := range s.offs {
		if binary.NativeEndian.Uint32(p[off:off+4]) != heads[i] {
			return false
		}
	}
	return true
}

// note remembers the shape of record h, whose payload p (header hlen
// bytes, value sets up to listEnd) was found sound, if the record before
// it had the same length.
func (s *recShape) note(h *recHead, p []byte, hlen, listEnd int) {
	if h.size != s.last {
		s.last = h.size
		return
	}
	s.size, s.nsets = h.size, h.nsets
	s.list = append(s.list[:0], p[hlen:listEnd]...)
	s.offs, s.heads = s.offs[:0], s.heads[:0]
	b := p[hlen:]
	for range h.nsets {
		var set rawSet
		set, b = nextSet(b)
		if set.numval <= 0 || set.valfmt == valInsitu {
			continue
		}
		for j := range int(set.numval) {
			off, _ := blockSpan(p, set.lval(j)) // within p: the record is sound
			s.offs = append(s.offs, int32(off))
			s.heads = append(s.heads, binary.NativeEndian.Uint32(p[off:]))
		}
	}
}
