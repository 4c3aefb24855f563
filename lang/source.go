package lang

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Pos is a position in a source text. Offset is a byte offset; Line and Col
// are 1-based, and Col counts characters (runes), not bytes. The zero Pos is
// "no position".
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders p as line:col.
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Span is the half-open range [Start, End) of a node or diagnostic.
type Span struct {
	Start Pos
	End   Pos
}

// Source is a named source text: a file, a command-line expression or a
// macro body. Diagnostics point into a Source.
type Source struct {
	Name  string // file name, or a description such as "<expr>"
	Text  string
	lines []int // byte offset of the start of each line
}

// NewSource returns a Source for text called name.
func NewSource(name, text string) *Source {
	s := &Source{Name: name, Text: text, lines: make([]int, 1, 1+strings.Count(text, "\n"))}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			s.lines = append(s.lines, i+1)
		}
	}
	return s
}

// Pos returns the position of byte offset off, clamped to the text.
func (s *Source) Pos(off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > len(s.Text) {
		off = len(s.Text)
	}
	i := sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off }) - 1
	start := s.lines[i]
	return Pos{Offset: off, Line: i + 1, Col: utf8.RuneCountInString(s.Text[start:off]) + 1}
}

// Span returns the span of byte offsets [start, end).
func (s *Source) Span(start, end int) Span {
	return Span{Start: s.Pos(start), End: s.Pos(end)}
}

// Line returns the text of line n (1-based), without its newline.
func (s *Source) Line(n int) string {
	if n < 1 || n > len(s.lines) {
		return ""
	}
	start := s.lines[n-1]
	end := len(s.Text)
	if n < len(s.lines) {
		end = s.lines[n] - 1
	}
	return s.Text[start:end]
}
