package posixre

// The parser reads a pattern as glibc's regcomp reads one with the syntax
// of REG_EXTENDED (RE_SYNTAX_POSIX_EXTENDED): anchors and repetition
// operators are special wherever they stand, a repetition operator where
// no expression precedes it is an error, an unmatched ")" is an ordinary
// character, back references and the GNU operators are available.

// tokKind is the kind of a token of a pattern outside brackets.
type tokKind uint8

const (
	tChar        tokKind = iota // an ordinary character
	tEnd                        // end of the pattern
	tAlt                        // |
	tStar                       // *
	tPlus                       // +
	tQuest                      // ?
	tOpenBrace                  // {
	tCloseBrace                 // }
	tOpenParen                  // (
	tCloseParen                 // )
	tOpenBracket                // [
	tPeriod                     // .
	tAnchor                     // ^ $ \< \> \b \B \` \'
	tBackref                    // \1 .. \9
	tClass                      // \w \W \s \S
	tBackslash                  // a backslash at the end
)

// token is one token: its kind, its character (tChar), anchor kind
// (tAnchor), group number (tBackref) or class (tClass).
type token struct {
	kind tokKind
	c    byte
	n    int
}

// parser holds the pattern, the position after the current token, and
// the groups seen.
type parser struct {
	src    string
	pos    int
	tok    token
	ngroup int
	done   uint32 // groups completed, for back references (\1..\9)
	nref   int    // back references seen
	used   uint32 // groups back references name
}

// next reads the next token.
func (p *parser) next() {
	if p.pos >= len(p.src) {
		p.tok = token{kind: tEnd}
		return
	}
	c := p.src[p.pos]
	p.pos++
	t := token{kind: tChar, c: c}
	switch c {
	case '|':
		t.kind = tAlt
	case '*':
		t.kind = tStar
	case '+':
		t.kind = tPlus
	case '?':
		t.kind = tQuest
	case '{':
		t.kind = tOpenBrace
	case '}':
		t.kind = tCloseBrace
	case '(':
		t.kind = tOpenParen
	case ')':
		t.kind = tCloseParen
	case '[':
		t.kind = tOpenBracket
	case '.':
		t.kind = tPeriod
	case '^':
		t = token{kind: tAnchor, n: aBOL}
	case '$':
		t = token{kind: tAnchor, n: aEOL}
	case '\\':
		t = p.escape()
	}
	p.tok = t
}

// escape reads what follows a backslash outside brackets.
func (p *parser) escape() token {
	if p.pos >= len(p.src) {
		return token{kind: tBackslash}
	}
	c := p.src[p.pos]
	p.pos++
	switch {
	case c >= '1' && c <= '9':
		return token{kind: tBackref, n: int(c - '1')}
	case c == 'w' || c == 'W' || c == 's' || c == 'S':
		return token{kind: tClass, c: c}
	}
	if a, ok := escAnchors[c]; ok {
		return token{kind: tAnchor, n: a}
	}
	return token{kind: tChar, c: c}
}

// escAnchors are the anchors written with a backslash.
var escAnchors = map[byte]int{'<': aWordFirst, '>': aWordLast, 'b': aWordDelim, 'B': aNotWordDelim, '`': aBufFirst, '\'': aBufLast}

