package pmapi

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// This file reads ASCII namespace files, pmns(5), as
// pmLoadASCIINameSpace(3) does: from the output of pmcpp(1) run on the
// file, line markers ("# 12 "file"") and all:
//
//	root {
//	    kernel
//	    sample	29:*:*
//	}
//	kernel {
//	    load	60:2:0
//	}
//
// Each block names a node of the tree (root, or a dotted path) and lists
// its children in order: a name alone is a non-leaf with a block of its
// own, a name and a PMID a metric, and "domain:*:*" the root of a dynamic
// subtree.
//
// libpcp reads that output in pieces of at most 255 bytes into one
// buffer, which its messages print (with a caret under the token) and
// scribble on; the lexer below keeps that buffer as libpcp does, stale
// bytes and all, so that its messages come out the same.

// Namespace is a metric namespace loaded from a file (-n), or trimmed to
// a source (pmTrimNameSpace).
type Namespace struct {
	root  *nsNode
	byID  map[PMID][]*nsNode // names of each PMID, in libpcp's hash order
	count int
}

type nsNode struct {
	name   string
	pmid   PMID // PMIDNull for a non-leaf
	kids   []*nsNode
	parent *nsNode
	hidden bool // trimmed away, or a non-leaf with no metric below
}

// DynamicPMID marks the root of a dynamic subtree: domain 511, and the
// real domain in the cluster field.
const dynamicDomain = 511

// PMNSError is a namespace file that does not load: Diag is what libpcp
// prints about it (with the file, line and a caret), Code the error
// (ErrPMNS, or the errno of a file that cannot be read).
type PMNSError struct {
	Diag string
	Code Errno
}

func (e *PMNSError) Error() string { return e.Code.Error() }

// Unwrap gives the error code.
func (e *PMNSError) Unwrap() error { return e.Code }

// Preprocessor is pmcpp(1) run on a namespace file: its output, and
// whether it exited 0. It prints its own messages.
type Preprocessor func(path string) (out []byte, ok bool)

// bufSize is the size of libpcp's line buffer (and of its file name).
const bufSize = 256

// nsParser is the state of one load, as libpcp's lexer keeps it.
type nsParser struct {
	fname  string // file of the line being read, from pmcpp's markers
	lineno int    // its line number; 0 or less: none to report
	buf    [bufSize]byte
	lp     int // next byte of buf to read
	linep  int // start of the last token in buf, -1 before the first
	tok    string
	tokID  PMID
	data   []byte // pmcpp's output
	rpos   int
	cppOK  bool
	diag   strings.Builder
	dupok  bool
}

// LoadPMNS reads a namespace file as pmLoadASCIINameSpace does, through
// cpp; if nil, the file is taken as pmcpp gives one with no directives or
// comments: after a marker of its first line. With dupok false a PMID may
// have only one name (pminfo -N); with it, several.
func LoadPMNS(path string, dupok bool, cpp Preprocessor) (*Namespace, error) {
	if len(path) >= bufSize {
		path = path[:bufSize-1] // libpcp keeps the name in a char[256]
	}
	p := &nsParser{fname: path, dupok: dupok, linep: -1}
	if err := syscall.Access(path, 4); err != nil {
		p.errBuf(fmt.Sprintf("Cannot open \"%s\"", path))
		return nil, &PMNSError{Diag: p.diag.String(), Code: Code(err)}
	}
	p.cppOK = true
	if cpp != nil {
		p.data, p.cppOK = cpp(path)
	} else {
		data, err := os.ReadFile(path)
		if err != nil {
			p.errBuf(fmt.Sprintf("Cannot open \"%s\"", path))
			return nil, &PMNSError{Diag: p.diag.String(), Code: Code(err)}
		}
		p.data = append([]byte(fmt.Sprintf("# 1 \"%s\"\n", path)), data...)
	}
	p.lineno = 1
	ns, ok := p.parse()
	if !ok {
		return nil, &PMNSError{Diag: p.diag.String(), Code: ErrPMNS}
	}
	return ns, nil
}

// cstr is the string in buf from i to its NUL.
func (p *nsParser) cstr(i int) string {
	end := i
	for end < bufSize && p.buf[end] != 0 {
		end++
	}
	return string(p.buf[i:end])
}

// errBuf reports a message libpcp formats into its line buffer first
// (cut to fit), so that the buffer is what a located message prints.
func (p *nsParser) errBuf(msg string) {
	n := copy(p.buf[:bufSize-1], msg)
	p.buf[n] = 0
	p.err(p.cstr(0))
}

