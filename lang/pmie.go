package lang

import (
	"fmt"
	"strings"
)

// ParsePmie parses a pmie rule file called name. Statements are read in
// order, as pmie reads them: each ends at ";" (or "}"), string macros are
// expanded by the scanner as soon as they are defined, and a statement with
// a syntax error is reported and left out while parsing goes on (skipping
// more input exactly when pmie does, see pmieParser). File.Diags holds
// every diagnostic in the order pmie prints them; PCPPmieText renders them
// in pmie's words.
//
// Statements' expressions are made of these nodes: *Number (with *Scale),
// *String, *Bool, *Var ($macro with a value), *Metric (with :host, #inst
// and @N..M qualifiers), *Paren, *Unary (OpNeg, OpNot, OpRate, OpInstant,
// OpRising, OpFalling), *Binary (arithmetic, relational, && ||, and OpSeq
// and OpAlt between actions), *Quant, *Aggr, *MatchInst, *Action, *Rule
// and *Ruleset. Precedence is pmie's, lowest first: -> ; && || & | ;
// prefix ! rising falling ; quantifiers ; match_inst nomatch_inst ;
// relational operators ; + - ; * / ; prefix - rate instant ; aggregates.
// An operator only applies where its operands have the right type (for
// example && needs logical expressions), so a prefix operator's operand
// extends as far as it must to have its type: count_inst a > 1 && b is
// (count_inst (a > 1)) && b, which pmie rejects.
//
// lang does not check what needs metric metadata or regular expressions.
// It assumes every statement that parses passes pmie's semantic checks;
// pmie names unnamed statements expr_1, expr_2 ... in order, but only
// counts those that pass them.
func ParsePmie(name, text string) (f *File) {
	return ParsePmieWith(name, text, PmieOptions{})
}

// PmieOptions are what pmie's command line changes in its grammar.
type PmieOptions struct {
	// Agent is pmie's secret agent mode (-x), whose values are sent as
	// metrics named after the statements: each time pmie's parser
	// completes a statement without a name (even one it then drops, or
	// the nothing its recovery from an error completes), pmie reports it
	// as a syntax error.
	Agent bool
}

// ParsePmieWith is ParsePmie with options.
func ParsePmieWith(name, text string, o PmieOptions) (f *File) {
	s := newPmieSession(name, text)
	s.agent = o.Agent
	defer func() {
		if r := recover(); r != nil {
			s.file.Diags = append(s.file.Diags, internalError(s.src, 0, r))
			f = s.file
		}
	}()
	for s.lx.rd.top() != nil {
		s.file.FinalStmt = s.statement()
		s.file.FinalErrors = s.errs
	}
	return s.file
}

// reservedMacros are pmie's predefined macros.
var reservedMacros = []string{"delta", "minute", "hour", "day", "month", "year", "day_of_week"}

type pmieSession struct {
	src    *Source
	lx     *pmieLexer
	macros map[string]*macroDef
	rules  map[string]bool
	file   *File

	agent  bool        // PmieOptions.Agent
	header *Diagnostic // the last "syntax error" header, while a reason may still join it
	errs   int         // pmie's error count for the statement
	exprN  int         // expr_N names used
	toks   []token     // storage for each statement's tokens in turn
	// what pmie does while parsing the statement, kept or not: the rules
	// (cond -> action, a ruleset's options) it builds and the metrics it
	// looks up
	stmt Dropped
}

func newPmieSession(name, text string) *pmieSession {
	src := NewSource(name, text)
	s := &pmieSession{src: src, macros: map[string]*macroDef{}, rules: map[string]bool{},
		file: &File{Src: src, Macros: map[string]*Stmt{}}}
	s.lx = &pmieLexer{s: s, rd: charReader{inputs: []*pinput{{text: text, lno: 1}}, end: len(text)}}
	for _, m := range reservedMacros {
		s.macros[m] = &macroDef{kind: macroReserved}
	}
	return s
}

