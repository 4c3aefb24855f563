package archive

import (
	"hash/maphash"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
)

// Several contexts of one process often read the same archive through
// (pmie opens one per task, and its tasks step through the archive
// together). Each must check a record's value sets before decoding them,
// as libpcp's decoding does, but a record that passed once passes again
// while its bytes are the same. checkedRecs remembers, for each plain
// file open in the process, the records most recently found sound (where
// each is and a hash of its bytes), so that other contexts reading the
// same bytes there need not check them again: hashing a record costs a
// fraction of checking it. Only records that passed are remembered: a
// damaged one is checked, and its error reported, by every context that
// reads it.

// fileID tells a file's version apart from others': two sources with
// the same fileID read the same bytes, as far as the file system says.
type fileID struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds
}

// checkedSlots is how many records each file remembers (a power of
// two): enough for contexts as far apart as pmie's tasks get in an
// archive, and a small, fixed size however long the archive is.
const (
	checkedBits  = 12
	checkedSlots = 1 << checkedBits
)

// checkedRecs is the records of one file found sound: each slot holds
// the offset, length and hash of the payload of a record (whose offset
// hashes to it), or a zero length.
type checkedRecs struct {
	id    fileID
	users atomic.Int32 // the file sources sharing it
	mu    sync.Mutex
	slots [checkedSlots]struct {
		off  int64
		size int32
		sum  uint64
	}
}

// checkedFiles is the checkedRecs of every plain file open, by fileID.
var checkedFiles struct {
	mu    sync.Mutex
	files map[fileID]*checkedRecs
}

// checkedFor returns the checkedRecs shared by the sources of the file
// st describes, or nil if the file system does not say which file it
// is. Each call must be matched by a release.
func checkedFor(st os.FileInfo) *checkedRecs {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	id := fileID{dev: uint64(sys.Dev), ino: uint64(sys.Ino), size: st.Size(),
		mtime: sys.Mtim.Nano(), ctime: sys.Ctim.Nano()}
	checkedFiles.mu.Lock()
	defer checkedFiles.mu.Unlock()
	c := checkedFiles.files[id]
	if c == nil {
		if checkedFiles.files == nil {
			checkedFiles.files = map[fileID]*checkedRecs{}
		}
		c = &checkedRecs{id: id}
		checkedFiles.files[id] = c
	}
	c.users.Add(1)
	return c
}

// release gives up a source's use of c, forgetting c with the last.
func (c *checkedRecs) release() {
	if c == nil {
		return
	}
	checkedFiles.mu.Lock()
	defer checkedFiles.mu.Unlock()
	if c.users.Add(-1) == 0 {
		delete(checkedFiles.files, c.id)
	}
}

// recSeed seeds the hashes of records' payloads.
var recSeed = maphash.MakeSeed()

// slot is where the record at off is remembered.
func slot(off int64) int {
	return int((uint64(off) * 0x9e3779b97f4a7c15) >> (64 - checkedBits))
}

// has reports whether the record at off of length size, whose payload
// hashes to sum, was found sound.
func (c *checkedRecs) has(off int64, size int32, sum uint64) bool {
	s := &c.slots[slot(off)]
	c.mu.Lock()
	ok := s.off == off && s.size == size && s.sum == sum && size != 0
	c.mu.Unlock()
	return ok
}

// add remembers that the record at off of length size, whose payload
// hashes to sum, is sound.
func (c *checkedRecs) add(off int64, size int32, sum uint64) {
	s := &c.slots[slot(off)]
	c.mu.Lock()
	s.off, s.size, s.sum = off, size, sum
	c.mu.Unlock()
}

// check checks record h of v, whose payload is p, as checkRecord does,
// unless the same bytes there have been found sound already by a reader
// of the same file. Alone in reading the file, it only checks: no other
// reader can use what it finds.
func (v *volume) check(h *recHead, p []byte) error {
	fs, _ := v.src.(*fileSource)
	if fs == nil || fs.checked == nil || fs.checked.users.Load() < 2 {
		return v.checkRecord(h, p)
	}
	c := fs.checked
	sum := maphash.Bytes(recSeed, p)
	if c.has(h.off, h.size, sum) {
		return nil
	}
	if err := v.checkRecord(h, p); err != nil {
		return err
	}
	c.add(h.off, h.size, sum)
	return nil
}
