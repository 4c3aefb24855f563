package lang

import (
	"strings"
)

// This file reads derived-metric configuration files, the format of
// pmLoadDerivedConfig(3) and PCP_DERIVED_CONFIG, the way libpcp 6.0.3 reads
// them:
//
//   - the file is read line by line, and a last line without a newline is
//     ignored;
//   - an empty line, or one whose first character is "#", is skipped (so a
//     "#" after leading spaces is not a comment);
//   - "name = expr" defines a metric; everything after the first "=" is the
//     expression, which must fit on one line (libpcp has no "\"
//     continuation for expressions);
//   - "name(attr) = value" sets an attribute (oneline, helptext); a value
//     in "double" or 'single' quotes may use backslash escapes and run over
//     several lines, and a backslash before a newline joins the lines.
//
// Registration (duplicate names, unknown attributes) is the caller's
// business; ReadDerivedConfig only splits the file into entries.

// DerivedEntryKind says what a line of a derived-metric configuration is.
type DerivedEntryKind uint8

// The kinds of entry.
const (
	DerivedDef  DerivedEntryKind = iota // name = expr
	DerivedAttr                         // name(attr) = value
	DerivedBad                          // a line libpcp rejects before registering anything
)

// DerivedEntry is one entry of a derived-metric configuration file.
type DerivedEntry struct {
	Loc
	Kind DerivedEntryKind
	// Line is the line number libpcp reports for the entry. It drifts from
	// the real line number after a multi-line attribute value, as libpcp's
	// does.
	Line     int
	Name     string
	NameSpan Span
	Attr     string // DerivedAttr: the attribute name
	Value    string // DerivedAttr: the value, unquoted and unescaped
	// ExprText is what follows the "=" on a DerivedDef line, as libpcp
	// echoes it in syntax errors (leading spaces included).
	ExprText string
	// Expr is the parsed expression, set by ParseDerivedConfig.
	Expr Expr
	// Diags are the entry's problems: for DerivedBad the reason it was
	// rejected; for DerivedAttr warnings about the value; for DerivedDef
	// the syntax error, when ParseDerivedConfig found one.
	Diags Diagnostics

	exprBase int // offset of ExprText in the file
	exprEnd  int
}

// DerivedConfig is a derived-metric configuration file split into entries.
type DerivedConfig struct {
	Src     *Source
	Entries []*DerivedEntry
}

// ReadDerivedConfig splits a configuration file called name into entries.
func ReadDerivedConfig(name, text string) *DerivedConfig {
	r := &configReader{cfg: &DerivedConfig{Src: NewSource(name, text)}, lineno: 1}
	r.read()
	return r.cfg
}

// ParseDerivedConfig reads a configuration file and parses its
// definitions in order with one DerivedParser (so libpcp's matchinst state
// carries from one to the next). It returns the configuration and every
// diagnostic, in file order. A caller that registers the metrics should
// instead use ReadDerivedConfig and DerivedParser.ParseEntry as it goes:
// libpcp checks for a duplicate name before it parses, and skips parsing
// the expression of a duplicate.
func ParseDerivedConfig(name, text string, check Checker) (*DerivedConfig, Diagnostics) {
	cfg := ReadDerivedConfig(name, text)
	p := &DerivedParser{Check: check}
	var all Diagnostics
	for _, e := range cfg.Entries {
		if e.Kind == DerivedDef {
			x, d := p.ParseEntry(cfg, e)
			e.Expr = x
			if d != nil {
				e.Diags = append(e.Diags, d)
			}
		}
		all = append(all, e.Diags...)
	}
	return cfg, all
}

// ParseEntry parses the expression of a DerivedDef entry. Positions are in
// the file; the PCP offset is relative to the first non-blank character
// after the "=", where libpcp starts parsing.
func (p *DerivedParser) ParseEntry(cfg *DerivedConfig, e *DerivedEntry) (Expr, *Diagnostic) {
	return p.parseAt(cfg.Src, e.exprStart(cfg), e.exprEnd)
}

// exprStart is where libpcp starts parsing the entry's expression: its
// first non-blank character.
func (e *DerivedEntry) exprStart(cfg *DerivedConfig) int {
	start := e.exprBase
	for start < e.exprEnd && isSpace(cfg.Src.Text[start]) {
		start++
	}
	return start
}

