package pmieconf

import (
	"bytes"
	"io"
	"strings"
)

// Pager stops output on a terminal after each screenful, as pmieconf
// does, asking "more?". It counts the lines of each piece of output
// before showing it, and asks when a screenful has been shown.
type Pager struct {
	Out        io.Writer
	Rows, Cols int
	// ReadKey reads one key press, unbuffered; false if it cannot.
	ReadKey func() (byte, bool)

	lines int  // lines shown since the last question
	skip  bool // the rest of this command's output is not wanted
}

const (
	morePrompt     = "more? (h=help) "
	moreLongPrompt = "[q or n to stop, y or <space> to go on, <enter> to step] more? "
)

// Reset starts counting again, as before each command.
func (p *Pager) Reset() { p.lines, p.skip = 0, false }

// Write shows b unless the rest of the output is not wanted.
func (p *Pager) Write(b []byte) (int, error) {
	if p.skip {
		return len(b), nil
	}
	if p.lines >= p.Rows-1 {
		p.ask()
		if p.skip {
			return len(b), nil
		}
	}
	p.lines += bytes.Count(b, []byte{'\n'})
	return p.Out.Write(b)
}

// error shows an error message, which counts as one line and never asks.
func (p *Pager) error(msg string) {
	if p.skip {
		return
	}
	io.WriteString(p.Out, "  Error - "+msg+"\n")
	p.lines++
}

func (p *Pager) clearLine() {
	io.WriteString(p.Out, "\r"+strings.Repeat(" ", max(p.Cols-1, 0))+"\r")
}

func (p *Pager) ask() {
	prompt := morePrompt
	for {
		p.clearLine()
		io.WriteString(p.Out, prompt)
		key, ok := p.ReadKey()
		if !ok {
			break
		}
		switch key {
		case 'n', 'q':
			p.lines, p.skip = 0, true
		case 'y', ' ':
			p.lines = 0
		case '\n':
			p.lines = p.Rows // one more line, then ask again
		default:
			prompt = moreLongPrompt
			continue
		}
		break
	}
	p.clearLine()
}
