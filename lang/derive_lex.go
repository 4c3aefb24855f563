package lang

import (
	"sort"
	"strings"
)

// The scanner for derived-metric expressions. It follows libpcp 6.0.3's
// tokenisation exactly, because that decides which expressions are legal:
//
//   - names are a letter followed by letters, digits, "_" and "."; a name
//     that is one of libpcp's function names and is written straight before
//     "(" is a function token, so "avg (x)" is a name followed by "(";
//     "type", "semantics" and "units" are always reserved;
//   - integers are digits, at most 2^32-1 ("Constant value too large");
//     a "." makes a floating constant, which has no exponent, and a lone
//     "." is the floating constant 0;
//   - "[...]" is an instance name up to the first unescaped "]", and
//     backslash escapes any character;
//   - inside matchinst( a "/" starts a pattern up to the next unescaped "/".
//     libpcp turns this mode on when it scans "matchinst(" and off only when
//     a whole matchinst(...) has been parsed, so after a syntax error inside
//     one it stays on, even for later expressions (DerivedParser keeps it);
//   - strings are "..." with no escapes.

// derivedFuncs are the names libpcp scans as functions when "(" follows.
var derivedFuncs = map[string]bool{
	"avg": true, "count": true, "delta": true, "max": true, "min": true, "sum": true,
	"anon": true, "rate": true, "instant": true, "mkconst": true, "rescale": true,
	"defined": true, "matchinst": true, "scalar": true,
}

// DerivedFunctions lists, sorted, the names libpcp scans as functions in
// a derived-metric expression when "(" follows. mkconst and matchinst parse
// as their own nodes (MkConst, MatchInst); the others as Call, whose
// meaning is derive's.
func DerivedFunctions() []string {
	names := make([]string, 0, len(derivedFuncs))
	for n := range derivedFuncs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// derivedKeywords are the tags of mkconst's parameters, reserved everywhere.
var derivedKeywords = map[string]bool{"type": true, "semantics": true, "units": true}

type derivedLexer struct {
	src         string
	off         int
	inMatchinst *bool
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

func (l *derivedLexer) peekc(i int) byte {
	if l.off+i < len(l.src) {
		return l.src[l.off+i]
	}
	return 0
}

// next scans the next token.
func (l *derivedLexer) next() token {
	for l.off < len(l.src) && isSpace(l.src[l.off]) {
		l.off++
	}
	start := l.off
	if l.off >= len(l.src) {
		return token{kind: tkEOF, start: start, end: start}
	}
	c := l.src[l.off]
	switch {
	case isDigit(c) || c == '.':
		return l.number()
	case isAlpha(c):
		return l.name()
	case c == '"':
		return l.delimited(tkString, '"', false, "unterminated STRING")
	case c == '[':
		return l.delimited(tkInstName, ']', true, "unterminated instance name")
	case c == '/' && *l.inMatchinst:
		return l.delimited(tkPattern, '/', true, "unterminated pattern")
	}
	l.off++
	switch c {
	case '+', '-', '*', '/', '(', ')', '?', ':', ',':
	case '<', '>', '!', '=':
		if l.peekc(0) == '=' {
			l.off++
		}
	case '&', '|':
		if l.peekc(0) != c {
			return token{kind: tkError, start: start, end: l.off, err: "Illegal character"}
		}
		l.off++
	default:
		return token{kind: tkError, start: start, end: l.off, err: "Illegal character"}
	}
	// the operator is its text: "<", "<=", "=", "==", "&&" ...
	return token{kind: tkPunct, val: l.src[start:l.off], start: start, end: l.off}
}

func (l *derivedLexer) number() token {
	start := l.off
	float := false
	for l.off < len(l.src) {
		c := l.src[l.off]
		if c == '.' && !float {
			float = true
		} else if !isDigit(c) {
			break
		}
		l.off++
	}
	lit := l.src[start:l.off]
	if float {
		return token{kind: tkFloat, val: lit, start: start, end: l.off}
	}
	if !fitsU32(lit) {
		return token{kind: tkError, start: start, end: l.off, err: "Constant value too large"}
	}
	return token{kind: tkInt, val: lit, start: start, end: l.off}
}

// fitsU32 reports whether the decimal digits in s are at most 2^32-1.
func fitsU32(s string) bool {
	var v uint64
	for i := 0; i < len(s); i++ {
		v = v*10 + uint64(s[i]-'0')
		if v > 0xffffffff {
			return false
		}
	}
	return true
}

func (l *derivedLexer) name() token {
	start := l.off
	for l.off < len(l.src) {
		c := l.src[l.off]
		if !isAlnum(c) && c != '_' && c != '.' {
			break
		}
		l.off++
	}
	name := l.src[start:l.off]
	if l.peekc(0) == '(' && derivedFuncs[name] {
		if name == "matchinst" {
			*l.inMatchinst = true
		}
		return token{kind: tkFunc, val: name, start: start, end: l.off}
	}
	if derivedKeywords[name] {
		return token{kind: tkKeyword, val: name, start: start, end: l.off}
	}
	return token{kind: tkName, val: name, start: start, end: l.off}
}

// delimited scans text from the opening delimiter at l.off up to close,
// removing backslashes (which escape the next character) if escapes is set.
// The value is a piece of the text itself unless there is a backslash to
// remove.
func (l *derivedLexer) delimited(kind tokKind, close byte, escapes bool, unterminated string) token {
	start := l.off
	l.off++
	if i := strings.IndexByte(l.src[l.off:], close); i >= 0 && (!escapes || strings.IndexByte(l.src[l.off:l.off+i], '\\') < 0) {
		l.off += i + 1
		return token{kind: kind, val: l.src[start+1 : l.off-1], start: start, end: l.off}
	}
	var val []byte
	for {
		if l.off >= len(l.src) {
			return token{kind: tkError, start: start, end: l.off, err: unterminated}
		}
		c := l.src[l.off]
		l.off++
		if escapes && c == '\\' {
			if l.off >= len(l.src) {
				return token{kind: tkError, start: start, end: l.off, err: unterminated}
			}
			val = append(val, l.src[l.off])
			l.off++
			continue
		}
		if c == close {
			return token{kind: kind, val: string(val), start: start, end: l.off}
		}
		val = append(val, c)
	}
}
