package pmieconf

import (
	"bytes"
	"fmt"
	"strings"
)

// Pos is a place in a rules file: a byte offset and the 1-based line and
// column (in characters) it falls on.
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// Error is a diagnostic about a rules file, rendered as
// "file:line:col: error: message", the source line and a caret.
type Error struct {
	File string
	Pos  Pos
	Msg  string
	src  []byte // the whole file, to show the line on demand
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d: error: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
	if e.src == nil || e.Pos.Line == 0 {
		return b.String()
	}
	start := e.Pos.Offset
	if start > len(e.src) {
		start = len(e.src)
	}
	start = bytes.LastIndexByte(e.src[:start], '\n') + 1
	end := bytes.IndexByte(e.src[start:], '\n')
	if end < 0 {
		end = len(e.src) - start
	}
	line := string(e.src[start : start+end])
	b.WriteString("\n" + line + "\n")
	// The caret sits under the column, copying tabs so it lines up.
	col := 0
	for _, r := range line {
		if col >= e.Pos.Col-1 {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		col++
	}
	b.WriteByte('^')
	return b.String()
}