// tokSpan is the span of a token, and a note when it came from a macro.
func (s *pmieSession) diag(t token, msg string, pcp PCPForm) *Diagnostic {
	d := &Diagnostic{Severity: Error, Src: s.src, Span: s.src.Span(t.start, t.end), Msg: msg, PCP: pcp,
		Notes: ExpansionNotes(s.src, t.from)}
	s.file.Diags = append(s.file.Diags, d)
	return d
}

// where is pmie's idea of where its scanner is.
func (s *pmieSession) where() PCPForm {
	p := s.scanPos()
	return PCPForm{Line: p.Line, Macro: p.Macro}
}

// scanPos is where the scanner is (line 0 at the end of the input).
func (s *pmieSession) scanPos() ScanPos {
	line, macro, ok := s.lx.rd.where()
	if !ok {
		return ScanPos{}
	}
	return ScanPos{Line: line, Macro: macro}
}

// syntaxError is pmie's first report of a syntax error in a statement.
func (s *pmieSession) syntaxError(t token) {
	s.errs++
	s.header = s.diag(t, "syntax error: unexpected "+t.describe(), s.where())
}

// gramerr is pmie's complaint about what was expected; like pmie, it then
// skips input to the next ";". A complaint about what should precede a
// later token is kept as a note on the error at the first bad token.
func (s *pmieSession) gramerr(t token, msg string) {
	if h := s.header; h != nil {
		h.PCP.Reason = msg
		if strings.Contains(msg, " expected to precede ") && t.start != h.Span.Start.Offset {
			h.Notes = append(h.Notes, Note{Src: s.src, Span: s.src.Span(t.start, t.end), Msg: "pmie: " + msg})
		} else {
			h.Msg = msg
		}
	} else {
		pcp := s.where()
		pcp.NoHeader, pcp.Reason = true, msg
		s.diag(t, msg, pcp)
	}
	s.header = nil
	s.lx.rd.sync()
}

// lexError is a message of pmie's scanner, from the "$" at from to at.
// header says whether pmie reports a syntax error first.
func (s *pmieSession) lexError(from, at pchar, msg string, header bool) {
	t := token{start: from.start, end: max(at.end, from.end), from: from.from}
	if at.c == eofc {
		t.end = from.end
	}
	pcp := s.where()
	pcp.Reason, pcp.NoHeader = msg, !header
	if header {
		s.errs++
	}
	s.diag(t, msg, pcp)
	s.header = nil
}

// lookupMacro finds $name (from dollar to end), reporting it when undefined.
func (s *pmieSession) lookupMacro(name string, dollar pchar, end int) *macroDef {
	if m := s.macros[name]; m != nil {
		return m
	}
	s.lexError(dollar, pchar{c: 0, start: dollar.start, end: end}, "undefined macro name $"+name, false)
	return nil
}

// scan is the next token, noted in the file's Scan.
func (s *pmieSession) scan() token {
	t := s.lx.next()
	p := s.scanPos()
	p.End = t.kind == tkEOF
	t.seq = int32(len(s.file.Scan))
	s.file.Scan = append(s.file.Scan, p)
	return t
}

// statement parses one statement. pmie keeps what the last reduction of
// the statement produced: after a stray token, a statement can be reduced
// once before the error and once more (to nothing) after recovery. It
// returns the statement kept, if any.
func (s *pmieSession) statement() *Stmt {
	c := &pmieParser{s: s}
	c.next = s.scan
	c.toks = s.toks[:0]
	defer func() { s.toks = c.toks[:0] }()
	s.errs, s.header = 0, nil
	s.stmt = Dropped{Start: -1, Diag: len(s.file.Diags)}
	var last *Stmt
	var early []*Stmt // reduced, then replaced by a later reduction
	c.reduced = func(name *token, x pv, toks []token) {
		if last != nil {
			early = append(early, last)
		}
		last = s.reduce(name, x, toks)
		if name == nil && s.agent {
			s.unnamed(c.peek(), x, c.resumed)
		}
	}
	c.statement()
	s.stmt.Reduced = early
	switch {
	case last != nil:
		s.file.Stmts = append(s.file.Stmts, last)
	case s.stmt.Rules > 0 || len(s.stmt.Metrics) > 0 || len(s.stmt.Built) > 0 || s.stmt.Dup != nil || len(early) > 0 || s.stmt.Anon != nil:
		d := s.stmt
		if len(c.toks) > 0 {
			d.Start = c.toks[0].start
		}
		s.file.Dropped = append(s.file.Dropped, &d)
	}
	return last
}

