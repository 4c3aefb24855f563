package rules

import (
	"io"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/lang"
)

// Loading says how CompileText reports and is driven as it compiles a
// rule file.
type Loading struct {
	// Errs gets pmie's messages about the file, in pmie's words and in
	// the order pmie prints them.
	Errs io.Writer
	// Notify reports the messages pmie sends to its log with a time and
	// level (pmNotifyErr), such as an instance a rule names that its
	// metric does not have; nil writes them plainly to Errs.
	Notify func(msg string)
	// Prefetch, if set, is given the file's statements before they are
	// compiled (to look their metrics up ahead); the function it returns
	// is called when compiling is done.
	Prefetch func(stmts []*lang.Stmt) (done func())
	// Stop, if set, is asked after each statement whether to stop there
	// (pmie stops at an archive it cannot open).
	Stop func() bool
	// Compiled, if set, is given each statement after it is compiled, and
	// the rule it made (nil if none: a macro, a delta, or a statement
	// with errors).
	Compiled func(st *lang.Stmt, r *eval.Rule)
	// Final, if set, is told at the end whether the last statement pmie
	// parsed in the file had an error, syntax or semantic (pmie -C's
	// exit status comes from it).
	Final func(bad bool)
	// Diag, if set, is given every diagnostic instead of Errs and Notify
	// getting pmie's messages (to print them in our own form, as
	// pmie --werror does, or to collect them), in the same order.
	Diag func(*lang.Diagnostic)
}

// CompileText parses one rule file, name ("" for standard input), and
// compiles its statements in order with comp, reporting problems as pmie
// does: syntax errors with "syntax error - near line N of file F", the
// compiler's own messages at the statements they concern. It returns
// false if Stop stopped it.
func CompileText(comp *eval.Compiler, name, text string, l Loading) bool {
	return CompileParsed(comp, lang.ParsePmieWith(name, text, lang.PmieOptions{Agent: comp.Mode == eval.ModeAgent}), l)
}

// CompileParsed is CompileText for a file already parsed (parsing does
// not depend on the sources of metrics, and a parsed file is not changed
// by compiling it, so one parse can serve many compilations).
func CompileParsed(comp *eval.Compiler, f *lang.File, l Loading) bool {
	if l.Prefetch != nil {
		defer l.Prefetch(f.Stmts)()
	}
	c := &compiling{comp: comp, f: f, l: l, report: l.Diag, lastBad: f.FinalErrors > 0,
		skip: map[*lang.Diagnostic]bool{}, made: map[string]bool{}}
	if c.report == nil {
		c.report = pmieReport(f.Src.Name, l)
	}
	if l.Final != nil {
		defer func() { l.Final(c.lastBad) }()
	}
	comp.Src, comp.Scan, comp.B.Report = f.Src, f.Scan, c.report
	next := 0
	for _, st := range f.Stmts {
		for ; next < len(f.Dropped) && f.Dropped[next].Start < st.Span.Start.Offset; next++ {
			if c.dropped(f.Dropped[next]); c.stop() {
				return false
			}
		}
		c.syntax(st.Span.Start.Offset, len(f.Diags))
		if c.compile(st); c.stop() {
			return false
		}
	}
	for ; next < len(f.Dropped); next++ {
		if c.dropped(f.Dropped[next]); c.stop() {
			return false
		}
	}
	c.syntax(-1, len(f.Diags))
	return true
}

// compiling is CompileParsed at work: the file's statements compiled in
// turn, with the parser's diagnostics reported between them in the
// order pmie prints them.
type compiling struct {
	comp   *eval.Compiler
	f      *lang.File
	l      Loading
	report func(*lang.Diagnostic)
	di     int                       // the parser's diagnostics reported so far
	skip   map[*lang.Diagnostic]bool // taken rule names pmie does not report
	made   map[string]bool           // names of the rules made
	// lastBad says the last statement pmie parsed had an error
	lastBad bool
}

// stop asks Loading.Stop whether to stop.
func (c *compiling) stop() bool { return c.l.Stop != nil && c.l.Stop() }

// syntax reports the parser's diagnostics up to offset before (all if
// it is negative), or up to the nth.
func (c *compiling) syntax(before, n int) {
	ds := c.f.Diags
	for ; c.di < len(ds) && c.di < n && (before < 0 || ds[c.di].Span.Start.Offset < before); c.di++ {
		if !c.skip[ds[c.di]] {
			c.report(ds[c.di])
		}
	}
}

// compile compiles a statement the parser kept.
func (c *compiling) compile(st *lang.Stmt) {
	r := c.comp.Statement(st)
	if r != nil {
		c.made[st.Name] = true
	}
	if st == c.f.FinalStmt && c.comp.B.Errors() > 0 {
		c.lastBad = true
	}
	if c.l.Compiled != nil {
		c.l.Compiled(st, r)
	}
}

// dropped does what pmie did with a statement the parser dropped: it
// looked its metrics up as it parsed them (between the diagnostics
// before and after), built the rules its recovery completed once it had
// reported the error, and a statement whose name is taken only by a
// statement it did not make a rule of, it kept.
func (c *compiling) dropped(d *lang.Dropped) {
	c.syntax(-1, d.Diag)
	if d.Stmt != nil && !c.made[d.Stmt.Name] {
		c.skip[d.Dup] = true
		c.compile(d.Stmt)
		return
	}
	dup, names, late := c.comp.Dropped(d)
	for _, n := range names {
		c.made[n] = true
	}
	if late != nil {
		c.syntax(-1, d.LateDiag)
		late()
	}
	if !dup && d.Dup != nil {
		c.skip[d.Dup] = true
	}
}

// pmieReport prints diagnostics of the rule file called name as pmie
// does: on l.Errs, or through l.Notify for those pmie sends to its log.
func pmieReport(name string, l Loading) func(*lang.Diagnostic) {
	return func(d *lang.Diagnostic) {
		if d.PCP.Notify && l.Notify != nil {
			l.Notify(d.PCP.Reason)
			return
		}
		io.WriteString(l.Errs, lang.PCPPmieText(name, lang.Diagnostics{d}))
	}
}
