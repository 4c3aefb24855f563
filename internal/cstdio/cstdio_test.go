package cstdio

import (
	"reflect"
	"strings"
	"testing"
)

// writes records the size of each write made to it.
type writes struct {
	sizes []int
	all   strings.Builder
}

func (w *writes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	w.all.Write(p)
	return len(p), nil
}

// TestBlocks checks glibc's block buffering: small writes go out in
// whole blocks; a large write into an empty buffer goes out as whole
// blocks at once, its remainder kept; one into a partly filled buffer
// first fills it.
func TestBlocks(t *testing.T) {
	w := &writes{}
	b := &Writer{w: w, buf: make([]byte, 0, 8), size: 8}
	for range 5 {
		b.WriteString("abc") // 15 bytes: one block out, 7 kept
	}
	if want := []int{8}; !reflect.DeepEqual(w.sizes, want) {
		t.Fatalf("small writes: %v, want %v", w.sizes, want)
	}
	b.WriteString(strings.Repeat("x", 20)) // fills the block (1), then 16 direct, 3 kept
	if want := []int{8, 8, 16}; !reflect.DeepEqual(w.sizes, want) {
		t.Fatalf("large write: %v, want %v", w.sizes, want)
	}
	b.WriteByte('!')
	b.Flush()
	if want := []int{8, 8, 16, 4}; !reflect.DeepEqual(w.sizes, want) {
		t.Fatalf("flush: %v, want %v", w.sizes, want)
	}
	if got, want := w.all.String(), strings.Repeat("abc", 5)+strings.Repeat("x", 20)+"!"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}

// TestLines checks line buffering: a write with a newline writes out
// everything up to its last newline, keeping the rest.
func TestLines(t *testing.T) {
	w := &writes{}
	b := &Writer{w: w, buf: make([]byte, 0, 8), size: 8, line: true}
	b.WriteString("ab")
	b.WriteString("c\nde\nf")
	if got, want := w.all.String(), "abc\nde\n"; got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
	b.WriteString("yy") // no newline: kept
	if len(w.sizes) != 1 {
		t.Fatalf("writes %v, want one", w.sizes)
	}
	b.WriteString(strings.Repeat("z", 20)) // longer than the buffer: out
	if got, want := w.all.String(), "abc\nde\nfyy"+strings.Repeat("z", 20); got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}
