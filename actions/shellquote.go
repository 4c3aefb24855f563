package actions

import "strconv"

// A shell action's text is a sh(1) command with %h, %i, %v and %c put
// into it. ShellQuoter reads the text as the shell will, a byte at a time,
// and puts each value in so that the shell reads back exactly the value's
// text, whatever it holds:
//
//   - outside quotes, a value is one word: a plain value (letters, digits
//     and _ . / : @ % + -) goes in as it is, anything else between single
//     quotes, with each ' written '\'';
//   - between single quotes in the text, each ' is written '\'';
//   - between double quotes, $ ` " and \ get a backslash;
//   - after a backslash in the text, the value's first byte is the one
//     escaped, as in pmie;
//   - in a comment, a value may not hold a newline (it would end the
//     comment).
//
// Places whose reading differs between shells or needs more than this
// reader follows (inside backquotes, ${...} other than ${name}, $((...)),
// $[...], $'...', right after a $, here-documents, case inside $(...)) are
// opaque: only plain values may go there, and any other makes the action
// fail rather than run.
//
// For plain values the text is exactly pmie's.

// shellContext is where a value stands in the text.
type shellContext uint8

const (
	ctxWord    shellContext = iota // outside quotes
	ctxSingle                      // between single quotes
	ctxDouble                      // between double quotes
	ctxComment                     // in a comment
	ctxOpaque                      // somewhere not followed: plain values only
)

// frame is a construct the reader is inside of.
type frame uint8

const (
	frameTop    frame = iota
	frameCmd          // $( ... )
	frameParen        // ( ... ) outside quotes
	frameDouble       // " ... "
	frameSingle       // ' ... '
	frameBack         // ` ... `
)

// maxFrames bounds the nesting followed; deeper text is opaque.
const maxFrames = 16

// shellReader follows a shell command's syntax over the text given to
// step. Its zero value is at the start of a command.
type shellReader struct {
	frames [maxFrames]frame // frames[0] is frameTop
	n      int              // frames open above the top
	backs  int              // backquote frames open
	// opaque, once set, says why the rest of the text is not followed.
	opaque string

	esc     bool  // the previous byte is a backslash escaping this one
	dollar  bool  // the previous byte is an unescaped $
	cmdOpen bool  // the previous bytes are $(
	lt      bool  // the previous byte is an unquoted <
	inWord  bool  // the previous byte is part of a word (so # is not a comment)
	comment bool  // in a comment, up to the newline
	brace   uint8 // in ${name}: 1 just after ${, 2 in the name
	caseAt  uint8 // letters of the word "case" just read
}

func (r *shellReader) top() frame { return r.frames[r.n] }

func (r *shellReader) push(f frame) {
	if r.n+1 >= maxFrames {
		r.opaque = "text nested too deep"
		return
	}
	r.n++
	r.frames[r.n] = f
	if f == frameBack {
		r.backs++
	}
}

func (r *shellReader) pop() {
	if r.n == 0 {
		return
	}
	if r.frames[r.n] == frameBack {
		r.backs--
	}
	r.n--
}

// text follows the bytes of s.
func (r *shellReader) text(s string) {
	for i := 0; i < len(s) && r.opaque == ""; i++ {
		r.step(s[i])
	}
}

// step follows one byte of the text.
func (r *shellReader) step(c byte) {
	if r.esc {
		r.esc, r.inWord = false, true
		return
	}
	if r.dollar {
		r.dollar = false
		if r.afterDollar(c) {
			return
		}
	}
	if r.cmdOpen {
		r.cmdOpen = false
		if c == '(' {
			r.opaque = "$((...))"
			return
		}
	}
	if r.brace != 0 {
		r.inBrace(c)
		return
	}
	switch r.top() {
	case frameSingle:
		if c == '\'' {
			r.pop()
		}
	case frameDouble:
		r.inDouble(c)
	case frameBack:
		switch c {
		case '\\':
			r.esc = true
		case '`':
			r.pop()
		}
	default:
		r.unquoted(c)
	}
}

