package derive

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// This file makes every diagnostic derive reports, and prints them both our
// way (lang.Diagnostic's file:line:col form) and libpcp's way.

// Kind says what sort of problem a Diagnostic is, which decides how libpcp
// would report it.
type Kind uint8

// The kinds of diagnostic.
const (
	// KindSyntax is a syntax error in an expression (found by lang, or by
	// derive's checks of mkconst, rescale and matchinst arguments, which
	// libpcp makes while parsing).
	KindSyntax Kind = iota
	// KindConfig is a configuration line libpcp rejects, or a warning
	// about one.
	KindConfig
	// KindRegister is a registration failure: a duplicate name.
	KindRegister
	// KindSemantic is a semantic error found when a context binds a
	// derived metric.
	KindSemantic
	// KindLookup is an operand metric that the context does not have.
	// libpcp says nothing about these (unless debugging); the derived
	// metric just fails.
	KindLookup
	// KindShadowed is a derived metric whose name is a metric of the
	// context; the real metric wins and libpcp says nothing.
	KindShadowed
	// KindCycle is a derived metric that uses itself through other
	// derived metrics (libpcp refuses derived operands altogether).
	KindCycle
	// KindInternal is a bug in derive, caught rather than crashing.
	KindInternal
)

// Diagnostic is a problem with a derived metric. It is a lang.Diagnostic
// (severity, position, message) plus what is needed to print it as libpcp
// does.
type Diagnostic struct {
	*lang.Diagnostic
	Kind   Kind
	Metric string // the derived metric's name ("" for configuration lines)
	Expr   string // its expression as registered

	// for KindSemantic: the node libpcp names in its message, and whether
	// it is the ":" of a ternary rather than the node itself
	node  lang.Expr
	colon bool
	// for diagnostics from a configuration file
	cfg   *lang.DerivedConfig
	entry *lang.DerivedEntry
}

// PCP renders d as libpcp 6.0.3 prints it (on standard error, through
// pmprintf), with a final newline, or "" where libpcp prints nothing.
func (d Diagnostic) PCP() string {
	switch d.Kind {
	case KindSyntax:
		if d.cfg != nil {
			return d.cfg.PCPSyntaxError(d.entry, d.Diagnostic)
		}
		return lang.PCPRegisterError(d.Metric, d.Expr, d.Diagnostic)
	case KindConfig:
		return lang.PCPConfigDiag(d.cfg.Src.Name, d.Diagnostic)
	case KindRegister:
		if d.cfg != nil {
			off := d.entry.ExprOffset(0)
			return lang.PCPConfigSyntaxText(d.cfg.Src.Name, d.entry.Line, d.entry.Name, d.entry.ExprText, off, d.Diagnostic.PCP.Reason)
		}
		return lang.PCPRegisterText(d.Metric, d.Expr, 0, d.Diagnostic.PCP.Reason)
	case KindSemantic:
		what := operandText(d.node)
		if d.colon {
			what = colonText(d.node.(*lang.Ternary))
		}
		return fmt.Sprintf("Semantic error: derived metric %s: %s: %s\n", d.Metric, what, d.Diagnostic.PCP.Reason)
	case KindCycle:
		return fmt.Sprintf("Semantic error: derived metric %s: %s\n", d.Metric, d.Msg)
	}
	return ""
}

// operandText is how libpcp's report_sem_error names the node in error:
// operators with their operands (names and constants as written, anything
// else as <expr>), functions in capitals with their argument.
func operandText(x lang.Expr) string {
	switch x := lang.Unparen(x).(type) {
	case *lang.Binary:
		return operand(x.X) + " " + x.Op.String() + " " + operand(x.Y)
	case *lang.Unary:
		return x.Op.String() + " " + operand(x.X)
	case *lang.Ternary:
		return operand(x.Cond) + " ? " + operand(x.Then) + " : " + operand(x.Else)
	case *lang.Call:
		if x.Func == "rescale" {
			units := "none"
			if u, _, err := pmapi.ParseUnits(x.Args[1].(*lang.String).Value); err == nil && u.String() != "" {
				units = u.String()
			}
			return operand(x.Args[0]) + " RESCALE " + units
		}
		return strings.ToUpper(x.Func) + "(" + operandValue(x.Args[0]) + ")"
	case *lang.MatchInst, *lang.InstSelect:
		return "FILTERINST "
	}
	return operand(x)
}

