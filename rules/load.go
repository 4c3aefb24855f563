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
	report := l.Diag
	if report == nil {
		report = pmieReport(f.Src.Name, l)
	}
	di := 0
	skip := map[*lang.Diagnostic]bool{} // taken rule names pmie does not report
	// syntax reports the parser's diagnostics up to offset before, or
	// up to the nth.
	syntax := func(before, n int) {
		for ; di < len(f.Diags) && di < n && (before < 0 || f.Diags[di].Span.Start.Offset < before); di++ {
			if !skip[f.Diags[di]] {
				report(f.Diags[di])
			}
		}
	}
	lastBad := f.FinalErrors > 0
	if l.Final != nil {
		defer func() { l.Final(lastBad) }()
	}
	comp.Src, comp.Scan, comp.B.Report = f.Src, f.Scan, report
	made := map[string]bool{} // names of the rules made
	compile := func(st *lang.Stmt) {
		r := comp.Statement(st)
		if r != nil || (!st.Anonymous && comp.Prog.Lookup(st.Name) != nil) {
			// (a rule refused by -x or -X keeps its name)
			made[st.Name] = true
		}
		if st == f.FinalStmt && comp.B.Errors() > 0 {
			lastBad = true
		}
		if l.Compiled != nil {
			l.Compiled(st, r)
		}
	}
	// dropped does what pmie did with a statement the parser dropped: it
	// looked its metrics up as it parsed them (between the diagnostics
	// before and after), and a statement whose name is taken only by a
	// statement it did not make a rule of, it kept.
	dropped := func(d *lang.Dropped) {
		syntax(-1, d.Diag)
		switch {
		case d.Stmt != nil && !made[d.Stmt.Name]:
			skip[d.Dup] = true
			compile(d.Stmt)
		default:
			dup, names, late := comp.Dropped(d)
			for _, n := range names {
				made[n] = true
			}
			if late != nil {
				syntax(-1, d.LateDiag)
				late()
			}
			if !dup && d.Dup != nil {
				skip[d.Dup] = true
			}
		}
	}
	next := 0
	for _, st := range f.Stmts {
		for ; next < len(f.Dropped) && f.Dropped[next].Start < st.Span.Start.Offset; next++ {
			if dropped(f.Dropped[next]); l.Stop != nil && l.Stop() {
				return false
			}
		}
		syntax(st.Span.Start.Offset, len(f.Diags))
		if compile(st); l.Stop != nil && l.Stop() {
			return false
		}
	}
	for ; next < len(f.Dropped); next++ {
		if dropped(f.Dropped[next]); l.Stop != nil && l.Stop() {
			return false
		}
	}
	syntax(-1, len(f.Diags))
	return true
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
