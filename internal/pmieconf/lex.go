package pmieconf

import (
	"strings"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// Token lengths beyond which pmieconf gives up on a rules file.
const (
	maxQuoted   = 2047
	maxUnquoted = 2048
)

// token is one word of a rules file: a quoted string (without its quotes
// and backslashes), a single ';' or '=', or a run of printable characters.
type token struct {
	text  string
	off   int  // where it starts (its opening quote, if quoted)
	atEOF bool // reading it met the end of the file
}

// lexer splits a rules file into tokens. Outside quotes, any byte that is
// not printable ASCII separates tokens, and '#' where a token could start
// begins a comment running to the end of the line.
type lexer struct {
	src  []byte
	name string
	i    int
	eof  bool         // a read has met the end of the file (stdio's feof)
	text *lang.Source // the file as diagnostics see it, made when first needed
	tok  tokenBuffer  // pmieconf's token buffer, which each token is read into
	// notRules is pmieconf's complaint about a file that is not a rules
	// file.
	notRules string
}

// source is the file as diagnostics see it.
func (l *lexer) source() *lang.Source {
	if l.text == nil {
		l.text = lang.NewSource(l.name, string(l.src))
	}
	return l.text
}

// pos turns a byte offset into a position.
func (l *lexer) pos(off int) lang.Pos { return l.source().Pos(off) }

func isGraph(c int) bool { return c > ' ' && c < 0x7f }

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

func (l *lexer) getc() int {
	if l.i >= len(l.src) {
		l.eof = true
		return -1
	}
	c := l.src[l.i]
	l.i++
	return int(c)
}

// skip passes over separators and comments and returns the first byte of
// the next token, already consumed, or -1 at the end of the file.
func (l *lexer) skip() int {
	for {
		c := l.getc()
		if c == '#' {
			for c = l.getc(); c != '\n' && c != -1; c = l.getc() {
			}
		}
		if c == -1 || isGraph(c) {
			return c
		}
	}
}

// next returns the next token; ok is false at the end of the file.
func (l *lexer) next() (token, bool, error) {
	c := l.skip()
	if c == -1 {
		return token{off: len(l.src), atEOF: true}, false, nil
	}
	start := l.i - 1
	var b strings.Builder
	switch c {
	case '"':
		for c = l.getc(); c != '"'; c = l.getc() {
			if c == '\\' {
				c = l.getc()
			}
			if c == -1 {
				l.tok.store(b.String(), true)
				return token{off: start}, false, l.errorAt(start, "unterminated string")
			}
			if b.Len() == maxQuoted {
				l.tok.store(b.String(), true)
				return token{off: start}, false, l.errorAt(start, "string longer than 2047 characters")
			}
			b.WriteByte(byte(c))
		}
	case ';', '=':
		b.WriteByte(byte(c))
	default:
		for isGraph(c) {
			if c == '=' || c == ';' {
				l.i--
				break
			}
			if b.Len() == maxUnquoted {
				l.tok.store(b.String(), true)
				return token{off: start}, false, l.errorAt(start, "word longer than 2048 characters")
			}
			b.WriteByte(byte(c))
			c = l.getc()
		}
	}
	text := b.String()
	l.tok.store(text, true)
	return token{text: pmapi.CString(text), off: start, atEOF: l.eof}, true, nil
}

// errorAt is a diagnostic at byte offset off, rendered by lang (file:
// line:col, the line and a caret).
func (l *lexer) errorAt(off int, msg string) *lang.Diagnostic {
	p := l.pos(off)
	return &lang.Diagnostic{Severity: lang.Error, Src: l.source(), Span: lang.Span{Start: p, End: p}, Msg: msg}
}