// unnamed is pmie's complaint, in secret agent mode, about a statement
// without a name that its parser has completed as x, reading t: the ";",
// or a stray token. Where x is the rule its recovery from a missing
// condition made (resumed is the type of what the operator missing an
// operand makes), pmie completes the statement before reading the ";" its
// recovery stopped at, and reports it there.
func (s *pmieSession) unnamed(t token, x pv, resumed Type) {
	s.errs++
	at := s.where()
	if resumed == TypeRule && x.t == TypeRule && x.v == vNull && x.x == nil && t.val != "" && at.Macro == "" {
		at.Line = s.src.Pos(t.start).Line
	}
	d := s.diag(t, "expressions must be named in agent mode", at)
	d.PCP.Reason = d.Msg
}

// reduce does what pmie does when it has parsed a statement (its
// statement() action): nothing if parsing left no value; otherwise an
// unnamed statement uses up the next expr_N name, a constant defines a
// macro, and anything else is registered as an expression to evaluate
// unless the name is taken or the statement had an error.
func (s *pmieSession) reduce(name *token, x pv, toks []token) *Stmt {
	if x.v == vNull {
		return nil
	}
	n, anon := "", name == nil
	if anon {
		s.exprN++
		n = fmt.Sprintf("expr_%d", s.exprN)
	} else {
		n = name.val
	}
	if x.v != vConst && s.rules[n] {
		if s.errs == 0 && x.x != nil {
			s.stmt.Stmt = s.newStmt(name, n, x, toks)
		}
		s.errs++
		at := toks[0]
		if name != nil {
			at = *name
		}
		d := s.diag(at, fmt.Sprintf("rule %q multiply defined", n), s.where())
		d.PCP.Reason = d.Msg
		s.stmt.Dup = d
		return nil
	}
	if s.errs > 0 {
		// pmie drops an expression with an error; it would still define a
		// macro, but no clean text is left to define it from. What it
		// built (&& or || whose right operand failed, a rule's condition,
		// even a constant, whose action failed) used up the name.
		if anon {
			s.stmt.Anon = x.alive()
		}
		return nil
	}
	if x.x == nil {
		s.file.Diags = append(s.file.Diags, &Diagnostic{Severity: Error, Src: s.src,
			Span: s.src.Span(toks[0].start, toks[len(toks)-1].end),
			Msg:  "internal error: a statement without errors has no syntax tree"})
		return nil
	}
	st := s.newStmt(name, n, x, toks)
	if st.Kind != StmtMacro && st.Kind != StmtDelta {
		s.rules[n] = true
		return st
	}
	m := &macroDef{value: st.X, def: st.X.Where().Span}
	switch {
	case x.t&TypeString != 0:
		m.kind = macroString
		m.text = Unparen(st.X).(*String).Value
	case x.t&TypeBool != 0:
		m.kind = macroBool
	default:
		m.kind = macroNumber
	}
	s.macros[n] = m
	s.file.Macros[n] = st
	return st
}

// newStmt is the statement called n (name, or made up if nil) of x, made
// of toks.
func (s *pmieSession) newStmt(name *token, n string, x pv, toks []token) *Stmt {
	last := toks[len(toks)-1]
	st := &Stmt{Loc: Loc{Span: s.src.Span(toks[0].start, max(last.end, toks[0].start)), From: toks[0].from, Last: last.seq + 1},
		Kind: StmtExpr, X: x.x, Name: n, Anonymous: name == nil}
	if name != nil {
		st.NameSpan = s.src.Span(name.start, name.end)
	}
	s.classify(st, x)
	return st
}

