// Package cstdio buffers standard output as glibc's stdio buffers a C
// program's: line by line on a terminal, otherwise in blocks of the
// file's preferred size (st_blksize), each written whole. What a PCP
// tool writes to standard output and what it writes, unbuffered, to
// standard error then interleave as the C tool's do when both go to one
// file or pipe (`pminfo ... 2>&1`): an error is seen before the block of
// output it was written beside.
package cstdio

import (
	"bytes"
	"io"
	"os"
)

// bufsiz is stdio's block size where the file gives none (BUFSIZ).
const bufsiz = 8192

// Writer is a buffered standard output. It is not safe for concurrent
// use.
type Writer struct {
	w    io.Writer
	buf  []byte
	size int  // the buffer's size
	line bool // line buffered: a write with a newline is seen at once
	err  error
}

// New buffers w as stdio would buffer the file: line by line if it is a
// terminal, else in blocks of its st_blksize. A writer that is not a file
// is buffered in blocks of BUFSIZ.
func New(w io.Writer) *Writer {
	size := bufsiz
	line := false
	if f, ok := w.(*os.File); ok {
		line = IsTerminal(f)
		if n := blockSize(f); n > 0 {
			size = n
		}
	}
	return &Writer{w: w, buf: make([]byte, 0, size), size: size, line: line}
}

// Write buffers p as glibc's fwrite does: it fills the buffer, writing it
// out each time it is full, writes whole blocks of what remains directly
// when the buffer is empty, and keeps the rest. Line buffered, everything
// up to the last newline of p is written out, and a line longer than the
// buffer as soon as it is.
func (b *Writer) Write(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n := len(p)
	if b.line {
		if i := bytes.LastIndexByte(p, '\n'); i >= 0 {
			b.buf = append(b.buf, p[:i+1]...)
			p = p[i+1:]
			b.Flush()
		}
		if b.buf = append(b.buf, p...); len(b.buf) >= b.size {
			b.Flush() // a line longer than the buffer
		}
		return n, b.err
	}
	size := b.size
	for len(p) > 0 && b.err == nil {
		if len(b.buf) == 0 && len(p) >= size {
			whole := len(p) - len(p)%size
			b.write(p[:whole])
			p = p[whole:]
			continue
		}
		k := copy(b.buf[len(b.buf):size], p)
		b.buf = b.buf[:len(b.buf)+k]
		p = p[k:]
		if len(b.buf) == size {
			b.Flush()
		}
	}
	return n, b.err
}

// WriteString is Write of s.
func (b *Writer) WriteString(s string) (int, error) { return b.Write([]byte(s)) }

// WriteByte is Write of c.
func (b *Writer) WriteByte(c byte) error {
	_, err := b.Write([]byte{c})
	return err
}

// Flush writes out what is buffered (fflush).
func (b *Writer) Flush() error {
	if len(b.buf) > 0 && b.err == nil {
		b.write(b.buf)
	}
	b.buf = b.buf[:0]
	return b.err
}

func (b *Writer) write(p []byte) {
	for len(p) > 0 && b.err == nil {
		n, err := b.w.Write(p)
		if err == nil && n == 0 {
			err = io.ErrShortWrite
		}
		p, b.err = p[n:], err
	}
}
