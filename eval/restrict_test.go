package eval

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// compileMode compiles text with the world's builder in mode (parsing it
// as -x does for ModeAgent) and returns the names of the rules made and
// every diagnostic as pmie words it, the parser's (which sees names taken)
// then the builder's.
func compileMode(w *world, mode Mode, text string) (rules, diags []string) {
	f := lang.ParsePmieWith("t.pmie", text, lang.PmieOptions{Agent: mode == ModeAgent})
	c := &Compiler{B: w.b, Prog: &w.prog, Delta: 10, Clock: w.rt.Clock, Mode: mode, Src: f.Src, Scan: f.Scan}
	for _, st := range f.Stmts {
		c.Statement(st)
	}
	for _, d := range f.Diags {
		diags = append(diags, d.PCP.Reason)
	}
	diags = append(diags, w.diags...)
	for _, r := range w.prog.Rules {
		rules = append(rules, r.Name)
	}
	return rules, diags
}

// TestRestrictedStatements checks what -x and -X refuse: a named rule with
// actions or a named action (not a ruleset), and under -x a statement
// without a name; the name of a refused rule stays taken.
func TestRestrictedStatements(t *testing.T) {
	const text = `a = load > 1 -> print "x";
b = print "y";
c = ruleset load > 1 -> print "z";
d = load;
load > 0 -> print "w";
a = load;
`
	for _, c := range []struct {
		mode         Mode
		rules, diags []string
	}{
		{ModeNormal, []string{"a", "b", "c", "d", "expr_1"}, []string{`rule "a" multiply defined`}},
		{ModeApplet, []string{"c", "d", "expr_1"}, []string{`rule "a" multiply defined`,
			"operator -> not allowed in agent mode", "operator print not allowed in agent mode"}},
		{ModeAgent, []string{"c", "d"}, []string{"expressions must be named in agent mode", `rule "a" multiply defined`,
			"operator -> not allowed in agent mode", "operator print not allowed in agent mode"}},
	} {
		w := newWorld(t)
		w.metric("h0", "alpha", "load", pmapi.SemInstant, pmapi.TypeDouble, noUnits)
		rules, diags := compileMode(w, c.mode, text)
		if !slices.Equal(rules, c.rules) {
			t.Errorf("mode %d: rules %v, want %v", c.mode, rules, c.rules)
		}
		if !slices.Equal(diags, c.diags) {
			t.Errorf("mode %d: diagnostics %q, want %q", c.mode, diags, c.diags)
		}
	}
}

// TestRefusedAfterError checks that a named rule with an error is not
// also refused: pmie looks at the operator of an expression it has freed.
func TestRefusedAfterError(t *testing.T) {
	w := newWorld(t)
	w.metric("h0", "alpha", "load", pmapi.SemInstant, pmapi.TypeDouble, noUnits, "a", "b")
	_, diags := compileMode(w, ModeAgent, "a = load > 1 -> print \"x\";\n")
	if want := []string{"rule condition must have a single boolean value"}; !slices.Equal(diags, want) {
		t.Errorf("diagnostics %q, want %q", diags, want)
	}
}

// TestWord checks the number -x exports of each kind of node: the first
// value of a numeric buffer, the first eight truths as the bytes of a
// little-endian double, a reserved variable's value, and nothing of a
// string metric.
func TestWord(t *testing.T) {
	w := newWorld(t)
	w.metric("h0", "alpha", "load", pmapi.SemInstant, pmapi.TypeDouble, noUnits, "a", "b", "c")
	w.metric("h0", "alpha", "name", pmapi.SemDiscrete, pmapi.TypeString, noUnits)
	num := w.add("num", w.b.Fetch("load", nil, nil, 0, 0))
	truth := w.add("truth", w.b.Rel(OpGt, w.b.Fetch("load", nil, nil, 0, 0), w.b.NumConst(1, noUnits)))
	str := w.add("str", w.b.Fetch("name", nil, nil, 0, 0))
	w.step(100, map[string]map[string]float64{"load": {"a": 2, "b": 0.5, "c": 3}, "name": {"": 0}})
	if v, ok := num.Root.Word(); !ok || v != 2 {
		t.Errorf("numeric: %v, %v; want 2", v, ok)
	}
	// true false true: bytes 01 00 01, read little-endian
	if v, ok := truth.Root.Word(); !ok || math.Float64bits(v) != 0x010001 {
		t.Errorf("truths: %#x, %v; want 0x10001", math.Float64bits(v), ok)
	}
	if _, ok := str.Root.Word(); ok {
		t.Error("a string metric's values give a number")
	}
	hour := w.b.Var([]float64{14})
	if v, ok := hour.Word(); !ok || v != 14 {
		t.Errorf("$hour: %v, %v", v, ok)
	}
}

// TestMacroUnits checks that a numeric macro's use has no units, as in
// pmie (its value is scaled already), while --check-units still sees the
// units it was defined with.
func TestMacroUnits(t *testing.T) {
	w := newWorld(t)
	w.metric("h0", "alpha", "mtu", pmapi.SemDiscrete, pmapi.TypeU32, pmapi.Units{DimSpace: 1})
	f := lang.ParsePmie("t.pmie", "k = 2 count/sec;\nprod = $k * mtu;\ncmp = mtu > $k;\n")
	c := &Compiler{B: w.b, Prog: &w.prog, Delta: 10, Clock: w.rt.Clock}
	for _, st := range f.Stmts {
		c.Statement(st)
	}
	if u := w.prog.Lookup("prod").Root.Units(); u.Units != (pmapi.Units{DimSpace: 1, ScaleTime: pmapi.TimeSec}) {
		t.Errorf("$k * mtu: units %+v, want those of mtu", u)
	}
	mixed := MixedComparisons(w.prog.Lookup("cmp"))
	if len(mixed) != 1 || !strings.Contains(mixed[0].RightUnits, "count") {
		t.Errorf("mtu > $k: %+v, want a comparison of bytes with counts", mixed)
	}
}
