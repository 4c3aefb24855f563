package pmapi

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// This file reads ASCII namespace files, pmns(5), as
// pmLoadASCIINameSpace(3) does after pmcpp(1) has preprocessed them:
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
	hidden bool // trimmed away
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

// nsParser is the state of one load: the preprocessed lines and the
// position of the token being read, for messages.
type nsParser struct {
	file      string
	lines     []nsLine
	cur       int    // index into lines
	buf       []byte // the current line, as libpcp keeps it (messages scribble on it)
	pos       int    // next byte in buf
	started   bool   // lines[cur] has been read
	tok       int    // start of the current token
	diag      strings.Builder
	dupok     bool
	noInclude bool // refuse #include (for fuzzing)
}

type nsLine struct {
	text string
	num  int
}

// LoadPMNS reads a namespace file. With dupok false a PMID may have only
// one name (pminfo -N); with it, several.
func LoadPMNS(path string, dupok bool) (*Namespace, error) {
	p := &nsParser{file: path, dupok: dupok}
	data, err := os.ReadFile(path)
	if err != nil {
		p.errf(false, "Cannot open \"%s\"", path)
		return nil, &PMNSError{Diag: p.diag.String(), Code: Code(err)}
	}
	return p.load(string(data))
}

// load parses the text of the file.
func (p *nsParser) load(text string) (*Namespace, error) {
	var err error
	depth := 0
	if p.noInclude {
		depth = -1
	}
	if p.lines, err = preprocess(p.file, text, map[string]string{}, depth); err != nil {
		p.errf(false, "pmcpp returned non-zero exit status")
		return nil, &PMNSError{Diag: p.diag.String(), Code: ErrPMNS}
	}
	ns, ok := p.parse()
	if !ok {
		return nil, &PMNSError{Diag: p.diag.String(), Code: ErrPMNS}
	}
	return ns, nil
}

// errf adds a message, as libpcp's err() prints it: with the place, the
// line and a caret under the token when at reports a line.
func (p *nsParser) errf(at bool, format string, args ...any) {
	if at {
		fmt.Fprintf(&p.diag, "[%s:%d] ", p.file, p.lines[p.cur].num)
	}
	fmt.Fprintf(&p.diag, "Error Parsing ASCII PMNS: "+format+"\n", args...)
	if !at {
		return
	}
	line := string(p.buf)
	p.diag.WriteString("    " + line)
	if !strings.HasSuffix(line, "\n") {
		p.diag.WriteString("\n")
	}
	// like libpcp, blank out the line up to the token and put a caret there
	for i := 0; i < p.tok && i < len(p.buf); i++ {
		if !isCSpace(p.buf[i]) {
			p.buf[i] = ' '
		}
	}
	p.buf = append(p.buf[:min(p.tok, len(p.buf))], '^', '\n')
	p.diag.WriteString("    " + string(p.buf))
}

// squeeze is libpcp's line clean-up: runs of white space become one
// (none at the start, or next to a ':').
func squeeze(s string) []byte {
	var q []byte
	inspace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isCSpace(c):
			if !inspace {
				if len(q) > 0 && q[len(q)-1] != ':' {
					q = append(q, c)
				}
				inspace = true
			}
		case c == ':':
			if inspace && len(q) > 0 {
				q = q[:len(q)-1]
			}
			q = append(q, c)
			inspace = false
		default:
			q = append(q, c)
			inspace = false
		}
	}
	return q
}

// Token kinds.
const (
	tokEOF = iota
	tokName
	tokPath
	tokLBrace
	tokRBrace
	tokPMID
	tokBogus
)

// next reads the next token, moving on through the lines.
func (p *nsParser) next() (kind int, text string, id PMID) {
	for {
		for p.pos < len(p.buf) && isCSpace(p.buf[p.pos]) {
			p.pos++
		}
		if p.pos < len(p.buf) {
			break
		}
		if p.started {
			p.cur++
		}
		p.started = true
		if p.cur >= len(p.lines) {
			return tokEOF, "", PMIDNull
		}
		p.buf = squeeze(p.lines[p.cur].text + "\n")
		p.pos = 0
	}
	p.tok = p.pos
	for p.pos < len(p.buf) && !isCSpace(p.buf[p.pos]) {
		p.pos++
	}
	text = string(p.buf[p.tok:p.pos])
	return p.classify(text)
}

