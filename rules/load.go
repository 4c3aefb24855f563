package rules

import (
	"fmt"
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
	name := f.Src.Name
	if l.Prefetch != nil {
		defer l.Prefetch(f.Stmts)()
	}
	di := 0
	// syntax prints the parser's diagnostics up to offset before.
	syntax := func(before int) {
		for ; di < len(f.Diags) && (before < 0 || f.Diags[di].Span.Start.Offset < before); di++ {
			io.WriteString(l.Errs, lang.PCPPmieText(name, lang.Diagnostics{f.Diags[di]}))
		}
	}
	lastBad := f.FinalErrors > 0
	if l.Final != nil {
		defer func() { l.Final(lastBad) }()
	}
	for _, st := range f.Stmts {
		syntax(st.Span.Start.Offset)
		stmtWhere := pmieWhere(name, scannerLine(f.Src, st.Span.End.Offset))
		comp.B.Report = func(d eval.Diag) {
			where := stmtWhere
			if d.At > 0 {
				where = pmieWhere(name, f.Src.Pos(d.At-1).Line)
			}
			switch {
			case d.Syntax:
				fmt.Fprintf(l.Errs, "%s: syntax error - %s\n%s\n", prog(comp), where, d.Msg)
			case d.Warning:
				fmt.Fprintf(l.Errs, "%s: warning - %s\n%s\n", prog(comp), where, d.Msg)
			case d.Notify && l.Notify != nil:
				l.Notify(d.Msg)
			default:
				fmt.Fprintf(l.Errs, "%s\n", d.Msg)
			}
		}
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
	return true
}

// prog is the program name in pmie's messages.
func prog(comp *eval.Compiler) string {
	if comp.B.Prog != "" {
		return comp.B.Prog
	}
	return "pmie"
}

// scannerLine is the line pmie's scanner has reached when it finishes the
// statement ending at offset end: past the ";" and the white space after
// it. 0 means the end of the file.
func scannerLine(src *lang.Source, end int) int {
	t := src.Text
	i := end
	for i < len(t) && t[i] != ';' && t[i] != '}' {
		i++
	}
	if i < len(t) {
		i++
	}
	for i < len(t) && (t[i] == ' ' || t[i] >= '\t' && t[i] <= '\r') {
		i++
	}
	if i >= len(t) {
		return 0
	}
	return src.Pos(i).Line
}

// pmieWhere is where pmie says an error is: "near line N of file F".
func pmieWhere(file string, line int) string {
	switch {
	case line == 0:
		return "at end of file"
	case file == "":
		return fmt.Sprintf("near line %d of standard input", line)
	}
	return fmt.Sprintf("near line %d of file %s", line, file)
}
