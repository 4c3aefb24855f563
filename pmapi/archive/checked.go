package archive

// Each context must check a record's value sets before decoding them, as
// libpcp's decoding does, but a record that passed once passes again
// while its bytes are the same. The sources of one file share the chunks
// they read (shared.go), whose bytes never change while their serial is
// the same: checkedRecs remembers the records most recently found sound
// in them (where each is, its length, and the serial of the chunk its
// payload was a view of), so that other contexts given the same record
// of the same chunk need not check it again. Only records that passed
// are remembered: a damaged one is checked, and its error reported, by
// every context that reads it; and a record read into a copy rather
// than viewed in a chunk (see volume.readRest) is always checked.

// checkedSlots is how many records each file remembers (a power of
// two): more than its shared chunks hold, and a small, fixed size
// however long the archive is.
const (
	checkedBits  = 12
	checkedSlots = 1 << checkedBits
)

// checkedRecs is the records of one file found sound: each slot holds
// the offset and length of a record (whose offset hashes to it) and the
// serial of the chunk it was read from, or a zero length.
type checkedRecs struct {
	slots [checkedSlots]struct {
		off    int64
		size   int32
		serial uint64
	}
}

// slot is where the record at off is remembered.
func slot(off int64) int {
	return int((uint64(off) * 0x9e3779b97f4a7c15) >> (64 - checkedBits))
}

// has reports whether record h, viewed in the chunk of serial h.gen, was
// found sound.
func (sf *sharedFile) has(h *recHead) bool {
	s := &sf.slots[slot(h.off)]
	sf.mu.Lock()
	ok := s.off == h.off && s.size == h.size && s.serial == h.gen && h.size != 0
	sf.mu.Unlock()
	return ok
}

// add remembers that record h, viewed in the chunk of serial h.gen, is
// sound.
func (sf *sharedFile) add(h *recHead) {
	s := &sf.slots[slot(h.off)]
	sf.mu.Lock()
	s.off, s.size, s.serial = h.off, h.size, h.gen
	sf.mu.Unlock()
}

// check checks record h of v, whose payload is p, as checkRecord does,
// unless the same record of the same chunk has been found sound already
// by a reader of the same file. Alone in reading the file, or given a
// copy of the record, it only checks.
func (v *volume) check(h *recHead, p []byte) error {
	fs, _ := v.src.(*fileSource)
	if fs == nil || fs.shared == nil || h.gen == 0 || fs.shared.users.Load() < 2 {
		return v.checkRecord(h, p)
	}
	sf := fs.shared
	if sf.has(h) {
		return nil
	}
	if err := v.checkRecord(h, p); err != nil {
		return err
	}
	sf.add(h)
	return nil
}