// err adds a message as libpcp's err() prints it: with the file and line
// when there is one, then the line buffer, then the buffer again blanked
// up to the last token with a caret there.
func (p *nsParser) err(msg string) {
	if p.lineno > 0 {
		fmt.Fprintf(&p.diag, "[%s:%d] ", p.fname, p.lineno)
	}
	fmt.Fprintf(&p.diag, "Error Parsing ASCII PMNS: %s\n", msg)
	if p.lineno <= 0 {
		return
	}
	line := p.cstr(0)
	p.diag.WriteString("    " + line)
	if !strings.HasSuffix(line, "\n") {
		p.diag.WriteString("\n")
	}
	if p.linep < 0 {
		return
	}
	for i := 0; i < p.linep; i++ {
		if !isCSpace(p.buf[i]) {
			p.buf[i] = ' '
		}
	}
	tail := []byte{'^', '\n', 0}
	copy(p.buf[p.linep:], tail)
	p.diag.WriteString("    " + p.cstr(0))
}

// fgets reads the next piece of pmcpp's output into buf: through a
// newline, or 255 bytes.
func (p *nsParser) fgets() bool {
	if p.rpos >= len(p.data) {
		return false
	}
	n := 0
	for n < bufSize-1 && p.rpos < len(p.data) {
		c := p.data[p.rpos]
		p.buf[n] = c
		n++
		p.rpos++
		if c == '\n' {
			break
		}
	}
	p.buf[n] = 0
	return true
}

// squeeze is libpcp's clean-up of a line in place: runs of white space
// become one (none at the start, or after a ':'), and none is left
// before a ':'. It gives the end of the squeezed text and of the line.
func (p *nsParser) squeeze() (q, end int) {
	inspace := false
	for end = 0; end < bufSize && p.buf[end] != 0; end++ {
		c := p.buf[end]
		switch {
		case isCSpace(c):
			if !inspace {
				if q > 0 && p.buf[q-1] != ':' {
					p.buf[q] = c
					q++
				}
				inspace = true
			}
		case c == ':':
			if inspace {
				inspace = false
				if q == 0 {
					continue // libpcp writes this ':' before its buffer
				}
				q--
			}
			p.buf[q] = c
			q++
		default:
			p.buf[q] = c
			q++
			inspace = false
		}
	}
	return q, end
}

// Token kinds, as libpcp numbers them; tokError is a load that has
// failed (its message given), tokEOF the end of a good input.
const (
	tokError  = -1
	tokEOF    = 0
	tokName   = 1
	tokPath   = 2
	tokPMID   = 3
	tokLBrace = 4
	tokRBrace = 5
	tokBogus  = 10
)

// next reads the next token, moving on through the lines.
func (p *nsParser) next() int {
	for p.lp < bufSize && p.buf[p.lp] != 0 && isCSpace(p.buf[p.lp]) {
		p.lp++
	}
	for p.lp >= bufSize || p.buf[p.lp] == 0 {
		if kind, ok := p.readLine(); !ok {
			return kind
		}
	}
	p.linep = p.lp
	for p.lp < bufSize && !isCSpace(p.buf[p.lp]) {
		p.lp++
	}
	p.tok = p.cstr(p.linep)
	if len(p.tok) > p.lp-p.linep {
		p.tok = p.tok[:p.lp-p.linep]
	}
	return p.classify(p.tok)
}

// readLine reads the next line of text, taking in the line markers
// before it; without one, the end (tokEOF) or a failure (tokError).
func (p *nsParser) readLine() (int, bool) {
	for {
		if !p.fgets() {
			p.lineno = -1
			if !p.cppOK {
				p.err("pmcpp returned non-zero exit status")
				return tokError, false
			}
			return tokEOF, false
		}
		q, end := p.squeeze()
		if end == 0 || p.buf[end-1] != '\n' {
			p.err("Absurdly long line, cannot recover")
			return tokError, false
		}
		p.buf[q] = 0
		if p.buf[0] != '#' {
			break
		}
		n, name, count := scanMarker(p.cstr(0))
		if count > 0 {
			p.lineno = n // sscanf sets it before it fails
		}
		if count != 2 {
			p.err("Illegal line number control number")
			return tokError, false
		}
		p.lineno--
		p.fname = name[:len(name)-1]
	}
	p.lineno++
	p.lp = 0
	for p.buf[p.lp] != 0 && isCSpace(p.buf[p.lp]) {
		p.lp++
	}
	return 0, true
}

// scanMarker reads a line marker as sscanf(line, "# %d \"%s") does: the
// number, the word after the quote (its closing quote still on), and how
// many of the two it read.
func scanMarker(s string) (int, string, int) {
	s = strings.TrimLeft(s[1:], " \t\n\v\f\r")
	n, s, ok := scanInt(s)
	if !ok {
		return 0, "", 0
	}
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	if !strings.HasPrefix(s, "\"") {
		return n, "", 1
	}
	s = strings.TrimLeft(s[1:], " \t\n\v\f\r")
	end := strings.IndexAny(s, " \t\n\v\f\r")
	if end < 0 {
		end = len(s)
	}
	if end == 0 {
		return n, "", 1
	}
	return n, s[:end], 2
}

