package actions

import "strings"

// shellContext is where a value stands in a shell action's text.
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

// wordState is what a frame keeps of the word and command it opens in.
type wordState struct{ cmdArgs, hasEq bool }

// maxFrames bounds the nesting followed; deeper text is opaque.
const maxFrames = 16

// shellReader follows the syntax of a shell command over the text given
// to text, a byte at a time, far enough to say where a value put in next
// stands. Its zero value is at the start of a command.
type shellReader struct {
	frames [maxFrames]frame     // frames[0] is frameTop
	saved  [maxFrames]wordState // the word state when each frame opened
	n      int                  // frames open above the top
	backs  int                  // backquote frames open
	// opaque, once set, says why the rest of the text is not followed.
	opaque string

	esc     bool  // the previous byte is a backslash escaping this one
	dollar  bool  // the previous byte is an unescaped $
	cmdOpen bool  // the previous bytes are $(
	op      byte  // the previous byte, if an unquoted ( or <
	comment bool  // in a comment, up to the newline
	brace   uint8 // in ${name}: 1 just after ${, 2 in the name

	// cmdArgs is set once the current simple command's name has been
	// read: the words after it are its arguments.
	cmdArgs bool
	inWord  bool // an unquoted word is being read (so # is no comment)
	hasEq   bool // the word holds an unquoted =
	named   bool // the word begins with a letter, _ or a value, as a name may
	// word is the word's bytes while it could be a keyword; wordLen is
	// len(word)+1 when it cannot.
	word    [10]byte
	wordLen uint8
}

func (r *shellReader) top() frame { return r.frames[r.n] }

func (r *shellReader) push(f frame) {
	if r.n+1 >= maxFrames {
		r.opaque = "in text nested too deep"
		return
	}
	r.n++
	r.frames[r.n] = f
	r.saved[r.n] = wordState{r.cmdArgs, r.hasEq}
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
	r.cmdArgs, r.hasEq = r.saved[r.n].cmdArgs, r.saved[r.n].hasEq
	r.n--
}

// text follows the bytes of s.
func (r *shellReader) text(s string) {
	for i := 0; i < len(s) && r.opaque == ""; i++ {
		if r.top() == frameSingle {
			// nothing but the closing quote counts
			j := strings.IndexByte(s[i:], '\'')
			if j < 0 {
				return
			}
			i += j
		}
		r.step(s[i])
	}
}

// step follows one byte of the text.
func (r *shellReader) step(c byte) {
	if r.esc {
		r.esc = false
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
			r.opaque = "inside $((...))"
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
	switch {
	case c == '(':
		r.push(frameCmd)
		r.cmdOpen = true
		r.cmdArgs, r.inWord = false, false // a new command begins
	case c == '{':
		r.brace = 1
	case c == '[':
		r.opaque = "inside $[...]"
	case c == '\'' && r.top() != frameDouble:
		r.opaque = "inside $'...'"
	default:
		return false
	}
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
		r.opaque = "inside ${...}"
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

// unquoted follows a byte outside quotes, at the top or inside (...).
func (r *shellReader) unquoted(c byte) {
	if r.comment {
		if c == '\n' {
			r.comment = false
			r.cmdArgs = false
		}
		return
	}
	prev := r.op
	r.op = 0
	switch c {
	case ' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')':
		if r.inWord {
			r.endWord()
		}
		r.operator(c, prev)
		return
	case '#':
		if !r.inWord {
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
	r.wordByte(c)
}

// operator follows a blank or an operator byte outside quotes.
func (r *shellReader) operator(c, prev byte) {
	switch c {
	case ';', '&', '|', '\n':
		r.cmdArgs = false
	case '(':
		if prev == '(' {
			r.opaque = "inside ((...))" // bash's arithmetic
		}
		r.push(frameParen)
		r.cmdArgs = false
		r.op = c
	case ')':
		switch r.top() {
		case frameCmd:
			r.pop()
			r.inWord, r.wordLen = true, cannotBeKeyword // the word goes on after $(...)
		case frameParen:
			r.pop()
			r.cmdArgs = false // a case pattern: a command follows
		}
	case '<':
		if prev == '<' {
			r.opaque = "in a here-document"
		}
		r.op = c
	}
}

// cannotBeKeyword is wordLen for a word that is no keyword.
const cannotBeKeyword = uint8(len(shellReader{}.word)) + 1

// startWord begins an unquoted word whose first byte is c (0: a value).
func (r *shellReader) startWord(c byte) {
	r.inWord, r.hasEq, r.wordLen = true, false, 0
	r.named = c == 0 || c == '_' || (isNameByte(c) && !isDigit(c))
}

// wordByte follows a byte of an unquoted word. In a command's first words
// (where assignments go), a [ after the start of a word that may begin
// with a name may open an array subscript, which bash evaluates as
// arithmetic, running any $(...) in it however quoted.
func (r *shellReader) wordByte(c byte) {
	if !r.inWord {
		r.startWord(c)
	} else if c == '[' && r.named && !r.cmdArgs {
		r.opaque = "inside name[...] (a possible array subscript)"
	}
	if c == '=' {
		r.hasEq = true
	}
	n := int(r.wordLen)
	if n < len(r.word) && (isNameByte(c) || c == '[' || c == '-' || c == '!' || c == '{') {
		r.word[n] = c
		r.wordLen++
		return
	}
	r.wordLen = cannotBeKeyword
}

// opaqueWords are words after which the rest of the text is opaque: bash
// runs the arguments of these as code, or evaluates them as arithmetic or
// as names that may hold subscripts, however quoted.
var opaqueWords = [...]string{"[[", "eval", "trap", "let", "declare", "typeset", "local",
	"readonly", "export", "read", "unset", "mapfile", "readarray", "getopts", "-v"}

// leadWords are the keywords after which a command's name still comes.
var leadWords = [...]string{"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"}

// endWord looks at the word that has just ended.
func (r *shellReader) endWord() {
	r.inWord = false
	var w []byte
	if r.wordLen <= uint8(len(r.word)) {
		w = r.word[:r.wordLen]
	}
	lead := false
	for _, k := range leadWords {
		lead = lead || string(w) == k
	}
	if string(w) == "case" {
		// the reader cannot tell the ")" of a case pattern from the end
		// of (...) or $(...)
		for _, f := range r.frames[1 : r.n+1] {
			if f == frameCmd || f == frameParen {
				r.opaque = "after case inside (...)"
			}
		}
	}
	for _, k := range opaqueWords {
		if string(w) == k {
			r.opaque = "in the arguments of " + k
		}
	}
	if !lead && !r.hasEq {
		// the command's name: assignments come before it
		r.cmdArgs = true
	}
}

// context says where a value put in now stands, and if opaque, why.
func (r *shellReader) context() (shellContext, string) {
	switch {
	case r.opaque != "":
		return ctxOpaque, r.opaque
	case r.backs > 0:
		return ctxOpaque, "inside backquotes"
	case r.dollar:
		return ctxOpaque, "right after $"
	case r.brace != 0:
		return ctxOpaque, "inside ${...}"
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
// only what the bytes before it were waiting for changes, and a word
// holding a value is no keyword.
func (r *shellReader) afterValue() {
	if r.brace != 0 && r.opaque == "" {
		r.opaque = "inside ${...}"
	}
	r.esc, r.dollar, r.cmdOpen, r.op = false, false, false, 0
	if r.comment {
		return
	}
	if !r.inWord {
		r.startWord(0)
	}
	r.wordLen = cannotBeKeyword
}