// colonText names the ":" part of a ternary, as libpcp does for the
// checks of the two operands.
func colonText(x *lang.Ternary) string {
	return operand(x.Then) + " : " + operand(x.Else)
}

// operand is a name or constant as written, else "<expr>".
func operand(x lang.Expr) string {
	switch x := lang.Unparen(x).(type) {
	case *lang.Metric:
		return x.Name
	case *lang.Number:
		return x.Lit
	case *lang.MkConst:
		return x.Value.Lit
	}
	return "<expr>"
}

// operandValue is libpcp's np->value of a function's argument: the metric
// name, or "(null)" for an expression (glibc's printf of a NULL string).
func operandValue(x lang.Expr) string {
	if m, ok := x.(*lang.Metric); ok {
		return m.Name
	}
	return "(null)"
}

// The reasons libpcp gives for semantic errors.
const (
	reasonCounters        = "Illegal operator for counters"
	reasonCounterNon      = "Illegal operator for counter and non-counter"
	reasonNonCounter      = "Illegal operator for non-counter and counter"
	reasonLeftType        = "Non-arithmetic type for left operand"
	reasonRightType       = "Non-arithmetic type for right operand"
	reasonDimensions      = "Dimensions are not the same"
	reasonLeftDimless     = "Non-counter and not dimensionless for left operand"
	reasonRightDimless    = "Non-counter and not dimensionless for right operand"
	reasonIndom           = "Operands should have the same instance domain"
	reasonTernaryType     = "Different types for ternary operands"
	reasonTernaryIndom    = "Different instance domains for ternary operands"
	reasonTernarySem      = "Different semantics for ternary operands"
	reasonTernarySpace    = "Different units or scale (space) for ternary operands"
	reasonTernaryTime     = "Different units or scale (time) for ternary operands"
	reasonTernaryCount    = "Different units or scale (count) for ternary operands"
	reasonGuardType       = "Non-arithmetic operand for ternary guard"
	reasonGuardScalar     = "Non-scalar ternary guard with scalar expressions"
	reasonNegType         = "Non-arithmetic operand for unary negation"
	reasonFuncType        = "Non-arithmetic operand for function"
	reasonRateTime        = "Incorrect time dimension for operand"
	reasonRescaleDims     = "Incompatible dimensions"
	reasonDuplicateGlobal = "Duplicate global derived metric name"
	reasonDuplicateLocal  = "Duplicate per-context derived metric name"
)

// diagAt makes the lang part of a diagnostic for node x of an expression
// whose source is src.
func diagAt(src *lang.Source, x lang.Node, sev lang.Severity, msg, pcpReason string) *lang.Diagnostic {
	d := &lang.Diagnostic{Severity: sev, Src: src, Msg: msg, PCP: lang.PCPForm{Reason: pcpReason}}
	if x != nil {
		d.Span = x.Where().Span
	}
	return d
}

// semanticError is libpcp's "Semantic error" about node x of metric m.
// Our rendering points at an operator's symbol or a function's name.
func (m *def) semanticError(x lang.Expr, reason string) Diagnostic {
	d := diagAt(m.expr.Source(), x, lang.Error, reason, reason)
	switch x := x.(type) {
	case *lang.Binary:
		end := x.OpPos
		end.Offset += len(x.Op.String())
		end.Col += len(x.Op.String())
		d.Span = lang.Span{Start: x.OpPos, End: end}
	case *lang.Call:
		d.Span = x.FuncSpan
	}
	return Diagnostic{Diagnostic: d, Kind: KindSemantic, Metric: m.name, Expr: m.text, node: x}
}

// colonError is a semantic error about the two operands of ternary x.
func (m *def) colonError(x *lang.Ternary, reason string) Diagnostic {
	d := m.semanticError(x, reason)
	d.colon = true
	return d
}

