package archive

import (
	"errors"
	"io"
	"os"
	"sync/atomic"
)

// source gives access to the uncompressed bytes of one archive file at
// any offset, keeping only a bounded part of them in memory.
type source interface {
	// readAt reads len(p) bytes from offset off, as io.ReaderAt does:
	// fewer only at the end of the data (with io.EOF) or on error.
	readAt(p []byte, off int64) (int, error)
	// size is the length of the data, reading to its end if need be.
	size() (int64, error)
	// known is the length of the data if it is known without reading
	// to the end, else -1.
	known() int64
	close()
}

// Sizes of the buffers sources keep. (They are variables so that tests
// can make them small; a source takes them when it is opened.)
var (
	// fileWindow is how much of a plain file is read at a time, at
	// first; reading on from where the last read ended doubles it, up
	// to maxWindow, so that a volume read through is read in large
	// blocks while a read here and there costs little. maxWindow is
	// small enough for a window to stay in the processor's caches while
	// the contexts sharing it (shared.go) read its records.
	fileWindow = 64 << 10
	maxWindow  = 256 << 10
	// bigWindow is the largest window read for one record larger than
	// maxWindow; larger records are read on their own.
	bigWindow = 1 << 20
	// memLimit is the largest compressed file's contents kept whole in
	// memory; larger ones are decompressed again from the start when
	// read backwards past zWindow.
	memLimit = 8 << 20
	// zWindow is how much of the decompressed stream is kept behind the
	// read position of a larger compressed file.
	zWindow = 1 << 20
)

// memSource is data held in memory.
type memSource []byte