// afterDollar follows the byte after a $, reporting whether it has been
// dealt with.
func (r *shellReader) afterDollar(c byte) bool {
	quoted := r.top() == frameDouble
	switch {
	case c == '(':
		r.push(frameCmd)
		r.cmdOpen = true
		r.inWord, r.caseAt = false, 0 // a new command begins
		return true
	case c == '{':
		r.brace = 1
	case c == '[':
		r.opaque = "$[...]"
	case c == '\'' && !quoted:
		r.opaque = "$'...'"
	default:
		return false
	}
	r.inWord = true
	return true
}

// inBrace follows ${name}: anything else in braces is opaque.
func (r *shellReader) inBrace(c byte) {
	switch {
	case c == '}' && r.brace == 2:
		r.brace = 0
	case isNameByte(c) && (r.brace == 2 || !isDigit(c)):
		r.brace = 2
	default:
		r.opaque = "${...}"
	}
}

func (r *shellReader) inDouble(c byte) {
	switch c {
	case '\\':
		r.esc = true
	case '"':
		r.pop()
	case '$':
		r.dollar = true
	case '`':
		r.push(frameBack)
	}
}

// unquoted follows a byte outside quotes, at the top or inside $(...).
func (r *shellReader) unquoted(c byte) {
	if r.comment {
		if c == '\n' {
			r.comment = false
		}
		return
	}
	lt, word := r.lt, r.inWord
	r.lt = false
	switch c {
	case ' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')':
		r.endWord(word)
		r.operator(c, lt)
		return
	case '#':
		if !word {
			r.comment = true
			return
		}
	case '\\':
		r.esc = true
	case '\'':
		r.push(frameSingle)
	case '"':
		r.push(frameDouble)
	case '`':
		r.push(frameBack)
	case '$':
		r.dollar = true
	}
	r.inWord = true
	r.word(c, word)
}

// operator follows a blank or an operator byte outside quotes.
func (r *shellReader) operator(c byte, lt bool) {
	r.inWord = false
	switch c {
	case '(':
		r.push(frameParen)
	case ')':
		switch r.top() {
		case frameCmd:
			r.pop()
			r.inWord = true // the word goes on after $(...)
		case frameParen:
			r.pop()
		}
	case '<':
		if lt {
			r.opaque = "a here-document"
		}
		r.lt = true
	}
}

// word follows a byte of an unquoted word, matching it against "case".
func (r *shellReader) word(c byte, continues bool) {
	const kw = "case"
	if !continues {
		r.caseAt = 0
	}
	if int(r.caseAt) < len(kw) && c == kw[r.caseAt] {
		r.caseAt++
		return
	}
	r.caseAt = uint8(len(kw)) + 1 // not the keyword
}

// endWord is called where a word may end. The reader cannot tell the ")"
// of a case pattern from the end of $(...) or (...), so "case" inside
// them makes the rest opaque.
func (r *shellReader) endWord(word bool) {
	if word && r.caseAt == 4 {
		for _, f := range r.frames[1 : r.n+1] {
			if f == frameCmd || f == frameParen {
				r.opaque = "case inside (...)"
			}
		}
	}
	r.caseAt = 0
}

// context says where a value put in now stands, and if opaque, why.
func (r *shellReader) context() (shellContext, string) {
	switch {
	case r.opaque != "":
		return ctxOpaque, r.opaque
	case r.backs > 0:
		return ctxOpaque, "backquotes"
	case r.dollar:
		return ctxOpaque, "right after $"
	case r.brace != 0:
		return ctxOpaque, "${...}"
	}
	switch r.top() {
	case frameSingle:
		return ctxSingle, ""
	case frameDouble:
		return ctxDouble, ""
	}
	if r.comment {
		return ctxComment, ""
	}
	return ctxWord, ""
}

