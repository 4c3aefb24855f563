package archive

import (
	"os"
	"sync"
	"sync/atomic"
	"syscall"
)

// Several contexts of one process often read the same archive file
// through together: pmie opens one per task, and its tasks step through
// an archive in time order, so their contexts read the same records
// within a few hundred kilobytes of each other. The file sources of one
// file therefore share what they read (sharedFile): each window read
// from the file is a chunk, kept in a small ring while more than one
// source reads the file, and a source whose window must move looks
// there first for a chunk that holds what it wants. So a volume read
// through by several contexts at once is read from the file once, and
// its records are checked once (checked.go), with memory bounded by the
// ring, however long the archive is.
//
// A chunk's bytes never change while it is held: it is filled again
// only when neither the ring nor a source's window holds it, and then
// with a new serial. A source's view of its window (fileSource.view)
// carries the chunk's serial as its generation, so what holds for views
// of one source's own window holds for views of a shared chunk.
//
// A source may so be given bytes another source of the file read a
// moment before, as it may be given bytes of its own window read a
// moment before: a file changed in place while it is read may be seen
// as it was, a little longer. Sources share only while the file
// system says the file is the same (fileID, taken at open); a file
// grown since is another file to sources opened after the growth, as
// its length is part of what a source reads (libpcp's, too, is taken
// at open).

// fileID tells a file's version apart from others': two sources with
// the same fileID read the same bytes, as far as the file system says.
type fileID struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds
}

// ringLen is how many chunks a file read by several sources keeps: with
// windows of up to maxWindow, 2 MB, enough for the contexts of pmie's
// tasks, which read an archive about as far apart as the longest task
// interval (10 minutes of pmieconf's rules are 1 MB of the benchmark
// archive).
const ringLen = 8

// chunk is bytes of a file read at once: b holds the bytes from off.
type chunk struct {
	b      []byte
	off    int64
	serial uint64 // the generation of windows it is (see fileSource.view)
	refs   int32  // holders: the ring, and sources whose window it is
}

// sharedFile is what the sources of one file in the process share: the
// chunks last read from it, and the records found sound (checked.go).
// A source alone in reading its file shares nothing: it reads its window
// into the one chunk it holds, as it would without sharing.
type sharedFile struct {
	id     fileID
	listed bool         // in sharedFiles (the file could be told apart)
	users  atomic.Int32 // the file sources sharing it
	mu     sync.Mutex   // guards all below, and the refs of chunks
	ring   [ringLen]*chunk
	next   int    // the place in ring filled next
	spare  *chunk // a chunk no one holds, to fill again
	checkedRecs
}

// sharedFiles is the sharedFile of every plain file open, by fileID.
var sharedFiles struct {
	mu    sync.Mutex
	files map[fileID]*sharedFile
}

// sharedFor returns the sharedFile of the sources of the file st
// describes; if the file system does not say which file it is, one of
// the source's own. Each call must be matched by a release.
func sharedFor(st os.FileInfo) *sharedFile {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		sf := &sharedFile{}
		sf.users.Add(1)
		return sf
	}
	id := fileID{dev: uint64(sys.Dev), ino: uint64(sys.Ino), size: st.Size(),
		mtime: sys.Mtim.Nano(), ctime: sys.Ctim.Nano()}
	sharedFiles.mu.Lock()
	defer sharedFiles.mu.Unlock()
	sf := sharedFiles.files[id]
	if sf == nil {
		if sharedFiles.files == nil {
			sharedFiles.files = map[fileID]*sharedFile{}
		}
		sf = &sharedFile{id: id, listed: true}
		sharedFiles.files[id] = sf
	}
	sf.users.Add(1)
	return sf
}

// release gives up a source's use of sf, whose window it no longer
// holds, forgetting sf with the last.
func (sf *sharedFile) release() {
	if !sf.listed {
		sf.users.Add(-1)
		return
	}
	sharedFiles.mu.Lock()
	defer sharedFiles.mu.Unlock()
	if sf.users.Add(-1) == 0 {
		delete(sharedFiles.files, sf.id)
	}
}

// find returns the chunk of the ring that holds the bytes from off to
// end (the one reaching furthest, if several), held for the caller, or
// nil. sf.mu is held.
func (sf *sharedFile) find(off, end int64) *chunk {
	var best *chunk
	for _, c := range sf.ring {
		if c != nil && c.off <= off && end <= c.off+int64(len(c.b)) &&
			(best == nil || best.off+int64(len(best.b)) < c.off+int64(len(c.b))) {
			best = c
		}
	}
	if best != nil {
		best.refs++
	}
	return best
}

// drop gives up a hold of c (if not nil); a chunk no one holds becomes
// the spare, if it is the larger. sf.mu is held.
func (sf *sharedFile) drop(c *chunk) {
	if c == nil {
		return
	}
	if c.refs--; c.refs == 0 && (sf.spare == nil || cap(sf.spare.b) < cap(c.b)) {
		sf.spare = c
	}
}

// take returns the spare chunk, or a new one, to fill with n bytes;
// its buffer is made as large as size says, once. sf.mu is held.
func (sf *sharedFile) take(n, size int) *chunk {
	c := sf.spare
	sf.spare = nil
	if c == nil || cap(c.b) < n {
		if size = max(n, size); sf.users.Load() > 1 && size == maxWindow {
			// a window several sources will read in turn (slab.go)
			c = &chunk{b: slabBuf(size)}
		} else {
			c = &chunk{b: make([]byte, 0, size)}
		}
	}
	c.refs = 1
	return c
}

// publish puts c, just filled and held by its reader, in the ring if
// other sources read the file, in place of the chunk put there longest
// ago; a source alone empties the ring. sf.mu is held.
func (sf *sharedFile) publish(c *chunk) {
	if sf.users.Load() < 2 {
		for i, old := range sf.ring {
			sf.drop(old)
			sf.ring[i] = nil
		}
		return
	}
	c.refs++
	sf.drop(sf.ring[sf.next])
	sf.ring[sf.next] = c
	sf.next = (sf.next + 1) % ringLen
}
