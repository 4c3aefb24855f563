package archive

import (
	"bufio"
	"errors"
	"io"
	"os"
	"slices"
)

// source gives access to the uncompressed bytes of one archive file at
// any offset, keeping only a bounded part of them in memory.
type source interface {
	// readAt reads len(p) bytes from offset off, as io.ReaderAt does:
	// fewer only at the end of the data (with io.EOF) or on error.
	readAt(p []byte, off int64) (int, error)
	// size is the length of the data, reading to its end if need be.
	size() (int64, error)
	close()
}

// Sizes of the buffers sources keep. (They are variables so that tests
// can make them small; a source takes them when it is opened.)
var (
	// fileWindow is how much of a plain file is read at a time.
	fileWindow = 64 << 10
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
func (m memSource) close()               {}

// fileSource is a plain file, read through a window: reads within the
// window are served from it, others refill it, forwards from the
// offset asked for or, reading backwards, up to the end of what was
// asked for.
type fileSource struct {
	f     *os.File
	n     int64
	win   []byte // the bytes from wOff
	wOff  int64
	wsize int // fileWindow
}

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
	return &fileSource{f: f, n: st.Size(), wsize: fileWindow}, nil
}

func (s *fileSource) readAt(want []byte, off int64) (int, error) {
	p, ok := s.clip(want, off)
	if !ok {
		return 0, io.EOF
	}
	end := off + int64(len(p))
	if off < s.wOff || end > s.wOff+int64(len(s.win)) {
		if len(p) >= s.wsize {
			n, err := s.f.ReadAt(p, off)
			return s.short(n, err, want)
		}
		start := off
		if off < s.wOff {
			start = max(0, end-int64(s.wsize))
		}
		if s.win == nil {
			s.win = make([]byte, s.wsize)
		}
		s.win = s.win[:min(int64(s.wsize), s.n-start)]
		n, err := s.f.ReadAt(s.win, start)
		s.win, s.wOff = s.win[:n], start
		if n < len(s.win) && err == nil {
			err = io.ErrUnexpectedEOF
		}
		if err != nil && !errors.Is(err, io.EOF) {
			s.win = s.win[:0]
			return 0, err
		}
	}
	n := 0
	if off >= s.wOff && off < s.wOff+int64(len(s.win)) {
		n = copy(p, s.win[off-s.wOff:])
	}
	return s.short(n, nil, want)
}

// readDirect is readAt without the window: for a few bytes at a place
// not worth reading ahead from.
func (s *fileSource) readDirect(want []byte, off int64) (int, error) {
	p, ok := s.clip(want, off)
	if !ok {
		return 0, io.EOF
	}
	n, err := s.f.ReadAt(p, off)
	return s.short(n, err, want)
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

func (s *fileSource) close() {
	s.f.Close()
	s.win = nil
}

// zSource is a compressed file, decompressed as a stream. All of the
// data is kept while it is at most memLimit bytes; beyond that only the
// last zWindow bytes (or more, for a larger read) before the stream's
// position, and reading further back starts decompressing again from
// the start.
type zSource struct {
	path   string
	decomp func(io.Reader) (io.Reader, error)
	f      *os.File // nil once the data is all in buf, or on error
	r      io.Reader
	pos    int64  // how far r has got
	buf    []byte // the bytes before pos
	keep   bool   // buf holds everything from the start
	n      int64  // the length of the data, or -1 until r has ended
	err    error  // why reading stopped, for good
	limit  int    // memLimit
	window int    // zWindow
}

func openZSource(path string, decomp func(io.Reader) (io.Reader, error)) (*zSource, error) {
	s := &zSource{path: path, decomp: decomp, n: -1, keep: true, limit: memLimit, window: zWindow}
	if err := s.restart(); err != nil {
		return nil, err
	}
	return s, nil
}

// restart starts decompressing from the start of the file.
func (s *zSource) restart() error {
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	f, err := os.Open(s.path)
	if err != nil {
		return err
	}
	r, err := s.decomp(bufio.NewReaderSize(f, 32<<10))
	if err != nil {
		f.Close()
		return err
	}
	s.f, s.r, s.pos, s.buf = f, r, 0, s.buf[:0]
	return nil
}

func (s *zSource) readAt(p []byte, off int64) (int, error) {
	if off < 0 || (s.n >= 0 && off >= s.n) {
		return 0, io.EOF
	}
	end := off + int64(len(p))
	if off < s.pos-int64(len(s.buf)) {
		if s.err != nil {
			return 0, s.err
		}
		if err := s.restart(); err != nil {
			s.err = err
			return 0, err
		}
	}
	for s.pos < end && s.f != nil {
		s.fill(len(p))
	}
	start := s.pos - int64(len(s.buf))
	n := 0
	if off < s.pos {
		n = copy(p, s.buf[off-start:])
	}
	switch {
	case n == len(p):
		return n, nil
	case s.err != nil:
		return n, s.err
	}
	return n, io.EOF
}

// fill decompresses some more, making room in buf for it first while
// keeping the last want bytes at least.
func (s *zSource) fill(want int) {
	if s.keep && len(s.buf) > s.limit {
		// Too big to keep whole: keep a window from now on.
		s.keep = false
		w := max(s.window, want)
		s.buf = append(make([]byte, 0, 2*w), s.buf[len(s.buf)-min(w, len(s.buf)):]...)
	}
	switch {
	case s.keep:
		s.buf = slices.Grow(s.buf, 64<<10)
	case cap(s.buf) < 2*want:
		s.buf = append(make([]byte, 0, 2*want), s.buf...)
	case len(s.buf) == cap(s.buf):
		half := cap(s.buf) / 2
		s.buf = s.buf[:copy(s.buf, s.buf[len(s.buf)-half:])]
	}
	room := s.buf[len(s.buf):cap(s.buf)]
	if s.keep {
		// no more than a byte past the limit, to see whether it is passed
		room = room[:min(len(room), s.limit+1-len(s.buf))]
	}
	n, err := s.r.Read(room)
	s.buf = s.buf[:len(s.buf)+n]
	s.pos += int64(n)
	if err == nil {
		return
	}
	// At the end (or on error) the file is closed: if all of the data
	// is in buf, it is not needed again.
	if err == io.EOF {
		s.n = s.pos
	} else {
		s.err = err
	}
	s.f.Close()
	s.f, s.r = nil, nil
}

func (s *zSource) size() (int64, error) {
	for s.n < 0 && s.f != nil {
		s.fill(0)
	}
	if s.n < 0 {
		return 0, s.err
	}
	return s.n, nil
}

func (s *zSource) close() {
	if s.f != nil {
		s.f.Close()
	}
	s.f, s.r, s.buf = nil, nil, nil
}
