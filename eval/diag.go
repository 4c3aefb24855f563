package eval

import (
	"fmt"

	"github.com/gopcp/pmie/lang"
)

// This file makes every diagnostic eval reports: a lang.Diagnostic at the
// node being compiled (file:line:col, the source line and a caret, in our
// words), carrying what pmie prints for it (lang.PCPForm: its wording,
// its header and the line its scanner had reached), which
// lang.PCPPmieText renders.

// here is where the Builder is in a rule file, for its diagnostics. The
// Compiler keeps it up to date; it is empty when the Builder is used
// directly, and while rules run (a metric retried later is reported
// without a place).
type here struct {
	src *lang.Source
	loc lang.Loc // the node being compiled
	// pos is where pmie's scanner is when its parser builds that node
	// (lang.Scan), which pmie reports.
	pos lang.ScanPos
	// at is, where pmie reduces the construct being built without
	// reading on (Compiler.reducedAt), where its scanner stopped, which
	// pmie then reports.
	at *lang.ScanPos
}

// report hands Report a diagnostic at the node being compiled: msg in our
// words, pcp what pmie prints.
func (b *Builder) report(sev lang.Severity, msg string, pcp lang.PCPForm) {
	if b.Report == nil {
		return
	}
	h := b.here
	pos := h.pos
	if h.at != nil {
		pos = *h.at
	}
	pcp.Line, pcp.Macro = pos.Line, pos.Macro
	b.Report(&lang.Diagnostic{Severity: sev, Src: h.src, Span: h.loc.Span, Msg: msg, PCP: pcp,
		Notes: lang.ExpansionNotes(h.src, h.loc.From)})
}

// synerr reports an error that pmie prints as a syntax error, and counts
// it against the statement.
func (b *Builder) synerr(format string, args ...any) {
	b.errs++
	msg := fmt.Sprintf(format, args...)
	b.report(lang.Error, msg, lang.PCPForm{Reason: msg})
}

// warn reports what pmie prints as a warning.
func (b *Builder) warn(msg string) {
	b.report(lang.Warning, msg, lang.PCPForm{Reason: msg, Warning: true})
}

// plain reports a problem pmie prints without a header, as reason.
func (b *Builder) plain(sev lang.Severity, msg, reason string) {
	b.report(sev, msg, lang.PCPForm{Reason: reason, NoHeader: true})
}

// failed reports that a statement cannot be built, as pmie does without
// a header, and counts it against the statement.
func (b *Builder) failed(msg string) {
	b.errs++
	b.plain(lang.Error, msg, msg)
}

// lookupFailed reports that m's metadata could not be had: pmie goes on
// with the statement and tries again later (an error in archive mode,
// where it does not). call is the PMAPI call that failed.
func (b *Builder) lookupFailed(m *Metric, what, call string, err error) {
	sev := lang.Warning
	if b.Env.Archive {
		sev = lang.Error
	}
	prep := "for"
	if call == "pmLookupDesc" {
		prep = "from"
	}
	where := fmt.Sprintf("metric %s %s %s %s", m.Name, what, prep, b.describe(m))
	b.plain(sev, where+": "+errText(err), "pmie: "+where+"\n"+call+" failed: "+errText(err))
}

// badMetric reports a metric pmie cannot use at all.
func (b *Builder) badMetric(m *Metric, what string) {
	msg := "metric " + m.Name + " " + what
	b.plain(lang.Error, msg, "pmie: "+msg)
}

// noInDom reports that the instances of m's instance domain could not be
// had: final for an archive, tried again later live.
func (b *Builder) noInDom(m *Metric, err error) {
	if b.Env.Archive {
		b.plain(lang.Error, fmt.Sprintf("metric %s from %s: instance domain not available in archive: %s", m.Name, b.describe(m), errText(err)),
			fmt.Sprintf("Metric %s from %s - instance domain not available in archive\npmGetInDomArchive failed: %s", m.Name, b.describe(m), errText(err)))
		return
	}
	b.plain(lang.Warning, fmt.Sprintf("instance domain of metric %s from %s not (currently) available: %s", m.Name, b.describe(m), errText(err)),
		fmt.Sprintf("Instance domain for metric %s from %s not (currently) available\npmGetIndom failed: %s", m.Name, b.describe(m), errText(err)))
}

// noInstance reports an instance a rule names that m does not have (now):
// pmie says so in its log.
func (b *Builder) noInstance(m *Metric, inst string) {
	msg := fmt.Sprintf("metric %s from %s does not (currently) have instance \"%s\"", m.Name, b.describe(m), inst)
	b.report(lang.Warning, msg, lang.PCPForm{Reason: msg, Notify: true})
}

// notAllowed reports a named statement whose expression is a rule with
// actions, or an action, in pmie's secret agent or applet mode.
func (b *Builder) notAllowed(op Op) {
	b.synerr("operator %s not allowed in agent mode", op)
}
