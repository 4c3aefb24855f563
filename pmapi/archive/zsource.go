package archive

import (
	"bufio"
	"io"
	"os"
)

// zSource is a compressed file, decompressed as a stream into pieces
// (chunks) of at most 64 KB. All of the data is kept while it is at
// most memLimit bytes; beyond that only the last zWindow bytes (or
// more, for a larger read) before the stream's position, and reading
// further back starts decompressing again from the start.
type zSource struct {
	path   string
	decomp func(io.Reader) (io.Reader, error)
	f      *os.File // nil at the end of the data, or on error
	r      io.Reader
	chunks [][]byte // the data kept, from byte first to pos
	first  int64
	pos    int64    // how far r has got
	spare  [][]byte // emptied chunks, for reuse
	keep   bool     // chunks hold everything from the start
	n      int64    // the length of the data, or -1 until r has ended
	length int64    // the length of the data as the file's index gives it, or -1
	err    error    // why reading stopped, for good

	limit, window, csize int // memLimit, zWindow and the chunk size
}

// maxSpare is how many emptied chunks a zSource keeps for reuse.
const maxSpare = 4

func openZSource(path string, decomp func(io.Reader) (io.Reader, error)) (*zSource, error) {
	s := &zSource{path: path, decomp: decomp, n: -1, length: -1, keep: true, limit: memLimit, window: zWindow}
	s.csize = max(1, min(64<<10, s.window/2))
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
	for len(s.chunks) > 0 {
		s.drop()
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
	s.f, s.r, s.first, s.pos = f, r, 0, 0
	return nil
}

// drop lets go of the first chunk.
func (s *zSource) drop() {
	c := s.chunks[0]
	if len(s.spare) < maxSpare {
		s.spare = append(s.spare, c[:0])
	}
	s.first += int64(len(c))
	s.chunks = append(s.chunks[:0], s.chunks[1:]...)
}

func (s *zSource) readAt(p []byte, off int64) (int, error) {
	if off < 0 || (s.n >= 0 && off >= s.n) {
		return 0, io.EOF
	}
	if off < s.first {
		if s.err != nil {
			return 0, s.err
		}
		if err := s.restart(); err != nil {
			s.err = err
			return 0, err
		}
	}
	for end := off + int64(len(p)); s.pos < end && s.f != nil; {
		s.fill(off)
	}
	n, at := 0, s.first
	for _, c := range s.chunks {
		if n == len(p) {
			break
		}
		if next := at + int64(len(c)); off+int64(n) < next {
			n += copy(p[n:], c[off+int64(n)-at:])
		}
		at += int64(len(c))
	}
	switch {
	case n == len(p):
		return n, nil
	case s.err != nil:
		return n, s.err
	}
	return n, io.EOF
}

// fill decompresses some more, first letting go of the chunks that are
// wholly before both from and the window.
func (s *zSource) fill(from int64) {
	if s.keep && s.pos > int64(s.limit) {
		// Too big to keep whole: keep a window from now on.
		s.keep = false
	}
	if !s.keep {
		keepFrom := min(from, s.pos-int64(s.window))
		for len(s.chunks) > 1 && s.first+int64(len(s.chunks[0])) <= keepFrom {
			s.drop()
		}
	}
	if k := len(s.chunks); k == 0 || len(s.chunks[k-1]) == cap(s.chunks[k-1]) {
		var c []byte
		if k := len(s.spare); k > 0 {
			c, s.spare = s.spare[k-1], s.spare[:k-1]
		} else {
			c = make([]byte, 0, s.csize)
		}
		s.chunks = append(s.chunks, c)
	}
	c := &s.chunks[len(s.chunks)-1]
	n, err := s.r.Read((*c)[len(*c):cap(*c)])
	*c = (*c)[:len(*c)+n]
	s.pos += int64(n)
	if err == nil {
		return
	}
	// At the end (or on error) the file is closed: if all of the data
	// is kept, it is not needed again.
	if err == io.EOF {
		s.n = s.pos
	} else {
		s.err = err
	}
	s.f.Close()
	s.f, s.r = nil, nil
}

func (s *zSource) size() (int64, error) {
	if s.length >= 0 {
		return s.length, nil
	}
	for s.n < 0 && s.f != nil {
		s.fill(s.pos)
	}
	if s.n < 0 {
		return 0, s.err
	}
	return s.n, nil
}

func (s *zSource) known() int64 {
	if s.length >= 0 {
		return s.length
	}
	return s.n
}

func (s *zSource) close() {
	if s.f != nil {
		s.f.Close()
	}
	s.f, s.r, s.chunks, s.spare = nil, nil, nil, nil
}