// scanInt reads an int as scanf's %d does: strtol's number, cut to an
// int; false if s has none.
func scanInt(s string) (int, string, bool) {
	n, rest := Strtol(s)
	return int(int32(n)), rest, len(rest) < len(s)
}

// classify is the kind of a token, reporting a PMID out of range.
func (p *nsParser) classify(t string) int {
	switch {
	case t == "{":
		return tokLBrace
	case t == "}":
		return tokRBrace
	case t != "" && isAlpha(t[0]):
		kind := tokName
		ok := true
		for i := 1; i < len(t) && ok; i++ {
			if t[i] == '.' {
				kind = tokPath
			} else {
				ok = isAlpha(t[i]) || isDigit(t[i]) || t[i] == '_'
			}
		}
		if ok {
			return kind
		}
	}
	if strings.Count(t, ":") > 3 || strings.Trim(t, "0123456789:*") != "" {
		return tokBogus
	}
	d, rest, ok := scanInt(t)
	if ok && strings.HasPrefix(rest, ":") {
		if c, rest, ok := scanInt(rest[1:]); ok && strings.HasPrefix(rest, ":") {
			if i, _, ok := scanInt(rest[1:]); ok {
				switch {
				case d > 510:
					p.err("Illegal domain field in PMID")
				case c > 4095:
					p.err("Illegal cluster field in PMID")
				case i > 1023:
					p.err("Illegal item field in PMID")
				default:
					p.tokID = NewPMID(uint32(d), uint32(c), uint32(i))
					return tokPMID
				}
				return tokBogus
			}
		}
	}
	if colon := strings.IndexByte(t, ':'); (colon >= 0 && t[colon+1:] != "*:*") || !ok {
		p.err("Illegal PMID")
		return tokBogus
	}
	if d > 510 {
		p.err("Illegal domain field in dynamic PMID")
		return tokBogus
	}
	p.tokID = NewPMID(dynamicDomain, uint32(d), 0)
	return tokPMID
}

// parse is libpcp's pass 1 (blocks in a list) and pass 2 (the tree).
func (p *nsParser) parse() (*Namespace, bool) {
	var seen []*nsNode // the blocks, newest first
	var block, child *nsNode
	state := 0
	for {
		kind := p.next()
		if kind == tokError {
			return nil, false
		}
		if kind == tokEOF {
			break
		}
		switch state {
		case 0:
			if kind != tokName && kind != tokPath {
				p.err("Expected NAME or PATH")
				return nil, false
			}
			block = &nsNode{name: p.tok, pmid: PMIDNull}
			seen = append([]*nsNode{block}, seen...)
			state = 1
			continue
		case 1:
			if kind != tokLBrace {
				p.err("{ expected")
				return nil, false
			}
			state = 2
			continue
		case 2:
			switch kind {
			case tokRBrace:
				state = 0
			case tokName:
				state = 3
			default:
				p.err("Expected NAME or }")
				return nil, false
			}
		case 3:
			switch kind {
			case tokName:
			case tokPMID:
				child.pmid = p.tokID
				state = 2
				continue
			case tokRBrace:
				state = 0
			default:
				p.err("Expected NAME, PMID or }")
				return nil, false
			}
		}
		if state == 3 {
			child = &nsNode{name: p.tok, pmid: PMIDNull}
			block.kids = append(block.kids, child)
		} else if state == 0 && !p.uniqueKids(block) {
			return nil, false
		}
	}
	return p.pass2(seen)
}

// uniqueKids checks a finished block for a name given twice.
func (p *nsParser) uniqueKids(block *nsNode) bool {
	for i, a := range block.kids {
		for _, b := range block.kids[i+1:] {
			if a.name == b.name {
				p.errBuf(fmt.Sprintf("Duplicate name \"%s\" in subtree for \"%s\"\n", a.name, block.name))
				return false
			}
		}
	}
	return true
}