// ExprOffset converts an offset relative to where libpcp starts parsing
// the entry's expression into an offset into ExprText.
func (e *DerivedEntry) ExprOffset(off int) int {
	lead := len(e.ExprText) - len(strings.TrimLeft(e.ExprText, " \t\n\v\f\r"))
	return lead + off
}

type configReader struct {
	cfg    *DerivedConfig
	off    int // next byte to read
	lineno int // libpcp's line counter
}

func (r *configReader) text() string { return r.cfg.Src.Text }

func (r *configReader) read() {
	t := r.text()
	for {
		nl := strings.IndexByte(t[r.off:], '\n')
		if nl < 0 {
			return // libpcp drops a last line with no newline
		}
		start, end := r.off, r.off+nl
		r.off = end + 1
		line := t[start:end]
		if i := strings.IndexByte(line, 0); i >= 0 {
			line = line[:i] // libpcp keeps the line in a C string
		}
		if line != "" && line[0] != '#' {
			r.line(start, line)
		}
		r.lineno++
	}
}

// line handles one non-comment line starting at offset start.
func (r *configReader) line(start int, line string) {
	eq := strings.IndexByte(line, '=')
	if eq < 0 {
		r.bad(start, line, "missing ``='' after derived metric name", true)
		return
	}
	lp := strings.IndexByte(line[:eq], '(')
	rp := strings.IndexByte(line[:eq], ')')
	nameEnd := eq
	if lp >= 0 {
		nameEnd = lp
	}
	nameStart, nameStop := trimSpan(line, 0, nameEnd)
	name := line[nameStart:nameStop]
	switch {
	case name == "":
		r.bad(start, line, "derived metric name missing", true)
		return
	case !legalDerivedName(name):
		r.bad(start, line, "illegal derived metric name ("+name+")", false)
		return
	case lp >= 0 && rp < 0:
		r.bad(start, line, "missing ')' after attribute", true)
		return
	case rp >= 0 && lp < 0:
		r.bad(start, line, "missing '(' before attribute", true)
		return
	}
	e := &DerivedEntry{
		Loc:      Loc{Span: r.cfg.Src.Span(start, start+len(line))},
		Line:     r.lineno,
		Name:     name,
		NameSpan: r.cfg.Src.Span(start+nameStart, start+nameStop),
	}
	if lp < 0 {
		if strings.TrimLeft(line[eq+1:], " \t\n\v\f\r") == "" {
			r.bad(start, line, "expression missing", true)
			return
		}
		e.Kind = DerivedDef
		e.ExprText = line[eq+1:]
		e.exprBase, e.exprEnd = start+eq+1, start+len(line)
		r.cfg.Entries = append(r.cfg.Entries, e)
		return
	}
	as, ae := trimSpan(line, lp+1, rp)
	if as >= ae {
		r.bad(start, line, "attribute name missing", true)
		return
	}
	e.Kind, e.Attr = DerivedAttr, line[as:ae]
	if r.attrValue(e, start, line, eq) {
		r.cfg.Entries = append(r.cfg.Entries, e)
	}
}

// trimSpan returns the bounds of s[i:j] without leading and trailing space.
func trimSpan(s string, i, j int) (int, int) {
	for j > i && isSpace(s[j-1]) {
		j--
	}
	for i < j && isSpace(s[i]) {
		i++
	}
	return i, j
}

// legalDerivedName is libpcp's check of a derived metric name: components
// of a letter followed by letters, digits and "_", separated by "."
// (libpcp lets a name end with ".").
func legalDerivedName(name string) bool {
	first := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case first:
			if !isAlpha(c) {
				return false
			}
			first = false
		case c == '.':
			first = true
		case !isAlnum(c) && c != '_':
			return false
		}
	}
	return true
}

// bad records a line libpcp rejects; echo says whether libpcp prints the
// line after its message.
func (r *configReader) bad(start int, line, reason string, echo bool) {
	d := &Diagnostic{Severity: Error, Src: r.cfg.Src, Span: r.cfg.Src.Span(start, start+len(line)),
		Msg: reason, PCP: PCPForm{Reason: reason, Line: r.lineno, Echo: echo}}
	r.cfg.Entries = append(r.cfg.Entries, &DerivedEntry{Loc: Loc{Span: d.Span}, Kind: DerivedBad,
		Line: r.lineno, Diags: Diagnostics{d}})
}

