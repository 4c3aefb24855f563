package rules

import (
	"errors"
	"strings"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/lang"
)

// CheckText compiles one rule file, name, with comp as a reload does:
// instead of pmie's messages as it goes, every problem is collected with
// its place. It returns the file's errors (syntax errors, statements the
// compiler refused), each rendered as "file:line:col: error: message"
// with the line and a caret, joined, or nil; and its warnings (metrics
// not found for now, which pmie retries; a syslog option it ignores),
// rendered the same way, which do not stop a reload.
func CheckText(comp *eval.Compiler, name, text string) (errs error, warnings []string) {
	f := lang.ParsePmie(name, text)
	var problems []string
	for _, d := range f.Diags {
		if d.Severity == lang.Error {
			problems = append(problems, d.Error())
		} else {
			warnings = append(warnings, d.Error())
		}
	}
	for _, st := range f.Stmts {
		comp.B.Report = func(d eval.Diag) {
			diag := &lang.Diagnostic{Severity: lang.Error, Src: f.Src, Span: st.Span, Msg: strings.TrimSpace(d.Msg)}
			if d.Syntax {
				problems = append(problems, diag.Error())
				return
			}
			diag.Severity = lang.Warning
			warnings = append(warnings, diag.Error())
		}
		comp.Statement(st)
	}
	comp.B.Report = nil
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n")), warnings
	}
	return nil, warnings
}
