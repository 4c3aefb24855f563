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
	return CompileParsed(comp, lang.ParsePmie(name, text), l)
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
	// syntax reports the parser's diagnostics up to offset before.
	syntax := func(before int) {
		for ; di < len(f.Diags) && (before < 0 || f.Diags[di].Span.Start.Offset < before); di++ {
			report(f.Diags[di])
		}
	}
	lastBad := f.FinalErrors > 0
	if l.Final != nil {
		defer func() { l.Final(lastBad) }()
	}
	comp.Src, comp.B.Report = f.Src, report
	for _, st := range f.Stmts {
		syntax(st.Span.Start.Offset)
		r := comp.Statement(st)
		if st == f.FinalStmt && comp.B.Errors() > 0 {
			lastBad = true
		}
		if l.Compiled != nil {
			l.Compiled(st, r)
		}
		if l.Stop != nil && l.Stop() {
			return false
		}
	}
	syntax(-1)
	comp.B.CountDropped(f.DroppedRules)
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
