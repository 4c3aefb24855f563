package lang

import (
	"strconv"
	"strings"
)

// The pmie token scanner, faithful to pmie 6.0.3:
//
//   - /* */ and // comments; no # comments (a "#" is the instance operator);
//   - identifiers are a letter followed by letters, digits, ".", "_"; a
//     backslash takes the next character literally; 'quoted' identifiers
//     take anything up to the closing quote; $name inside an identifier
//     splices in a string macro;
//   - a word that is a scale keyword (optionally with one trailing "s") is
//     a unit, wherever it appears: byte, sec, count ... are reserved;
//   - some_inst, all_host, sum_sample, count_inst, 75%_inst ... are a
//     quantifier or aggregate token followed by a domain token;
//   - numbers: digits, an optional fraction, an optional exponent, and a
//     "-" followed by more digits which is scanned but ignored (pmie reads
//     "10-2" as 10);
//   - strings are "..." with C escapes; $name inside a string splices in a
//     string macro's text (which is scanned as part of the string, so a '"'
//     in it ends the string); \$ is a literal $;
//   - $name outside strings splices in a string macro's text, or is a
//     value token for a numeric or boolean macro;
//   - ";" or "}" ends a statement, and when the next non-blank character
//     is "." all remaining input is ignored;
//   - "/" followed by a unit word is the "per" of a scale factor.

// unitWords are pmie's scale keywords: dimension (0 space, 1 time, 2
// count) and PCP scale code.
var unitWords = map[string][2]int{
	"byte": {0, 0}, "Kbyte": {0, 1}, "Mbyte": {0, 2}, "Gbyte": {0, 3}, "Tbyte": {0, 4},
	"nsec": {1, 0}, "usec": {1, 1}, "msec": {1, 2}, "sec": {1, 3}, "min": {1, 4}, "hour": {1, 5},
	"count": {2, 0}, "Kcount": {2, 3}, "Mcount": {2, 6},
	"nanosec": {1, 0}, "nanosecond": {1, 0}, "microsec": {1, 1}, "microsecond": {1, 1},
	"millisec": {1, 2}, "millisecond": {1, 2}, "second": {1, 3}, "minute": {1, 4},
}

// macroKind is what a pmie macro holds.
type macroKind uint8

const (
	macroString   macroKind = iota // expanded as text
	macroNumber                    // a numeric constant: a value token
	macroBool                      // a boolean constant: a value token
	macroReserved                  // $delta, $minute ...: a value token
)

type macroDef struct {
	kind  macroKind
	text  string // macroString: the value
	value Expr   // the constant (nil for reserved macros)
	def   Span   // the definition's value in the file
}

// pmieLexer scans tokens. Messages it prints, as pmie's scanner does, go
// to the session.
type pmieLexer struct {
	rd         charReader
	s          *pmieSession
	ahead      *token // the domain token after a quantifier
	expansions int    // macro expansions while scanning this token
	// word's buffers, kept from word to word: the text of the word and
	// the characters it was read from
	text  []byte
	chars []pchar
}

func (lx *pmieLexer) next() token {
	lx.expansions = 0
	if lx.ahead != nil {
		t := *lx.ahead
		lx.ahead = nil
		return t
	}
	ch := lx.rd.nextc()
	behind := pchar{c: 0}
	for ch.c != eofc {
		for cIsSpace(ch.c) {
			ch = lx.rd.nextc()
		}
		if ch.c == '/' {
			if lx.comment(&ch) {
				continue
			}
		}
		if cIsAlpha(ch.c) || ch.c == '\'' || ch.c == '%' {
			return lx.word(ch, behind)
		}
		if behind.c != 0 {
			lx.rd.prevc(ch)
			return lx.tok(tkPunct, "/", behind, behind)
		}
		if ch.c == '.' {
			d := lx.rd.nextc()
			if cIsDigit(d.c) {
				lx.rd.prevc(ch)
				lx.rd.prevc(d)
				return lx.number(pchar{c: '0', start: ch.start, end: ch.end, from: ch.from})
			}
			// pmie pushes the character after a lone "." back but goes on
			// with it in hand: the "." is lost and that character is seen
			// twice (so ".." still scans as "..").
			lx.rd.prevc(d)
			ch = d
		}
		if cIsDigit(ch.c) {
			return lx.number(ch)
		}
		if ch.c == '"' {
			return lx.str(ch)
		}
		if t, more, again := lx.operator(&ch, &behind); !more {
			return t
		} else if again {
			continue
		}
		if ch.c == eofc {
			break
		}
		return lx.tok(tkPunct, string([]byte{byte(ch.c)}), ch, ch)
	}
	return lx.tok(tkEOF, "", ch, ch)
}