// classify decides what kind of statement st is.
func (s *pmieSession) classify(st *Stmt, x pv) {
	st.Kind = StmtExpr
	switch e := Unparen(st.X).(type) {
	case *Rule:
		st.Kind = StmtRule
	case *Ruleset:
		st.Kind = StmtRuleset
	case *Action:
		st.Kind = StmtAction
	case *Binary:
		if e.Op == OpSeq || e.Op == OpAlt {
			st.Kind = StmtAction
		}
	}
	if x.v == vConst {
		st.Kind = StmtMacro
		if st.Name == "delta" && !st.Anonymous {
			st.Kind = StmtDelta
		}
	}
}

// isPmieConst reports whether pmie folds x into a constant, which makes a
// named statement a macro rather than an expression to evaluate.
func isPmieConst(x Expr) bool {
	switch x := x.(type) {
	case *Number, *String, *Bool:
		return true
	case *Var:
		return x.Value != nil
	case *Paren:
		return isPmieConst(x.X)
	case *Unary:
		return (x.Op == OpNeg || x.Op == OpNot || x.Op == OpInstant) && isPmieConst(x.X)
	case *Binary:
		return x.Op != OpSeq && x.Op != OpAlt && isPmieConst(x.X) && isPmieConst(x.Y)
	case *MatchInst:
		return isPmieConst(x.X)
	}
	return false
}

// PCPPmieText renders diagnostics of a rule file as pmie prints them on
// standard error; file is the name pmie was given ("" for standard input).
// Diagnostics pmie sends to its log (PCP.Notify) are rendered as their
// reason alone.
func PCPPmieText(file string, ds Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		switch {
		case d.PCP.NoHeader || d.PCP.Notify:
		case d.PCP.Warning:
			b.WriteString("pmie: warning - " + pmieWhere(file, d.PCP) + "\n")
		default:
			b.WriteString("pmie: syntax error - " + pmieWhere(file, d.PCP) + "\n")
		}
		if d.PCP.Reason != "" {
			b.WriteString(d.PCP.Reason + "\n")
		}
	}
	return b.String()
}

func pmieWhere(file string, p PCPForm) string {
	if p.Line == 0 {
		return "at end of file"
	}
	in := "file " + file
	if file == "" {
		in = "standard input"
	}
	if p.Macro != "" {
		return fmt.Sprintf("near line %d of macro $%s called from %s", p.Line, p.Macro, in)
	}
	return fmt.Sprintf("near line %d of %s", p.Line, in)
}

// ScanPos is where pmie's scanner is once it has returned a token, as
// pmie reports it: "near line Line of file F", or "near line Line of
// macro $Macro called from file F" while it reads a macro's text; Line
// is 0 when it has met the end of the file ("at end of file"). End says
// the token ends a statement (";", "}", the end of the input).
type ScanPos struct {
	Line  int
	Macro string
	End   bool
}

// Scan is where pmie's scanner was after each token of a rule file, in
// the order it read them (numbered as Loc.Last counts them). pmie reports
// a problem it finds while its parser builds a construct where its
// scanner is at that moment: having read the token after the construct
// (After), or, for one that nothing could extend, its last token (At);
// a problem with a whole statement, past the token that ends it
// (Ending). Where the scanner is includes what it read beyond a token to
// find the token's end: the newline after a word, the word after a "/"
// (to tell a division from a unit's "/"), the white space after a ";".
type Scan []ScanPos

// After is where the scanner is once it has read the token after the
// construct at l. ok is false if l was not scanned.
func (s Scan) After(l Loc) (p ScanPos, ok bool) {
	if l.Last <= 0 || int(l.Last) >= len(s) {
		return ScanPos{}, false
	}
	return s[l.Last], true
}

// At is where the scanner is once it has read the last token of the
// construct at l.
func (s Scan) At(l Loc) (p ScanPos, ok bool) {
	if l.Last <= 0 || int(l.Last) > len(s) {
		return ScanPos{}, false
	}
	return s[l.Last-1], true
}

// Ending is where the scanner is once it has read the token that ends
// the statement at l (or of which l is a part).
func (s Scan) Ending(l Loc) (p ScanPos, ok bool) {
	if l.Last <= 0 {
		return ScanPos{}, false
	}
	for i := int(l.Last) - 1; i < len(s); i++ {
		if s[i].End {
			return s[i], true
		}
	}
	return ScanPos{}, false
}