// afterValue is where a value leaves the reader: the value is text, so
// only what the bytes before it were waiting for changes.
func (r *shellReader) afterValue() {
	if r.brace != 0 && r.opaque == "" {
		r.opaque = "${...}"
	}
	r.esc, r.dollar, r.cmdOpen, r.lt, r.caseAt = false, false, false, false, 0
	if !r.comment {
		r.inWord = true
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isNameByte(c byte) bool {
	return c == '_' || isDigit(c) || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// isPlainByte reports whether c means nothing to the shell wherever it
// stands in a word.
func isPlainByte(c byte) bool {
	switch c {
	case '_', '.', '/', ':', '@', '%', '+', '-':
		return true
	}
	return isNameByte(c)
}

// plain reports whether v is not empty and has only plain bytes.
func plain(v []byte) bool {
	for _, c := range v {
		if !isPlainByte(c) {
			return false
		}
	}
	return len(v) > 0
}

// QuoteError says why a value could not be put into a shell action.
type QuoteError struct {
	Value string
	Where string // "backquotes", "a comment", ...
}

func (e *QuoteError) Error() string {
	return "value " + strconv.Quote(e.Value) + " cannot be quoted safely inside " + e.Where
}

// ShellQuoter puts values into a shell action's text so that the shell
// reads each back as exactly its text (see the rules above). Begin starts
// a text; Literal appends the action's own text and Value one value,
// quoted for where it stands. A ShellQuoter serves one expansion at a
// time.
type ShellQuoter struct {
	r shellReader
}

// Begin starts a new text.
func (q *ShellQuoter) Begin() { q.r = shellReader{} }

// Opaque says why only plain values may go where the text has reached, or
// "" if any value may.
func (q *ShellQuoter) Opaque() string {
	if ctx, where := q.r.context(); ctx == ctxOpaque {
		return where
	}
	return ""
}

// Literal appends s, text of the action itself, to b.
func (q *ShellQuoter) Literal(b []byte, s string) []byte {
	q.r.text(s)
	return append(b, s...)
}

// Value appends v quoted for where it stands. A value that cannot be put
// there safely is appended as it is, with a *QuoteError: the text must
// not be run.
func (q *ShellQuoter) Value(b, v []byte) ([]byte, error) {
	r := &q.r
	ctx, where := r.context()
	if r.esc && ctx != ctxOpaque {
		if len(v) == 0 {
			// the backslash escapes whatever the text has next, as in pmie
			return b, nil
		}
		b = append(b, v[0])
		v = v[1:]
	}
	r.afterValue()
	switch ctx {
	case ctxWord:
		return appendWord(b, v), nil
	case ctxSingle:
		return appendInSingle(b, v), nil
	case ctxDouble:
		return appendInDouble(b, v), nil
	case ctxComment:
		for _, c := range v {
			if c == '\n' {
				return append(b, v...), &QuoteError{Value: string(v), Where: "a comment"}
			}
		}
		return append(b, v...), nil
	}
	if len(v) == 0 || plain(v) {
		return append(b, v...), nil
	}
	return append(b, v...), &QuoteError{Value: string(v), Where: where}
}

// appendWord appends v as one word outside quotes.
func appendWord(b, v []byte) []byte {
	if plain(v) {
		return append(b, v...)
	}
	b = append(b, '\'')
	b = appendInSingle(b, v)
	return append(b, '\'')
}

// appendInSingle appends v between single quotes.
func appendInSingle(b, v []byte) []byte {
	for _, c := range v {
		if c == '\'' {
			b = append(b, `'\''`...)
			continue
		}
		b = append(b, c)
	}
	return b
}

// appendInDouble appends v between double quotes.
func appendInDouble(b, v []byte) []byte {
	for _, c := range v {
		switch c {
		case '$', '`', '"', '\\':
			b = append(b, '\\')
		}
		b = append(b, c)
	}
	return b
}