// comment skips a comment starting at ch ("/"), reporting whether there
// was one; ch is left on the character after it.
func (lx *pmieLexer) comment(ch *pchar) bool {
	d := lx.rd.nextc()
	if d.c == '*' {
		c := lx.rd.nextc()
		for c.c != eofc {
			d := lx.rd.nextc()
			if c.c == '*' && d.c == '/' {
				c = lx.rd.nextc()
				break
			}
			c = d
		}
		*ch = c
		return true
	}
	lx.rd.prevc(d)
	d = lx.rd.nextc()
	if d.c == '/' {
		c := lx.rd.nextc()
		for c.c != '\n' && c.c != eofc {
			c = lx.rd.nextc()
		}
		*ch = c
		return true
	}
	lx.rd.prevc(d)
	return false
}

func (lx *pmieLexer) tok(kind tokKind, val string, first, last pchar) token {
	return token{kind: kind, val: val, start: first.start, end: max(last.end, first.start), from: first.from}
}

// operator scans the operator at ch. more is false when a token is
// returned; again asks the caller to rescan from ch (after "/" or a
// string macro).
func (lx *pmieLexer) operator(ch, behind *pchar) (t token, more, again bool) {
	c := *ch
	two := func(second int, both, one string) token {
		d := lx.rd.nextc()
		if d.c == second {
			return lx.tok(tkPunct, both, c, d)
		}
		lx.rd.prevc(d)
		return lx.tok(tkPunct, one, c, c)
	}
	switch c.c {
	case ';', '}':
		d := lx.rd.nextc()
		for cIsSpace(d.c) {
			d = lx.rd.nextc()
		}
		if d.c == '.' {
			lx.rd.stop()
		} else {
			lx.rd.prevc(d)
		}
		return lx.tok(tkEOF, string(rune(c.c)), c, c), false, false
	case '$':
		name, end, ok := lx.macroName(c)
		if !ok {
			return lx.tok(tkEOF, "", c, c), false, false
		}
		m := lx.s.lookupMacro(name, c, end)
		switch {
		case m == nil:
			lx.rd.sync()
			return lx.tok(tkEOF, "", c, c), false, false
		case m.kind == macroString:
			if !lx.expand(name, m, c, end) {
				return lx.tok(tkEOF, "", c, c), false, false
			}
			*ch = lx.rd.nextc()
			return token{}, true, true
		}
		t := lx.tok(tkVar, name, c, c)
		t.end, t.macro = end, m
		return t, false, false
	case '/':
		*behind = c
		*ch = lx.rd.nextc()
		return token{}, true, true
	case '-':
		return two('>', "->", "-"), false, false
	case '=':
		return two('=', "==", "="), false, false
	case '!':
		return two('=', "!=", "!"), false, false
	case '<':
		return two('=', "<=", "<"), false, false
	case '>':
		return two('=', ">=", ">"), false, false
	case '&':
		return two('&', "&&", "&"), false, false
	case '|':
		return two('|', "||", "|"), false, false
	case '.':
		return two('.', "..", "."), false, false
	}
	return token{}, true, false
}