func (p *nsParser) classify(t string) (int, string, PMID) {
	switch {
	case t == "{":
		return tokLBrace, t, PMIDNull
	case t == "}":
		return tokRBrace, t, PMIDNull
	case isAlpha(t[0]):
		kind := tokName
		ok := true
		for i := 1; i < len(t); i++ {
			c := t[i]
			if c == '.' {
				kind = tokPath
			} else if !isAlpha(c) && !isDigit(c) && c != '_' {
				ok = false
				break
			}
		}
		if ok {
			return kind, t, PMIDNull
		}
	}
	if strings.Count(t, ":") > 3 || strings.Trim(t, "0123456789:*") != "" {
		return tokBogus, t, PMIDNull
	}
	f := strings.Split(t, ":")
	if len(f) >= 3 && leadingDigits(f[0]) != "" && leadingDigits(f[1]) != "" && leadingDigits(f[2]) != "" {
		d, _ := strconv.Atoi(leadingDigits(f[0]))
		c, _ := strconv.Atoi(leadingDigits(f[1]))
		i, _ := strconv.Atoi(leadingDigits(f[2]))
		switch {
		case d > 510:
			p.errf(true, "Illegal domain field in PMID")
		case c > 4095:
			p.errf(true, "Illegal cluster field in PMID")
		case i > 1023:
			p.errf(true, "Illegal item field in PMID")
		default:
			return tokPMID, t, NewPMID(uint32(d), uint32(c), uint32(i))
		}
		return tokBogus, t, PMIDNull
	}
	colon := strings.IndexByte(t, ':')
	if (colon >= 0 && t[colon+1:] != "*:*") || leadingDigits(t) == "" {
		p.errf(true, "Illegal PMID")
		return tokBogus, t, PMIDNull
	}
	d, _ := strconv.Atoi(leadingDigits(t))
	if d > 510 {
		p.errf(true, "Illegal domain field in dynamic PMID")
		return tokBogus, t, PMIDNull
	}
	return tokPMID, t, NewPMID(dynamicDomain, uint32(d), 0)
}

