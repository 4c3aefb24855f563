package pmieconf

import (
	"fmt"

	"github.com/gopcp/pmie/lang"
)

// The first line of every rules file: "#pmieconf-rules 1".
const (
	rulesMagic   = "pmieconf-rules"
	rulesVersion = "1"
)

// File is a parsed rules file: its declarations in order.
type File struct {
	Name  string
	Decls []*Decl
	src   *lang.Source // for diagnostics
}

// Decl is one declaration, "TYPE name [attribute = value]... ;".
type Decl struct {
	Type    Type
	Name    string
	TypePos lang.Pos
	NamePos lang.Pos
	Attrs   []Attr
	// Partial marks a declaration cut short, by a syntax error or by the
	// end of the file right after its name. Its attributes so far are
	// kept, as pmieconf applies each as it reads it, but it declares
	// nothing.
	Partial bool
}

// Attr is one "keyword = value" of a declaration.
type Attr struct {
	Key      string
	Value    string
	KeyPos   lang.Pos
	ValuePos lang.Pos
}

// ParseFile parses a rules file. A file that does not start with the
// rules-file header is not a rules file: ParseFile returns nil and no
// error, and pmieconf passes over such files. On a syntax error the File
// returned holds the declarations before it (the last one Partial).
func ParseFile(name string, src []byte) (*File, error) {
	f, _, err := parseFile(name, src, nil)
	return f, err
}

// parseFile is ParseFile reading into pmieconf's token buffer tok, which
// it leaves in the lexer returned. For a file that is not a rules file,
// it gives pmieconf's complaint (which pmieconf keeps in its message
// buffer rather than reports) in the lexer's notRules.
func parseFile(name string, src []byte, tok tokenBuffer) (*File, *lexer, error) {
	l := &lexer{src: src, name: name, tok: tok}
	if l.notRules = header(l); l.notRules != "" {
		return nil, l, nil
	}
	f := &File{Name: name}
	p := &parser{l: l, f: f}
	err := p.decls()
	f.src = l.source()
	return f, l, err
}

// header reads "#pmieconf-rules 1": a '#' as the very first byte, then
// the two words. It returns "" if they are there, else pmieconf's
// complaint, which quotes its token buffer: the word it read last, from
// this file or (when the file does not start with '#') before it.
func header(l *lexer) string {
	bad := func() string {
		return errmsgf("%s is not a rule description file (bad header)\nfound \"%s\", expected \"%s\"",
			l.name, l.tok.held(), rulesMagic)
	}
	if l.getc() != '#' {
		return bad()
	}
	tok, ok, err := l.next()
	if err != nil || !ok || tok.text != rulesMagic {
		return bad()
	}
	if tok, ok, err = l.next(); err != nil || !ok {
		return bad()
	}
	if tok.text != rulesVersion {
		return errmsgf("unknown version number in %s: \"%s\" (expected %s)", l.name, l.tok.held(), rulesVersion)
	}
	return ""
}

type parser struct {
	l *lexer
	f *File
}

func (p *parser) errorf(off int, format string, args ...any) *lang.Diagnostic {
	return p.l.errorAt(off, fmt.Sprintf(format, args...))
}

func (p *parser) expected(what string, tok token, ok bool) *lang.Diagnostic {
	if !ok {
		return p.errorf(tok.off, "expected %s, found end of file", what)
	}
	return p.errorf(tok.off, "expected %s, found %q", what, tok.text)
}

func (p *parser) decls() error {
	for {
		tok, ok, err := p.l.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		t, isType := lookupType(tok.text)
		if !isType {
			return p.expected("a type keyword", tok, true)
		}
		name, ok, err := p.l.next()
		if err != nil {
			return err
		}
		if !ok {
			return p.expected("a name after "+tok.text, name, false)
		}
		d := &Decl{Type: t, Name: name.text, TypePos: p.l.pos(tok.off), NamePos: p.l.pos(name.off)}
		p.f.Decls = append(p.f.Decls, d)
		if name.atEOF {
			// pmieconf stops reading at the end of the file, so a name
			// that ends the file declares nothing.
			d.Partial = true
			return nil
		}
		if err := p.attrs(d); err != nil {
			d.Partial = true
			return err
		}
	}
}

// attrs reads a declaration's attributes up to its ';'. As in pmieconf, a
// token is taken as ';' or '=' by its first character.
func (p *parser) attrs(d *Decl) error {
	for {
		key, ok, err := p.l.next()
		if err != nil {
			return err
		}
		if !ok {
			return p.expected("an attribute or ';'", key, false)
		}
		if key.text != "" && key.text[0] == ';' {
			return nil
		}
		if lookupAttr(key.text) == attrNone {
			return p.expected("an attribute keyword", key, true)
		}
		eq, ok, err := p.l.next()
		if err != nil {
			return err
		}
		if !ok || eq.text == "" || eq.text[0] != '=' {
			return p.expected("'=' after "+key.text, eq, ok)
		}
		val, ok, err := p.l.next()
		if err != nil {
			return err
		}
		if !ok {
			return p.expected("a value for "+key.text, val, false)
		}
		d.Attrs = append(d.Attrs, Attr{Key: key.text, Value: val.text,
			KeyPos: p.l.pos(key.off), ValuePos: p.l.pos(val.off)})
	}
}