// macroName reads the name after "$" (which is at c): letters, digits and
// "_", or anything between single quotes. On error it prints pmie's
// message, resynchronises and reports false.
func (lx *pmieLexer) macroName(dollar pchar) (name string, end int, ok bool) {
	ch := lx.rd.nextc()
	var quote int
	if ch.c == '\'' {
		quote = '\''
		ch = lx.rd.nextc()
	}
	if !cIsAlpha(ch.c) {
		lx.s.lexError(dollar, ch, "macro name must begin with an alphabetic (not '"+string([]byte{byte(ch.c)})+"')", false)
		lx.rd.sync()
		return "", 0, false
	}
	var text []byte
	for {
		if ch.c == '\\' {
			ch = lx.rd.nextc()
		}
		text = append(text, byte(ch.c))
		end = ch.end
		ch = lx.rd.nextc()
		if len(text) >= lexMax || ch.c == eofc ||
			!(cIsAlpha(ch.c) || cIsDigit(ch.c) || ch.c == '_' || (quote != 0 && ch.c != quote)) {
			break
		}
	}
	if len(text) == lexMax {
		lx.s.lexError(dollar, ch, "macro name too long: $"+string(text[:20])+"...", false)
		lx.rd.sync()
		return "", 0, false
	}
	if ch.c == eofc {
		lx.s.lexError(dollar, ch, "unexpected end of file in macro name: $"+string(text), false)
		lx.rd.sync()
		return "", 0, false
	}
	if quote == 0 {
		lx.rd.prevc(ch)
	} else {
		end = ch.end
	}
	if dollar.from != nil {
		end = dollar.end
	}
	return string(text), end, true
}

// maxExpansions bounds the macro expansions while scanning one token.
// pmie has no bound: a macro whose value is "\$itself" makes it expand
// forever. We stop instead.
const maxExpansions = 1000

// expand starts reading a string macro's value in place of $name, which
// runs from dollar to end. It reports false when expansion does not end.
func (lx *pmieLexer) expand(name string, m *macroDef, dollar pchar, end int) bool {
	lx.expansions++
	if lx.expansions > maxExpansions || len(lx.rd.inputs) > maxExpansions {
		lx.s.lexError(dollar, pchar{c: 0, start: dollar.start, end: end},
			"macro $"+name+" expands without end", false)
		lx.rd.sync()
		return false
	}
	exp := &Expansion{Macro: name, Def: m.def, Outer: dollar.from, Ref: lx.s.src.Span(dollar.start, end)}
	ref := dollar
	ref.end = end
	lx.rd.pushMacro(exp, m.text, ref)
	return true
}

// stringMacro expands $name inside an identifier or a string, where only
// string macros may appear. It reports false after an error (the scanner
// then ends the statement).
func (lx *pmieLexer) stringMacro(dollar pchar) bool {
	name, end, ok := lx.macroName(dollar)
	if !ok {
		return false
	}
	m := lx.s.lookupMacro(name, dollar, end)
	if m == nil {
		lx.rd.sync()
		return false
	}
	if m.kind != macroString {
		lx.s.lexError(dollar, dollar, "macro $"+name+" not string valued as expected", true)
		lx.rd.sync()
		return false
	}
	return lx.expand(name, m, dollar, end)
}

// word scans an identifier, unit, quantifier or reserved word starting at
// first. behind is a "/" read just before it (c == 0 if none).
func (lx *pmieLexer) word(first, behind pchar) token {
	quoted := first.c == '\''
	ch := first
	if quoted {
		ch = lx.rd.nextc()
	}
	text, chars := lx.text[:0], lx.chars[:0]
	defer func() { lx.text, lx.chars = text[:0], chars[:0] }()
	last := first
	for {
		if ch.c == '$' {
			if !lx.stringMacro(ch) {
				return lx.tok(tkEOF, "", ch, ch)
			}
			ch = lx.rd.nextc()
		} else {
			if ch.c == '\\' {
				ch = lx.rd.nextc()
			}
			text = append(text, byte(ch.c))
			chars = append(chars, ch)
			last = ch
			ch = lx.rd.nextc()
		}
		if len(text) >= lexMax || !(cIsAlpha(ch.c) || cIsDigit(ch.c) || ch.c == '.' || ch.c == '_' ||
			ch.c == '\\' || ch.c == '$' || (quoted && ch.c != '\'')) {
			break
		}
	}
	if quoted {
		last = ch
		ch = lx.rd.nextc()
	}
	word := string(text)
	if !quoted {
		key := word
		if strings.HasSuffix(key, "s") {
			key = key[:len(key)-1]
		}
		if u, ok := unitWords[key]; ok {
			if behind.c != 0 {
				lx.pushBack(chars, ch)
				return lx.tok(tkUnit, "/", behind, behind)
			}
			lx.rd.prevc(ch)
			t := lx.tok(tkUnit, word, first, last)
			t.unit = u
			return t
		}
	}
	if behind.c != 0 {
		lx.pushBack(chars, ch)
		return lx.tok(tkPunct, "/", behind, behind)
	}
	lx.rd.prevc(ch)
	if !quoted {
		if i := strings.IndexByte(word, '_'); i >= 0 && isDomainWord(word) {
			t := lx.tok(tkKeyword, word[:i+1], first, last)
			d := lx.tok(tkKeyword, word[i:], first, last)
			lx.ahead = &d
			return t
		}
		if pmieReserved[word] {
			return lx.tok(tkKeyword, word, first, last)
		}
	}
	kind := tkName
	if quoted {
		kind = tkQuoted
	}
	return lx.tok(kind, word, first, last)
}