// parse is libpcp's pass 1 (blocks in a list) and pass 2 (the tree).
func (p *nsParser) parse() (*Namespace, bool) {
	var seen []*nsNode // the blocks, newest first
	var block, child *nsNode
	state := 0
	for {
		kind, text, id := p.next()
		if kind == tokEOF {
			break
		}
		switch state {
		case 0:
			if kind != tokName && kind != tokPath {
				p.errf(true, "Expected NAME or PATH")
				return nil, false
			}
			block = &nsNode{name: text, pmid: PMIDNull}
			seen = append([]*nsNode{block}, seen...)
			state = 1
			continue
		case 1:
			if kind != tokLBrace {
				p.errf(true, "{ expected")
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
				p.errf(true, "Expected NAME or }")
				return nil, false
			}
		case 3:
			switch kind {
			case tokName:
			case tokPMID:
				child.pmid = id
				state = 2
				continue
			case tokRBrace:
				state = 0
			default:
				p.errf(true, "Expected NAME, PMID or }")
				return nil, false
			}
		}
		if state == 3 {
			child = &nsNode{name: text, pmid: PMIDNull}
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
				p.errf(true, "Duplicate name \"%s\" in subtree for \"%s\"\n", a.name, block.name)
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
	root := take("root")
	if root == nil {
		p.errf(false, "No name space entry for \"root\"")
		return nil, false
	}
	if take("root") != nil {
		p.errf(false, "Multiple name space entries for \"root\"")
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
				p.errf(false, "Cannot find definition for non-terminal node \"%s\" in name space", path)
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
	if len(seen) > 0 {
		for i := len(seen) - 1; i >= 0; i-- {
			p.errf(false, "Disconnected subtree (\"%s\") in name space", seen[i].name)
		}
		return nil, false
	}
	ns := &Namespace{root: root, byID: map[PMID][]*nsNode{}}
	ok := true
	ns.walk(root, func(n *nsNode) {
		if !ok || n.pmid == PMIDNull {
			return
		}
		if prev := ns.byID[n.pmid]; len(prev) > 0 && !p.dupok && n.pmid.Domain() != dynamicDomain {
			p.errf(false, "Duplicate metric id (%s) in name space for metrics \"%s\" and \"%s\"\n",
				n.pmid, n.fullName(), prev[0].fullName())
			ok = false
			return
		}
		ns.byID[n.pmid] = append([]*nsNode{n}, ns.byID[n.pmid]...)
		ns.count++
	})
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

// preprocess is the part of pmcpp(1) namespace files use: C comments,
// #define (object-like) and #undef, #ifdef/#ifndef/#else/#endif and
// #include "file". It keeps line numbers of the top file. depth counts
// nested includes; -1 forbids them.
func preprocess(path, text string, macros map[string]string, depth int) ([]nsLine, error) {
	if depth > 10 {
		return nil, ErrPMNS
	}
	text = stripComments(text)
	var out []nsLine
	skip := []bool{false}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for num := 1; sc.Scan(); num++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "#") {
			f := strings.Fields(strings.TrimSpace(trimmed[1:]))
			if len(f) == 0 {
				continue
			}
			active := !skip[len(skip)-1]
			switch f[0] {
			case "define":
				if active && len(f) >= 2 {
					macros[f[1]] = strings.Join(f[2:], " ")
				}
			case "undef":
				if active && len(f) >= 2 {
					delete(macros, f[1])
				}
			case "ifdef", "ifndef":
				_, def := macros[field(f, 1)]
				skip = append(skip, !active || def != (f[0] == "ifdef"))
			case "else":
				if len(skip) > 1 {
					outer := skip[len(skip)-2]
					skip[len(skip)-1] = outer || !skip[len(skip)-1]
				}
			case "endif":
				if len(skip) > 1 {
					skip = skip[:len(skip)-1]
				}
			case "include":
				if !active {
					continue
				}
				if depth < 0 {
					return nil, ErrPMNS
				}
				inc := strings.Trim(field(f, 1), "\"<>")
				if !filepath.IsAbs(inc) {
					inc = filepath.Join(filepath.Dir(path), inc)
				}
				data, err := os.ReadFile(inc)
				if err != nil {
					return nil, err
				}
				lines, err := preprocess(inc, string(data), macros, depth+1)
				if err != nil {
					return nil, err
				}
				for _, l := range lines {
					out = append(out, nsLine{l.text, num})
				}
			}
			continue
		}
		if skip[len(skip)-1] {
			continue
		}
		out = append(out, nsLine{expand(line, macros), num})
	}
	return out, sc.Err()
}

func field(f []string, i int) string {
	if i < len(f) {
		return f[i]
	}
	return ""
}

// stripComments replaces C comments with a space, keeping their newlines.
func stripComments(s string) string {
	var b bytes.Buffer
	for i := 0; i < len(s); i++ {
		if s[i] == '/' && i+1 < len(s) && s[i+1] == '*' {
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				end = len(s) - i - 2
			}
			b.WriteByte(' ')
			b.WriteString(strings.Repeat("\n", strings.Count(s[i:i+2+end], "\n")))
			i += end + 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// expand replaces whole-word macro names, repeatedly.
func expand(line string, macros map[string]string) string {
	if len(macros) == 0 {
		return line
	}
	for round := 0; round < 10; round++ {
		var b strings.Builder
		changed := false
		for i := 0; i < len(line); {
			c := line[i]
			if isAlpha(c) || c == '_' {
				j := i
				for j < len(line) && (isAlpha(line[j]) || isDigit(line[j]) || line[j] == '_') {
					j++
				}
				if v, ok := macros[line[i:j]]; ok {
					b.WriteString(v)
					changed = true
				} else {
					b.WriteString(line[i:j])
				}
				i = j
				continue
			}
			b.WriteByte(c)
			i++
		}
		line = b.String()
		if !changed {
			break
		}
	}
	return line
}