func (m memSource) readAt(p []byte, off int64) (int, error) {
	if off < 0 || off >= int64(len(m)) {
		return 0, io.EOF
	}
	n := copy(p, m[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (m memSource) size() (int64, error) { return int64(len(m)), nil }
func (m memSource) known() int64         { return int64(len(m)) }
func (m memSource) close()               {}

// fileSource is a plain file, read through a window: reads within the
// window are served from it, others refill it, forwards from the
// offset asked for or, reading backwards, up to the end of what was
// asked for. A refill that carries on from the window (either way)
// doubles its size, up to wmax; one elsewhere starts again at wmin. A
// record larger than that, up to wbig, is read into a window of its
// size.
// The window is a chunk shared with the file's other sources in the
// process (shared.go): a refill takes one of theirs that holds what is
// wanted, if there is one, and else reads one (into a buffer made once,
// of its largest size).
type fileSource struct {
	f          *os.File
	n          int64
	win        []byte // the bytes from wOff: cur's
	wOff       int64
	cur        *chunk // the window's chunk, held; nil if none
	wsize      int    // the size of the next refill
	wmin, wmax int    // fileWindow and maxWindow
	wbig       int    // bigWindow
	gen        uint64 // the window's generation (see view): cur's serial
	shared     *sharedFile
}

// windowGen counts the chunks read by every file source, so that no two
// windows have the same generation.
var windowGen atomic.Uint64

func openFileSource(path string) (*fileSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &fileSource{f: f, n: st.Size(), wsize: fileWindow, wmin: fileWindow, wmax: max(fileWindow, maxWindow),
		wbig: max(fileWindow, maxWindow, bigWindow), shared: sharedFor(st)}, nil
}

func (s *fileSource) readAt(want []byte, off int64) (int, error) {
	p, ok := s.clip(want, off)
	if !ok {
		return 0, io.EOF
	}
	end := off + int64(len(p))
	if off < s.wOff || end > s.wOff+int64(len(s.win)) {
		if err := s.refill(off, end); err != nil {
			return 0, err
		}
		if off < s.wOff || end > s.wOff+int64(len(s.win)) {
			// Too big for the window: read it directly.
			n, err := s.f.ReadAt(p, off)
			return s.short(n, err, want)
		}
	}
	n := copy(p, s.win[off-s.wOff:])
	return s.short(n, nil, want)
}

// refill moves the window to hold the bytes from off to end, if they fit:
// forwards from off or, reading backwards, up to end.
func (s *fileSource) refill(off, end int64) error {
	wEnd := s.wOff + int64(len(s.win))
	switch {
	case len(s.win) > 0 && (off == wEnd || end == s.wOff || (off > s.wOff && off < wEnd) || (end > s.wOff && end < wEnd)):
		// Carrying on from the window: read more at a time.
		s.wsize = min(2*s.wsize, s.wmax)
	default:
		s.wsize = s.wmin
	}
	if end-off > int64(s.wsize) {
		if end-off > int64(s.wbig) {
			return nil
		}
		s.wsize = int(end - off)
	}
	start := off
	if off < s.wOff {
		start = max(0, end-int64(s.wsize))
	}
	need := int(min(int64(s.wsize), s.n-start))
	sf := s.shared
	sf.mu.Lock()
	found := sf.find(off, end)
	sf.drop(s.cur)
	var c *chunk
	if found == nil {
		// One buffer, made at once as large as the window can grow (or
		// the file is): a window growing while a volume is read through
		// makes no garbage. Its pages cost nothing until read into.
		c = sf.take(need, int(min(int64(s.wmax), s.n)))
	}
	sf.mu.Unlock()
	if found != nil {
		s.use(found)
		return nil
	}
	s.use(nil)
	n, err := s.f.ReadAt(c.b[:need], start)
	c.b, c.off, c.serial = c.b[:n], start, windowGen.Add(1)
	if n < need && err == nil {
		err = io.ErrUnexpectedEOF
	}
	sf.mu.Lock()
	defer sf.mu.Unlock()
	if err != nil && !errors.Is(err, io.EOF) {
		sf.drop(c)
		return err
	}
	sf.publish(c)
	s.use(c)
	return nil
}

// use makes c (held for s, or nil) s's window.
func (s *fileSource) use(c *chunk) {
	s.cur = c
	if c == nil {
		s.win, s.wOff, s.gen = nil, 0, 0
		return
	}
	s.win, s.wOff, s.gen = c.b, c.off, c.serial
}

// view is the n bytes at off as a slice of the window, read into it if
// need be, without copying them, and the window's generation: the slice
// holds those bytes while the source's gen is that (until the window is
// refilled). ok is false if they do not fit in the window or the file
// ends before them.
func (s *fileSource) view(off int64, n int) (b []byte, gen uint64, ok bool) {
	end := off + int64(n)
	if off < 0 || end > s.n || n > s.wbig {
		return nil, 0, false
	}
	if off < s.wOff || end > s.wOff+int64(len(s.win)) {
		if err := s.refill(off, end); err != nil || off < s.wOff || end > s.wOff+int64(len(s.win)) {
			return nil, 0, false
		}
	}
	return s.win[off-s.wOff : end-s.wOff : end-s.wOff], s.gen, true
}

// clip cuts p down to the bytes of the file from off; ok is false if
// there are none.
func (s *fileSource) clip(p []byte, off int64) ([]byte, bool) {
	if off < 0 || off >= s.n {
		return nil, false
	}
	if int64(len(p)) > s.n-off {
		p = p[:s.n-off]
	}
	return p, true
}

// short turns a read of n bytes into want into readAt's answer.
func (s *fileSource) short(n int, err error, want []byte) (int, error) {
	if n == len(want) {
		return n, nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		// The file ends early: either want runs past its end, or it
		// shrank since it was opened.
		return n, io.EOF
	}
	return n, err
}

func (s *fileSource) size() (int64, error) { return s.n, nil }
func (s *fileSource) known() int64         { return s.n }

func (s *fileSource) close() {
	s.f.Close()
	sf := s.shared
	if sf == nil {
		return
	}
	s.shared = nil
	sf.mu.Lock()
	sf.drop(s.cur)
	sf.mu.Unlock()
	s.use(nil)
	sf.release()
}