// lookupError says operand name of metric m is not in the context, in the
// words libpcp uses when debugging (otherwise it says nothing).
func (m *def) lookupError(x *lang.Metric, err error) Diagnostic {
	msg := fmt.Sprintf("operand: %s: %v", x.Name, err)
	var de descError
	if errors.As(err, &de) {
		msg = fmt.Sprintf("operand (%s [%v]): %v", x.Name, de.id, de.err)
	}
	return Diagnostic{Diagnostic: diagAt(m.expr.Source(), x, lang.Error, msg, ""), Kind: KindLookup, Metric: m.name, Expr: m.text}
}

// descError is an operand whose name the context knows but whose
// descriptor it cannot give.
type descError struct {
	id  pmapi.PMID
	err error
}

func (e descError) Error() string { return e.err.Error() }
func (e descError) Unwrap() error { return e.err }

// shadowedWarning says metric m is hidden by a real metric of that name.
func (m *def) shadowedWarning(id pmapi.PMID) Diagnostic {
	msg := fmt.Sprintf("derived metric %s is ignored: the context has a metric of that name (%s)", m.name, id)
	return Diagnostic{Diagnostic: m.wholeDiag(lang.Warning, msg), Kind: KindShadowed, Metric: m.name, Expr: m.text}
}

// cycleError says metric m uses itself, through the derived metrics in
// path (which starts and ends with m).
func (m *def) cycleError(x *lang.Metric, path []string) Diagnostic {
	msg := "derived metrics used in a cycle: " + strings.Join(path, " -> ")
	return Diagnostic{Diagnostic: diagAt(m.expr.Source(), x, lang.Error, msg, ""), Kind: KindCycle, Metric: m.name, Expr: m.text}
}

// internalError reports a panic while checking metric m.
func (m *def) internalError(cause any) Diagnostic {
	msg := fmt.Sprintf("internal error checking derived metric %s: %v", m.name, cause)
	return Diagnostic{Diagnostic: m.wholeDiag(lang.Error, msg), Kind: KindInternal, Metric: m.name, Expr: m.text}
}

// wholeDiag makes the lang part of a diagnostic about metric m's whole
// expression (whose tree need not have been made).
func (m *def) wholeDiag(sev lang.Severity, msg string) *lang.Diagnostic {
	d := diagAt(m.expr.Source(), nil, sev, msg, "")
	d.Span = m.expr.Span()
	return d
}

// registerError is a failure to register metric name: reason is libpcp's
// (a duplicate name).
func registerError(src *lang.Source, name, expr, reason string) Diagnostic {
	return Diagnostic{Diagnostic: diagAt(src, nil, lang.Error, reason, reason), Kind: KindRegister, Metric: name, Expr: expr}
}

// syntaxError wraps a syntax error lang (or one of our parse-time checks)
// found in the expression of metric name.
func syntaxError(d *lang.Diagnostic, name, expr string) Diagnostic {
	return Diagnostic{Diagnostic: d, Kind: KindSyntax, Metric: name, Expr: expr}
}

// configDiag wraps a problem the configuration reader found with a line.
func configDiag(cfg *lang.DerivedConfig, e *lang.DerivedEntry, d *lang.Diagnostic) Diagnostic {
	return Diagnostic{Diagnostic: d, Kind: KindConfig, cfg: cfg, entry: e}
}

// configSyntaxError is a syntax error in a definition of a configuration
// file.
func configSyntaxError(cfg *lang.DerivedConfig, e *lang.DerivedEntry, d *lang.Diagnostic) Diagnostic {
	return Diagnostic{Diagnostic: d, Kind: KindSyntax, Metric: e.Name, Expr: e.ExprText, cfg: cfg, entry: e}
}

// configRegisterError is a definition of a configuration file that could
// not be registered.
func configRegisterError(cfg *lang.DerivedConfig, e *lang.DerivedEntry, reason string) Diagnostic {
	d := &lang.Diagnostic{Severity: lang.Error, Src: cfg.Src, Span: e.NameSpan, Msg: reason, PCP: lang.PCPForm{Reason: reason}}
	return Diagnostic{Diagnostic: d, Kind: KindRegister, Metric: e.Name, Expr: e.ExprText, cfg: cfg, entry: e}
}
