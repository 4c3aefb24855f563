package lang

// The character level of the pmie scanner: a stack of inputs (the rule
// file, and the bodies of string macros being expanded), each with a queue
// of pushed-back characters, read one character at a time exactly as pmie
// 6.0.3 reads them. pmie's line numbers in messages, where its error
// recovery resumes, and how macro text mixes with file text all follow
// from this, so it is kept faithful.

const (
	lexMax = 254 // pmie's longest token
	eofc   = -1  // end of input
)

// pchar is one character and the file span it stands for: its own byte
// for file text, the $name reference for macro text.
type pchar struct {
	c          int
	start, end int
	from       *Expansion
}

// pinput is one input: the file, or the value of a macro being expanded.
type pinput struct {
	text  string
	off   int
	lno   int     // pmie's line counter for this input
	queue []pchar // pushed back characters, read from queue[qhead] on
	qhead int
	// macro inputs: the expansion and the file span all its text maps to
	macro      *Expansion
	start, end int
}

type charReader struct {
	inputs []*pinput // innermost last
	end    int       // the file's length: where its end of input is
}

func (r *charReader) top() *pinput {
	if len(r.inputs) == 0 {
		return nil
	}
	return r.inputs[len(r.inputs)-1]
}

// nextc reads the next character, leaving finished inputs (pmie "unwinds"
// an input when it reads its end, or a NUL byte).
func (r *charReader) nextc() pchar {
	for {
		in := r.top()
		if in == nil {
			return pchar{c: eofc, start: r.end, end: r.end}
		}
		if in.qhead < len(in.queue) {
			ch := in.queue[in.qhead]
			in.qhead++
			if in.qhead == len(in.queue) { // the queue's storage serves again
				in.queue, in.qhead = in.queue[:0], 0
			}
			return ch
		}
		if in.off < len(in.text) && in.text[in.off] != 0 {
			c := in.text[in.off]
			ch := pchar{c: int(c), start: in.off, end: in.off + 1}
			if in.macro != nil {
				ch = pchar{c: int(c), start: in.start, end: in.end, from: in.macro}
			}
			in.off++
			if c == '\n' {
				in.lno++
			}
			return ch
		}
		r.inputs = r.inputs[:len(r.inputs)-1]
	}
}

// prevc pushes a character back onto the current input. pmie's queue holds
// signed chars, so a pushed-back byte 0xff comes back as the end of input.
func (r *charReader) prevc(ch pchar) {
	in := r.top()
	if in == nil {
		return
	}
	if ch.c == 0xff {
		ch.c = eofc
	}
	in.queue = append(in.queue, ch)
}

// pushMacro starts reading the value of a string macro.
func (r *charReader) pushMacro(exp *Expansion, value string, ref pchar) {
	start, end := ref.start, ref.end
	r.inputs = append(r.inputs, &pinput{text: value, lno: 1, macro: exp, start: start, end: end})
}

// sync is pmie's lexSync: skip to the next ';' (or the end) and push it back.
func (r *charReader) sync() {
	var ch pchar
	for {
		ch = r.nextc()
		if ch.c == ';' || ch.c == eofc {
			break
		}
	}
	r.prevc(ch)
}

// where says where the reader is, as pmie reports it: the line of the
// current input, and the macro being read (or "" for the file). ok is
// false at the end of all input ("at end of file").
func (r *charReader) where() (line int, macro string, ok bool) {
	in := r.top()
	if in == nil {
		return 0, "", false
	}
	if in.macro != nil {
		return in.lno, in.macro.Macro, true
	}
	return in.lno, "", true
}

// stop discards all input, as pmie does after ";." or "}.".
func (r *charReader) stop() { r.inputs = nil }

func cIsSpace(c int) bool { return c >= 0 && c < 256 && isSpace(byte(c)) }
func cIsAlpha(c int) bool { return c >= 0 && c < 256 && isAlpha(byte(c)) }
func cIsDigit(c int) bool { return c >= '0' && c <= '9' }
