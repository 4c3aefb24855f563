package pmieconf

import (
	"bufio"
	"fmt"
	"io"

	"github.com/gopcp/pmie/pmapi"
)

// Limits on commands read from input, as pmieconf has them.
const (
	maxArgs  = 4    // words after the command's
	maxInput = 1025 // characters in a word
)

// Results of reading one word of a command line.
const (
	wordOK    = 1
	wordEnd   = 0  // the end of the line
	wordError = -1 // a bad word; the rest of its line may remain
	wordEOF   = -2
)

// lineReader splits input into command words: white space separates
// them, '#' starts a comment, a double-quoted string is one word (a
// backslash protects the next character), and '=' and ';' are words of
// their own.
type lineReader struct {
	r *bufio.Reader
}

func (l *lineReader) getc() int {
	c, err := l.r.ReadByte()
	if err != nil {
		return -1
	}
	return int(c)
}

func (l *lineReader) word() (string, int) {
	c := l.getc()
	for {
		if c == '#' {
			for c = l.getc(); c != '\n' && c != -1; c = l.getc() {
			}
		}
		if c == '\n' {
			return "", wordEnd
		}
		if c == -1 {
			return "", wordEOF
		}
		if isGraph(c) {
			break
		}
		c = l.getc()
	}
	var b []byte
	switch c {
	case '"':
		for c = l.getc(); c != '"'; c = l.getc() {
			if c == '\\' {
				c = l.getc()
			}
			if c == '\n' || c == -1 || len(b) == maxInput-1 {
				return "", wordError
			}
			b = append(b, byte(c))
		}
	case '=', ';':
		b = append(b, byte(c))
	default:
		for isGraph(c) {
			if c == '=' || c == ';' {
				l.r.UnreadByte()
				break
			}
			if len(b) == maxInput {
				return "", wordError
			}
			b = append(b, byte(c))
			if c = l.getc(); c == '\n' {
				l.r.UnreadByte()
			}
		}
	}
	return pmapi.CString(string(b)), wordOK
}

// Interact reads commands from in, a line each, until "quit", "abort" or
// the end of the input, which quits. A last line with no newline is not
// run. It returns the exit status.
func (s *Session) Interact(in io.Reader) int {
	if s.Interactive {
		fmt.Fprintf(s.Out, "Updates will be made to %s\n", s.File)
	}
	l := &lineReader{r: bufio.NewReader(in)}
	for {
		if s.Interactive {
			if s.Pager != nil {
				s.Pager.Reset()
			}
			fmt.Fprintf(s.Out, "\n%s> ", s.Program)
		}
		var words []string
		n := wordOK
		for len(words) <= maxArgs {
			var w string
			w, n = l.word()
			if n != wordOK {
				break
			}
			words = append(words, w)
		}
		switch {
		case n == wordError:
			s.errorf("failed to parse argument %d correctly", len(words)+1)
			continue
		case n == wordEOF:
			return s.quitStatus()
		case len(words) > maxArgs:
			s.errorf("too many arguments - try \"help\"")
			for n = wordOK; n == wordOK; _, n = l.word() {
			}
			if n == wordEOF {
				return s.quitStatus()
			}
			continue
		case len(words) == 0:
			continue
		}
		switch s.Run(words) {
		case cmdQuit:
			return s.quitStatus()
		case cmdAbort:
			return 0
		}
	}
}

func (s *Session) quitStatus() int {
	if !s.Quit() {
		return 1
	}
	return 0
}
