package posixre

// Bracket expressions, as glibc reads them in the C locale: a backslash is
// itself, "]" first (after any "^") is an ordinary character, "-" is a
// range unless first or last, "[:class:]", "[=c=]" and "[.c.]" name a
// class, or one character, and range ends are compared as bytes.

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(c byte)       { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool  { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *byteSet) union(t *byteSet) { s[0] |= t[0]; s[1] |= t[1]; s[2] |= t[2]; s[3] |= t[3] }
func (s *byteSet) addRange(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
}

// invert makes s its complement, without NUL, which no C string holds.
func (s *byteSet) invert() {
	for i := range s {
		s[i] = ^s[i]
	}
	s[0] &^= 1
}

// elemKind is the kind of one element of a bracket expression.
type elemKind uint8

const (
	eChar  elemKind = iota // a character
	eColl                  // [.name.]
	eClass                 // [:name:]
	eEquiv                 // [=name=]
)

// elem is one element of a bracket expression: a character, or the name
// of a collating symbol, class or equivalence class, checked only when
// the element is used, as glibc does.
type elem struct {
	kind elemKind
	c    byte
	name string
}

// char is the character a single-character element stands for.
func (e elem) char() (byte, bool) {
	switch {
	case e.kind == eChar:
		return e.c, true
	case len(e.name) == 1:
		return e.name[0], true
	}
	return 0, false
}

// bracket reads a bracket expression after its "[". The order of its
// checks is glibc's: what follows an element is looked at (the end of the
// pattern, a range) before the element itself is checked.
func (p *parser) bracket() (*byteSet, error) {
	set := new(byteSet)
	src := p.src
	if p.pos >= len(src) {
		return nil, &Error{ErrBadPat}
	}
	negate := false
	if src[p.pos] == '^' {
		negate = true
		p.pos++
		if p.pos >= len(src) {
			return nil, &Error{ErrBadPat}
		}
	}
	for first := true; ; first = false {
		start, err := p.bracketElem(first)
		if err != nil {
			return nil, err
		}
		isRange := false
		if start.kind == eChar || start.kind == eColl {
			if p.pos >= len(src) {
				return nil, &Error{ErrBrack}
			}
			if src[p.pos] == '-' {
				if p.pos+1 >= len(src) {
					return nil, &Error{ErrBrack}
				}
				isRange = src[p.pos+1] != ']'
			}
		}
		if isRange {
			p.pos++
			end, err := p.bracketElem(true)
			if err != nil {
				return nil, err
			}
			if err := addRange(set, start, end); err != nil {
				return nil, err
			}
		} else if err := addElem(set, start); err != nil {
			return nil, err
		}
		if p.pos >= len(src) {
			return nil, &Error{ErrBrack}
		}
		if src[p.pos] == ']' {
			p.pos++
			break
		}
	}
	if negate {
		set.invert()
	}
	return set, nil
}

// addRange adds the range from start to end to set.
func addRange(set *byteSet, start, end elem) error {
	for _, e := range []elem{start, end} {
		if e.kind == eClass || e.kind == eEquiv {
			return &Error{ErrRange}
		}
	}
	lo, ok1 := start.char()
	hi, ok2 := end.char()
	if !ok1 || !ok2 {
		return &Error{ErrCollate}
	}
	if lo > hi {
		return &Error{ErrRange}
	}
	set.addRange(lo, hi)
	return nil
}

// addElem adds one element that is not part of a range to set.
func addElem(set *byteSet, e elem) error {
	if e.kind == eClass {
		cs, ok := namedClass(e.name)
		if !ok {
			return &Error{ErrCType}
		}
		set.union(cs)
		return nil
	}
	c, ok := e.char()
	if !ok {
		return &Error{ErrCollate}
	}
	set.add(c)
	return nil
}

// bracketElem reads one element of a bracket expression: "]" is one only
// first, and "-" only where hyphenOK (first, or a range's end) or last.
func (p *parser) bracketElem(hyphenOK bool) (elem, error) {
	src := p.src
	if p.pos >= len(src) {
		return elem{}, &Error{ErrBrack}
	}
	c := src[p.pos]
	if c == '[' && p.pos+1 < len(src) {
		switch d := src[p.pos+1]; d {
		case ':', '.', '=':
			p.pos += 2
			return p.bracketSymbol(d)
		}
	}
	if c == '-' && !hyphenOK {
		if p.pos+1 >= len(src) || src[p.pos+1] != ']' {
			return elem{}, &Error{ErrRange}
		}
	}
	p.pos++
	return elem{kind: eChar, c: c}, nil
}

// bracketNameMax is the longest name "[:", "[." or "[=" may hold.
const bracketNameMax = 32

// bracketSymbol reads the name of "[:name:]", "[.name.]" or "[=name=]"
// after its opening, and the "]" after its closing.
func (p *parser) bracketSymbol(delim byte) (elem, error) {
	src := p.src
	var name []byte
	for i := 0; ; i++ {
		if i >= bracketNameMax || p.pos+1 >= len(src) {
			return elem{}, &Error{ErrBrack}
		}
		c := src[p.pos]
		p.pos++
		if c == delim && src[p.pos] == ']' {
			p.pos++
			break
		}
		name = append(name, c)
	}
	kind := map[byte]elemKind{':': eClass, '.': eColl, '=': eEquiv}[delim]
	return elem{kind: kind, name: string(name)}, nil
}

// namedClass is the set of a POSIX character class in the C locale.
func namedClass(name string) (*byteSet, bool) {
	is, ok := classes[name]
	if !ok {
		return nil, false
	}
	set := new(byteSet)
	for c := 0; c < 128; c++ {
		if is(byte(c)) {
			set.add(byte(c))
		}
	}
	return set, true
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return isUpper(c) || isLower(c) }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }
func isSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
func isPrint(c byte) bool { return c >= 0x20 && c < 0x7f }
func isGraph(c byte) bool { return c > 0x20 && c < 0x7f }
func isWord(c byte) bool  { return isAlnum(c) || c == '_' }

// classes are the tests of ctype(3) in the C locale.
var classes = map[string]func(byte) bool{
	"alpha":  isAlpha,
	"upper":  isUpper,
	"lower":  isLower,
	"digit":  isDigit,
	"xdigit": func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' },
	"space":  isSpace,
	"print":  isPrint,
	"punct":  func(c byte) bool { return isGraph(c) && !isAlnum(c) },
	"graph":  isGraph,
	"cntrl":  func(c byte) bool { return c < 0x20 || c == 0x7f },
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"alnum":  isAlnum,
}

// dotSet is what "." matches: any byte but NUL.
func dotSet() *byteSet {
	s := new(byteSet)
	s.invert()
	return s
}

// escClass is the set of \w, \W, \s or \S.
func escClass(c byte) *byteSet {
	s := new(byteSet)
	is := isWord
	if c == 's' || c == 'S' {
		is = isSpace
	}
	for b := 0; b < 256; b++ {
		if is(byte(b)) {
			s.add(byte(b))
		}
	}
	if c == 'W' || c == 'S' {
		s.invert()
	}
	return s
}
