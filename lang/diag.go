package lang

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Severity says how bad a diagnostic is.
type Severity uint8

// The severities.
const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Note is extra information attached to a diagnostic, such as the macro a
// piece of text was expanded from.
type Note struct {
	Src  *Source
	Span Span
	Msg  string
}

// PCPForm carries what real PCP prints for a diagnostic where that differs
// from our own rendering: its wording and its idea of where the error is.
// The PCP printers (pcpprint.go) use it.
type PCPForm struct {
	// Reason is PCP's wording of the problem, the line libpcp prints after
	// its caret line or pmie prints after "syntax error - near line N".
	// Empty when PCP prints no reason.
	Reason string
	// Offset is libpcp's caret offset into a derived-metric expression:
	// the start of the token where its parser stopped, or len(expr)-1 at
	// the end of the expression (libpcp points at the last character).
	Offset int
	// Line is the line number pmie reports, which is where pmie's scanner
	// had got to, not necessarily the line of the offending token.
	Line int
	// Macro is the innermost macro pmie was reading when it reported the
	// error, or "" when it was reading the file itself.
	Macro string
	// Echo is set when libpcp's configuration loader prints the offending
	// line after its message.
	Echo bool
	// NoHeader is set when pmie prints Reason without its "syntax error"
	// header line (lexical errors such as an undefined macro, a metric
	// its source does not have).
	NoHeader bool
	// Warning is set when pmie's header line says "warning" instead of
	// "syntax error".
	Warning bool
	// Notify is set when pmie sends Reason to its log (pmNotifyErr, with
	// a time and level) rather than printing it.
	Notify bool
}

// Diagnostic is a problem found in a source text, with its position. All of
// lang's errors are Diagnostics; *Diagnostic implements error.
type Diagnostic struct {
	Severity Severity
	Src      *Source
	Span     Span
	Msg      string
	Notes    []Note
	PCP      PCPForm
}

// Error renders d as file:line:col: severity: message, followed by the
// source line and a caret under the span, then any notes.
func (d *Diagnostic) Error() string {
	var b strings.Builder
	writeDiag(&b, d.Src, d.Span, d.Severity.String(), d.Msg)
	for _, n := range d.Notes {
		writeDiag(&b, n.Src, n.Span, "note", n.Msg)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func writeDiag(b *strings.Builder, src *Source, sp Span, sev, msg string) {
	name := "<input>"
	if src != nil && src.Name != "" {
		name = src.Name
	}
	b.WriteString(name)
	if sp.Start.IsValid() {
		b.WriteString(":" + sp.Start.String())
	}
	b.WriteString(": " + sev + ": " + msg + "\n")
	if src == nil || !sp.Start.IsValid() {
		return
	}
	line := src.Line(sp.Start.Line)
	b.WriteString(line + "\n")
	b.WriteString(caretLine(line, sp) + "\n")
}

// caretLine returns a line that puts ^ under the start of sp and ~ under
// the rest of it (as far as the end of the line), keeping tabs so the
// caret lines up with the source as a terminal shows it.
func caretLine(line string, sp Span) string {
	var b strings.Builder
	col := 1
	for _, r := range line {
		if col >= sp.Start.Col {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		col++
	}
	b.WriteByte('^')
	n := 0
	if sp.End.Line == sp.Start.Line {
		n = sp.End.Col - sp.Start.Col - 1
	} else if sp.End.Line > sp.Start.Line {
		n = utf8.RuneCountInString(line) - sp.Start.Col
	}
	for i := 0; i < n; i++ {
		b.WriteByte('~')
	}
	return b.String()
}

// Diagnostics is a list of diagnostics; as an error it renders them all.
type Diagnostics []*Diagnostic

func (ds Diagnostics) Error() string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Error()
	}
	return strings.Join(parts, "\n")
}

// Err returns ds as an error, or nil when there are no errors in it.
func (ds Diagnostics) Err() error {
	for _, d := range ds {
		if d.Severity == Error {
			return ds
		}
	}
	return nil
}

// Sort orders ds by source name and then position, keeping the order of
// equal ones (diagnostics without a source come first).
func (ds Diagnostics) Sort() {
	name := func(d *Diagnostic) string {
		if d.Src == nil {
			return ""
		}
		return d.Src.Name
	}
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if na, nb := name(a), name(b); na != nb {
			return na < nb
		}
		return a.Span.Start.Offset < b.Span.Start.Offset
	})
}

// ExpansionNotes are the notes saying which macros text at from was
// expanded from, innermost first.
func ExpansionNotes(src *Source, from *Expansion) []Note {
	var notes []Note
	for e := from; e != nil; e = e.Outer {
		if e.Ref.Start.IsValid() {
			notes = append(notes, Note{Src: src, Span: e.Ref, Msg: "expanded from macro $" + e.Macro})
		}
	}
	return notes
}