// pushBack puts a scanned word (as its characters, now plain text) and the
// character after it back, to be scanned again.
func (lx *pmieLexer) pushBack(chars []pchar, after pchar) {
	for _, c := range chars {
		lx.rd.prevc(c)
	}
	lx.rd.prevc(after)
}

// number scans a number starting at first (a digit, or a fake "0" before
// ".5").
func (lx *pmieLexer) number(first pchar) token {
	var text []byte
	flote := 0
	ch := first
	last := first
	for {
		text = append(text, byte(ch.c))
		last = ch
		ch = lx.rd.nextc()
		if flote == 0 && ch.c == '.' && len(text) < lexMax {
			dot := ch
			ch = lx.rd.nextc()
			if ch.c == '.' {
				lx.rd.prevc(ch)
			} else {
				flote = 1
				text = append(text, '.')
				last = dot
			}
		}
		if flote <= 1 && len(text) < lexMax && (ch.c == 'e' || ch.c == 'E') {
			flote = 2
			text = append(text, byte(ch.c))
			last = ch
			ch = lx.rd.nextc()
		}
		if flote <= 2 && ch.c == '-' && len(text) < lexMax {
			flote = 3
			text = append(text, '-')
			last = ch
			ch = lx.rd.nextc()
		}
		if !cIsDigit(ch.c) || len(text) >= lexMax {
			break
		}
	}
	lx.rd.prevc(ch)
	t := lx.tok(tkFloat, string(text), first, last)
	t.num = strtod(string(text))
	return t
}

// strtod converts the longest prefix of s that is a number, as C's strtod.
func strtod(s string) float64 {
	for end := len(s); end > 0; end-- {
		if v, err := strconv.ParseFloat(s[:end], 64); err == nil || isRangeErr(err) {
			return v
		}
	}
	return 0
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// str scans a string; open is the opening quote.
func (lx *pmieLexer) str(open pchar) token {
	var val []byte
	ch := lx.rd.nextc()
	last := open
	for ch.c != '"' && ch.c != eofc && len(val) < lexMax {
		esc := false
		if ch.c == '\\' {
			esc = true
			ch = lx.rd.nextc()
			switch ch.c {
			case 'n':
				ch.c = '\n'
			case 't':
				ch.c = '\t'
			case 'v':
				ch.c = '\v'
			case 'b':
				ch.c = '\b'
			case 'r':
				ch.c = '\r'
			case 'f':
				ch.c = '\f'
			case 'a':
				ch.c = '\a'
			}
		}
		if ch.c == '$' && !esc {
			if !lx.stringMacro(ch) {
				return lx.tok(tkEOF, "", ch, ch)
			}
			ch = lx.rd.nextc()
		}
		val = append(val, byte(ch.c))
		last = ch
		ch = lx.rd.nextc()
	}
	if ch.c == '"' {
		last = ch
	}
	return lx.tok(tkString, string(val), open, last)
}