// parse parses a whole pattern.
func parse(src string) (*node, error) {
	p := &parser{src: src}
	p.next()
	n, err := p.regexp(0)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// regexp is branch ("|" branch)*; an empty branch matches the empty
// string.
func (p *parser) regexp(nest int) (*node, error) {
	// a back reference may name only a group of its own branch, or one
	// completed before the alternatives began
	initial, accumulated := p.done, uint32(0)
	n, err := p.branch(nest)
	if err != nil {
		return nil, err
	}
	for p.tok.kind == tAlt {
		p.next()
		accumulated |= p.done
		p.done = initial
		var b *node
		if p.tok.kind != tAlt && p.tok.kind != tEnd && (nest == 0 || p.tok.kind != tCloseParen) {
			if b, err = p.branch(nest); err != nil {
				return nil, err
			}
		}
		n = &node{op: nAlt, kids: []*node{n, b}}
	}
	p.done |= accumulated
	return n, nil
}

// branch is a sequence of expressions, up to "|", the end, or (inside a
// group) ")".
func (p *parser) branch(nest int) (*node, error) {
	var kids []*node
	n, err := p.expression(nest)
	if err != nil {
		return nil, err
	}
	kids = append(kids, n)
	for p.tok.kind != tAlt && p.tok.kind != tEnd && (nest == 0 || p.tok.kind != tCloseParen) {
		if n, err = p.expression(nest); err != nil {
			return nil, err
		}
		kids = append(kids, n)
	}
	return &node{op: nCat, kids: kids}, nil
}

// expression is an atom and the repetition operators after it. nil is
// the empty expression.
func (p *parser) expression(nest int) (*node, error) {
	var n *node
	switch t := p.tok; t.kind {
	case tChar, tCloseParen, tCloseBrace:
		// a ")" reaches here only outside groups
		n = byteNode(t.c)
	case tOpenParen:
		g, err := p.group(nest + 1)
		if err != nil {
			return nil, err
		}
		n = g
	case tOpenBracket:
		set, err := p.bracket()
		if err != nil {
			return nil, err
		}
		n = &node{op: nSet, set: set}
	case tBackref:
		if p.done&(1<<t.n) == 0 {
			return nil, &Error{ErrSubReg}
		}
		p.nref++
		p.used |= 1 << t.n
		n = &node{op: nBackref, n: t.n}
	case tStar, tPlus, tQuest, tOpenBrace:
		return nil, &Error{ErrBadRpt}
	case tAnchor:
		// an anchor is never repeated: a repetition operator after one
		// starts an expression of its own, which is an error
		p.next()
		return anchorNode(t.n), nil
	case tPeriod:
		n = &node{op: nSet, set: dotSet()}
	case tClass:
		n = &node{op: nSet, set: escClass(t.c)}
	case tAlt, tEnd:
		return nil, nil
	case tBackslash:
		return nil, &Error{ErrEscape}
	}
	p.next()
	for {
		var err error
		switch p.tok.kind {
		case tStar, tPlus, tQuest, tOpenBrace:
			if n, err = p.repeat(n); err != nil {
				return nil, err
			}
			continue
		}
		return n, nil
	}
}

// group is "(" regexp ")"; the current token is the "(".
func (p *parser) group(nest int) (*node, error) {
	idx := p.ngroup
	p.ngroup++
	p.next()
	var body *node
	if p.tok.kind != tCloseParen {
		var err error
		if body, err = p.regexp(nest); err != nil {
			return nil, err
		}
		if p.tok.kind != tCloseParen {
			return nil, &Error{ErrParen}
		}
	}
	if idx < 9 {
		p.done |= 1 << idx
	}
	return &node{op: nGroup, n: idx, kids: []*node{body}}, nil
}

// dupMax is RE_DUP_MAX, the largest count an interval may have.
const dupMax = 0x7fff

// repeat applies the repetition operator of the current token to n.
func (p *parser) repeat(n *node) (*node, error) {
	lo, hi := 0, -1
	switch p.tok.kind {
	case tPlus:
		lo = 1
	case tQuest:
		hi = 1
	case tOpenBrace:
		var err error
		if lo, hi, err = p.interval(); err != nil {
			return nil, err
		}
	}
	p.next()
	if lo == 0 && hi == 0 {
		return nil, nil
	}
	if n == nil {
		return nil, nil
	}
	return &node{op: nRepeat, lo: lo, hi: hi, kids: []*node{n}}, nil
}

// interval reads "{n}", "{n,}", "{,m}" or "{n,m}" after the "{"; the
// current token is left on the "}".
func (p *parser) interval() (lo, hi int, err error) {
	lo = p.number()
	if lo == -1 {
		if p.tok.kind != tChar || p.tok.c != ',' {
			return 0, 0, &Error{ErrBadBr} // "{}"
		}
		lo = 0 // "{,m}"
	}
	hi = -2
	if lo != -2 {
		switch {
		case p.tok.kind == tCloseBrace:
			hi = lo
		case p.tok.kind == tChar && p.tok.c == ',':
			hi = p.number()
		}
	}
	if lo == -2 || hi == -2 {
		if p.tok.kind == tEnd {
			return 0, 0, &Error{ErrBrace}
		}
		return 0, 0, &Error{ErrBadBr}
	}
	if (hi != -1 && lo > hi) || p.tok.kind != tCloseBrace {
		return 0, 0, &Error{ErrBadBr}
	}
	if m := hi; m > dupMax || (m == -1 && lo > dupMax) {
		return 0, 0, &Error{ErrSize}
	}
	return lo, hi, nil
}

// number reads tokens up to "}" or ",", returning the decimal number they
// spell, -1 if there were none, or -2 if they were not all digits or the
// pattern ended first.
func (p *parser) number() int {
	num := -1
	for {
		p.next()
		t := p.tok
		switch {
		case t.kind == tEnd:
			return -2
		case t.kind == tCloseBrace || (t.kind == tChar && t.c == ','):
			return num
		case t.kind != tChar || t.c < '0' || t.c > '9' || num == -2:
			num = -2
		case num == -1:
			num = int(t.c - '0')
		default:
			num = min(num*10+int(t.c-'0'), dupMax+1)
		}
	}
}