// pass2 joins the blocks into one tree from "root" and indexes the PMIDs.
func (p *nsParser) pass2(seen []*nsNode) (*Namespace, bool) {
	take := func(name string) *nsNode {
		for i, n := range seen {
			if n.name == name {
				seen = append(seen[:i], seen[i+1:]...)
				return n
			}
		}
		return nil
	}
	p.lineno = -1
	root := take("root")
	if root == nil {
		p.err("No name space entry for \"root\"")
		return nil, false
	}
	if take("root") != nil {
		p.err("Multiple name space entries for \"root\"")
		return nil, false
	}
	var attach func(base string, n *nsNode) bool
	attach = func(base string, n *nsNode) bool {
		for _, k := range n.kids {
			k.parent = n
			if k.pmid != PMIDNull {
				continue
			}
			path := k.name
			if base != "" {
				path = base + "." + k.name
			}
			b := take(path)
			if b == nil {
				p.errBuf(fmt.Sprintf("Cannot find definition for non-terminal node \"%s\" in name space", path))
				return false
			}
			k.kids = b.kids
			if !attach(path, k) {
				return false
			}
		}
		return true
	}
	if !attach("", root) {
		return nil, false
	}
	for _, b := range seen {
		p.errBuf(fmt.Sprintf("Disconnected subtree (\"%s\") in name space", b.name))
	}
	if len(seen) > 0 {
		return nil, false
	}
	ns := &Namespace{root: root, byID: map[PMID][]*nsNode{}}
	ok := true
	ns.walk(root, func(n *nsNode) {
		if !ok || n.pmid == PMIDNull {
			return
		}
		if prev := ns.byID[n.pmid]; len(prev) > 0 && !p.dupok && n.pmid.Domain() != dynamicDomain {
			p.errBuf(fmt.Sprintf("Duplicate metric id (%s) in name space for metrics \"%s\" and \"%s\"\n",
				n.pmid, n.fullName(), prev[0].fullName()))
			ok = false
			return
		}
		ns.byID[n.pmid] = append([]*nsNode{n}, ns.byID[n.pmid]...)
		ns.count++
	})
	// a non-leaf with no metric below it is not there to look up, list
	// or traverse: libpcp leaves it marked as trimmed away
	ns.Trim(func(PMID) bool { return true })
	return ns, ok
}

// walk visits every node below n depth first, in order.
func (ns *Namespace) walk(n *nsNode, fn func(*nsNode)) {
	for _, k := range n.kids {
		fn(k)
		ns.walk(k, fn)
	}
}

func (n *nsNode) fullName() string {
	if n.parent == nil {
		return n.name
	}
	if n.parent.parent == nil {
		return n.name
	}
	return n.parent.fullName() + "." + n.name
}

// find is the node of a dotted name ("" is the root), or nil.
func (ns *Namespace) find(name string) *nsNode {
	n := ns.root
	if name == "" {
		return n
	}
	for _, part := range strings.Split(name, ".") {
		var next *nsNode
		for _, k := range n.kids {
			if k.name == part && !k.hidden {
				next = k
				break
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

// LookupName is pmLookupName in the namespace.
// A name below the root of a dynamic subtree gives the root's PMID, as
// libpcp's does for every context but a local one: the trigger for pmcd
// to ask the PMDA (an archive has no metric of that PMID).
func (ns *Namespace) LookupName(name string) (PMID, error) {
	n := ns.find(name)
	if n == nil && name != "" {
		for p := name; ; {
			i := strings.LastIndexByte(p, '.')
			if i < 0 {
				break
			}
			p = p[:i]
			if d := ns.find(p); d != nil && d.pmid != PMIDNull && d.pmid.Domain() == dynamicDomain {
				return d.pmid, nil
			}
		}
	}
	if n == nil || name == "" {
		return PMIDNull, ErrName
	}
	if n.pmid == PMIDNull {
		return PMIDNull, ErrNonLeaf
	}
	return n.pmid, nil
}

// NameAll is pmNameAll in the namespace.
func (ns *Namespace) NameAll(id PMID) ([]string, error) {
	var names []string
	for _, n := range ns.byID[id] {
		if !n.hidden {
			names = append(names, n.fullName())
		}
	}
	if len(names) == 0 {
		return nil, ErrPMID
	}
	return names, nil
}

// Children is pmGetChildrenStatus in the namespace.
func (ns *Namespace) Children(name string) ([]Child, error) {
	n := ns.find(name)
	if n == nil {
		return nil, ErrName
	}
	var kids []Child
	for _, k := range n.kids {
		if !k.hidden {
			kids = append(kids, Child{Name: k.name, Leaf: k.pmid != PMIDNull})
		}
	}
	return kids, nil
}

// Trim hides the names whose PMID keep rejects, and the non-leaves left
// with nothing below them, as pmTrimNameSpace does for an archive.
func (ns *Namespace) Trim(keep func(PMID) bool) {
	var trim func(n *nsNode) bool // reports whether n stays
	trim = func(n *nsNode) bool {
		if n.pmid != PMIDNull {
			n.hidden = !keep(n.pmid)
			return !n.hidden
		}
		any := false
		for _, k := range n.kids {
			if trim(k) {
				any = true
			}
		}
		n.hidden = !any && n != ns.root
		return any
	}
	trim(ns.root)
}
