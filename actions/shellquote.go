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
// reader follows are opaque: only plain values may go there, and any other
// makes the action fail rather than run. They are: inside backquotes,
// ${...} other than ${name}, $((...)), $[...] and $'...'; right after a $;
// here-documents; case inside (...) or $(...); and what bash evaluates as
// arithmetic or code however quoted: ((...)), [[...]], a word at a
// command's start with [ in it (an array subscript), and the arguments of
// eval, trap, let, declare, typeset, local, readonly, export, read, unset,
// mapfile, readarray, getopts and of any option -v (printf -v, test -v).
// Each stays opaque to the end of the text (backquotes to their end).
//
// For plain values the text is exactly pmie's. What a command does with
// the text it is given (sh -c, ssh, su -c run it as code) is its own.

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
	Where string // "inside backquotes", "in a comment", ...
}

func (e *QuoteError) Error() string {
	return "value " + strconv.Quote(e.Value) + " cannot be quoted safely " + e.Where
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
	if len(v) == 0 && (r.esc || ctx == ctxOpaque || ctx == ctxComment) {
		// nothing goes in: the text reads on as if the value were not
		// there (a backslash escapes what the text has next), as in pmie
		return b, nil
	}
	if r.esc && ctx != ctxOpaque {
		b = append(b, v[0]) // the byte the backslash escapes
		if v = v[1:]; len(v) == 0 {
			r.afterValue()
			return b, nil
		}
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
				return append(b, v...), &QuoteError{Value: string(v), Where: "in a comment"}
			}
		}
		return append(b, v...), nil
	}
	if plain(v) {
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
