package lang

import (
	"fmt"
	"strings"
)

// The printers in this file render diagnostics in the words and layout of
// real PCP 6.0.3, for output that must match it. Our own rendering is
// Diagnostic.Error.

// PCPRegisterError renders a syntax error in the derived-metric expression
// expr as pmRegisterDerivedMetric(3) returns it in errmsg: a header naming
// the metric, the expression, a caret line, and the reason when libpcp has
// one. The text ends with a newline.
func PCPRegisterError(name, expr string, d *Diagnostic) string {
	return PCPRegisterText(name, expr, d.PCP.Offset, d.PCP.Reason)
}

// PCPRegisterText is PCPRegisterError for an error at byte offset off of
// expr with the given reason ("" for none), for errors found outside lang
// (libpcp reports some registration failures, such as a duplicate name, in
// the same form at offset 0).
func PCPRegisterText(name, expr string, off int, reason string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Error: pmRegisterDerivedMetric(\"%s\", ...)\n%s\n", name, expr)
	// libpcp pads with printf("%*s", -off, " "): at least one space unless
	// the error is at the very start.
	if off != 0 {
		b.WriteString(strings.Repeat(" ", max(off, -off)))
	}
	b.WriteString("^\n")
	if reason != "" {
		b.WriteString(reason + "\n")
	}
	return b.String()
}

// PCPSyntaxError renders a syntax error in a definition of the
// configuration as pmLoadDerivedConfig prints it on standard error.
func (c *DerivedConfig) PCPSyntaxError(e *DerivedEntry, d *Diagnostic) string {
	return PCPConfigSyntaxText(c.Src.Name, e.Line, e.Name, e.ExprText, e.ExprOffset(d.PCP.Offset), d.PCP.Reason)
}

// PCPConfigSyntaxText is the configuration loader's form of a syntax error:
// text is what follows the "=" on the line, off the error's byte offset in
// it, reason libpcp's reason ("" for none). Every non-blank character of
// text becomes a space in the caret line, which keeps the blanks, so the
// caret lines up under tabs too.
func PCPConfigSyntaxText(file string, line int, name, text string, off int, reason string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s:%d] Error: pmRegisterDerived(%s, ...) syntax error\n%s\n", file, line, name, text)
	for i := 0; i < len(text); i++ {
		switch {
		case i == off:
			b.WriteByte('^')
		case isSpace(text[i]):
			b.WriteByte(text[i])
		default:
			b.WriteByte(' ')
		}
	}
	b.WriteByte('\n')
	if reason != "" {
		b.WriteString(reason + "\n")
	}
	return b.String()
}

// PCPConfigDiag renders a diagnostic of the configuration loader itself
// (a line it rejects, or a warning about an attribute value) as libpcp
// prints it for a configuration file called file.
func PCPConfigDiag(file string, d *Diagnostic) string {
	sev := "Error"
	if d.Severity == Warning {
		sev = "Warning"
	}
	s := fmt.Sprintf("[%s:%d] %s: pmLoadDerivedConfig: %s\n", file, d.PCP.Line, sev, d.PCP.Reason)
	if d.PCP.Echo && d.Src != nil {
		s += d.Src.Line(d.Span.Start.Line) + "\n"
	}
	return s
}
