package rules

import (
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/lang"
)

// CheckText compiles one rule file, name, with comp as a reload does:
// instead of pmie's messages as it goes, every problem is collected with
// its place. It returns the file's errors (syntax errors, statements the
// compiler refused), each rendered as "file:line:col: error: message"
// with the line and a caret under what it is about, joined, or nil; and
// its warnings (metrics not found for now, which pmie retries; a syslog
// option it ignores), rendered the same way, which do not stop a reload.
func CheckText(comp *eval.Compiler, name, text string) (errs error, warnings []string) {
	var problems lang.Diagnostics
	CompileText(comp, name, text, Loading{Diag: func(d *lang.Diagnostic) {
		if d.Severity == lang.Error {
			problems = append(problems, d)
		} else {
			warnings = append(warnings, d.Error())
		}
	}})
	comp.B.Report = nil
	return problems.Err(), warnings
}