// attrValue reads the value of an attribute line, which may continue over
// the following lines. It reports whether the entry stands.
func (r *configReader) attrValue(e *DerivedEntry, start int, line string, eq int) bool {
	v := eq + 1
	for v < len(line) && isSpace(line[v]) {
		v++
	}
	var delim byte
	if v < len(line) && (line[v] == '"' || line[v] == '\'') {
		delim = line[v]
		v++
	}
	if v >= len(line) {
		r.bad(start, line, "attribute value missing", true)
		return false
	}
	if delim == 0 {
		e.Value = line[v:]
		return true
	}
	return r.quotedValue(e, start, line, v, delim)
}

// quotedValue reads a quoted attribute value starting at line[v], going on
// into the following lines of the file when the closing quote is not on
// this one, as libpcp does.
func (r *configReader) quotedValue(e *DerivedEntry, start int, line string, v int, delim byte) bool {
	t := r.text()
	if i := strings.IndexByte(line[v:], delim); i >= 0 && strings.IndexByte(line[v:v+i], '\\') < 0 {
		// the value ends on its line, with nothing to unescape
		e.Value = line[v : v+i]
		if rest := strings.TrimLeft(line[v+i+1:], " \t\n\v\f\r"); rest != "" {
			r.extraText(e, start+v+i+1, start+len(line), rest)
		}
		return true
	}
	hint := strings.IndexByte(t[start+v:], delim) // the value's length, unless escaped
	val := make([]byte, 0, max(hint, 0))
	esc, extra := false, 0
	pos := start + v // offset of the next character in the file
	onLine := true   // still reading the entry's own line
	for {
		var c byte
		switch {
		case onLine && pos < start+len(line):
			c = t[pos]
			pos++
		case onLine:
			c, onLine, pos = '\n', false, r.off // the line's own newline
		case pos < len(t):
			c = t[pos]
			pos++
		default:
			r.lineno += max(extra-1, 0)
			d := &Diagnostic{Severity: Error, Src: r.cfg.Src, Span: r.cfg.Src.Span(start+v-1, len(t)),
				Msg: "missing termination (" + string(delim) + ") for value",
				PCP: PCPForm{Reason: "missing termination (" + string(delim) + ") for value", Line: r.lineno}}
			r.off = len(t)
			r.cfg.Entries = append(r.cfg.Entries, &DerivedEntry{Loc: e.Loc, Kind: DerivedBad, Line: r.lineno, Diags: Diagnostics{d}})
			return false
		}
		if c == '\n' {
			extra++
		}
		if esc {
			esc = false
			if c != '\n' {
				val = append(val, c)
			}
			continue
		}
		if c == '\\' {
			esc = true
			continue
		}
		if c == delim {
			break
		}
		val = append(val, c)
	}
	e.Value = string(val)
	r.lineno += max(extra-1, 0)
	e.Line = r.lineno
	if onLine {
		rest := strings.TrimLeft(t[pos:start+len(line)], " \t\n\v\f\r")
		if rest != "" {
			r.extraText(e, pos, start+len(line), rest)
		}
		return true
	}
	r.off = pos
	r.skipAfterValue(e)
	return true
}

// skipAfterValue consumes the rest of the line on which a multi-line value
// ended, warning about text there. libpcp's loop never looks at the first
// character after the closing quote, and stops at a newline right after
// it; we copy that.
func (r *configReader) skipAfterValue(e *DerivedEntry) {
	t := r.text()
	at := func(i int) int {
		if i < len(t) {
			return int(t[i])
		}
		return -1
	}
	i := r.off
	c := at(i)
	i++
	for c != -1 && c != '\n' {
		c = at(i)
		i++
		if c == -1 || !isSpace(byte(c)) {
			break
		}
	}
	if c == -1 || c == '\n' {
		r.off = min(i, len(t))
		return
	}
	from := i - 1
	nl := strings.IndexByte(t[i:], '\n')
	end := len(t)
	if nl >= 0 {
		end = i + nl
	}
	r.extraText(e, from, end, t[from:end])
	r.off = min(end+1, len(t))
}

func (r *configReader) extraText(e *DerivedEntry, from, to int, text string) {
	msg := "extra text (" + text + ") after attribute value will be ignored"
	e.Diags = append(e.Diags, &Diagnostic{Severity: Warning, Src: r.cfg.Src, Span: r.cfg.Src.Span(from, to),
		Msg: msg, PCP: PCPForm{Reason: msg, Line: r.lineno}})
}
