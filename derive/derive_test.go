package derive

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

const goldenArchive = "../testdata/derive/golden.json"

// wrapDefs wraps a replay of the golden archive with a registry holding
// defs, each "name = expr".
func wrapDefs(t *testing.T, defs ...string) (*Context, []Diagnostic) {
	t.Helper()
	ctx, diags := Wrap(loadReplay(t, goldenArchive), registryOf(t, defs...))
	c, _ := Derived(ctx)
	return c, diags
}

// registryOf is a registry holding defs, each "name = expr".
func registryOf(t *testing.T, defs ...string) *Registry {
	t.Helper()
	reg := NewRegistry()
	for _, d := range defs {
		name, expr, _ := strings.Cut(d, " = ")
		if err := reg.Register(name, expr); err != nil {
			t.Fatalf("Register(%s): %v", d, err)
		}
	}
	return reg
}

func TestDerivedOperands(t *testing.T) {
	c, diags := wrapDefs(t,
		"my.twice = k.count + k.count",
		"my.four = my.twice * 2",
		"my.six = my.four + my.twice",
		"my.rate = rate(my.twice)",
	)
	if len(diags) != 0 {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	for name, want := range map[string]string{
		"my.four": "    Data Type: 64-bit unsigned int  InDom: PM_INDOM_NULL 0xffffffff\n    Semantics: counter  Units: count\n",
		"my.six":  "    Data Type: 64-bit unsigned int  InDom: PM_INDOM_NULL 0xffffffff\n    Semantics: counter  Units: count\n",
		"my.rate": "    Data Type: double  InDom: PM_INDOM_NULL 0xffffffff\n    Semantics: instant  Units: count / sec\n",
	} {
		id, _ := c.LookupName(name)
		d, err := c.LookupDesc(id)
		if err != nil || describe(d) != want {
			t.Errorf("%s: got %q, %v; want %q", name, describe(d), err, want)
		}
	}
	got := series(&seekContext{c, c.inner.(pmapi.Seeker)}, "my.six")
	want := []string{"0.000000 n=1 -1=6000000", "10.000000 n=1 -1=6002040", "20.000000 n=1 -1=6004080",
		"25.000000 n=1 -1=6005100", "40.000000 n=1 -1=6008160", "40.500000 n=1 -1=6008262", "60.000000 n=1 -1=6012240"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("my.six: got %q, want %q", got, want)
	}
	got = series(&seekContext{c, c.inner.(pmapi.Seeker)}, "my.rate")
	if len(got) != 7 || got[0] != "0.000000 n=0" || got[1] != "10.000000 n=1 -1=68" {
		t.Errorf("my.rate: got %q", got)
	}
}

func TestDerivedCycle(t *testing.T) {
	c, diags := wrapDefs(t,
		"cy.a = cy.b + 1",
		"cy.b = cy.c * 2",
		"cy.c = cy.a - 1",
		"cy.self = cy.self + 1",
		"cy.user = cy.a + 1",
	)
	cycles := map[string]string{}
	for _, d := range diags {
		if d.Kind == KindCycle {
			cycles[d.Metric] = d.Msg
		}
	}
	if want := "derived metrics used in a cycle: cy.a -> cy.b -> cy.c -> cy.a"; cycles["cy.a"] != want {
		t.Errorf("cy.a: got %q, want %q", cycles["cy.a"], want)
	}
	if want := "derived metrics used in a cycle: cy.self -> cy.self"; cycles["cy.self"] != want {
		t.Errorf("cy.self: got %q, want %q", cycles["cy.self"], want)
	}
	for _, d := range diags {
		if d.Kind == KindCycle && !strings.HasPrefix(d.PCP(), "Semantic error: derived metric "+d.Metric+": derived metrics used in a cycle: ") {
			t.Errorf("PCP form %q", d.PCP())
		}
	}
	for _, name := range []string{"cy.a", "cy.b", "cy.c", "cy.self", "cy.user"} {
		id, _ := c.LookupName(name)
		if _, err := c.LookupDesc(id); !errors.Is(err, pmapi.ErrBadDerive) {
			t.Errorf("%s: LookupDesc gave %v, want %v", name, err, pmapi.ErrBadDerive)
		}
	}
}

func TestPerContext(t *testing.T) {
	c, _ := wrapDefs(t, "pc.a = k.count", "pc.b = k.bytes")
	if err := c.Add("pc.a", "k.kbytes"); err != nil {
		t.Fatal(err)
	}
	if err := c.Add("pc.c", "rate(k.count)"); err != nil {
		t.Fatal(err)
	}
	idA, _ := c.LookupName("pc.a")
	idC, _ := c.LookupName("pc.c")
	if idA != localFlag|pmapi.NewPMID(511, 2047, 1023) || idC != localFlag|pmapi.NewPMID(511, 2047, 1022) {
		t.Errorf("per-context PMIDs %v %v (%#x %#x)", idA, idC, uint32(idA), uint32(idC))
	}
	if idA.String() != "511.2047.1023" {
		t.Errorf("PMID string %q", idA.String())
	}
	d, err := c.LookupDesc(idA)
	if err != nil || d.Units.String() != "Kbyte" {
		t.Errorf("pc.a is not the per-context definition: %v %v", d, err)
	}
	var d2 Diagnostic
	if err := c.Add("pc.a", "k.count"); !errors.As(err, &d2) || d2.PCP() != "Error: pmRegisterDerivedMetric(\"pc.a\", ...)\nk.count\n^\nDuplicate per-context derived metric name\n" {
		t.Errorf("duplicate Add: %v", err)
	}
	err = c.Add("pc.bad", "k.count * k.count")
	if !errors.As(err, &d2) || d2.PCP() != "Semantic error: derived metric pc.bad: k.count * k.count: Illegal operator for counters\n" {
		t.Errorf("bad Add: %v", err)
	}
	if err := c.Add("pc.syntax", "k.count +"); err == nil {
		t.Error("syntax error not reported")
	}
	kids, err := c.Children("pc")
	var names []string
	for _, k := range kids {
		names = append(names, k.Name)
	}
	if err != nil || strings.Join(names, " ") != "b a c" {
		t.Errorf("Children(pc) = %v, %v (failed pc.bad must be hidden once bound)", names, err)
	}
	if _, err := c.Text(uint32(idC), pmapi.TextOneLine|pmapi.TextPMID); !errors.Is(err, pmapi.ErrPMID) {
		t.Errorf("per-context text: %v", err)
	}
}

func TestRegisterErrors(t *testing.T) {
	reg := NewRegistry()
	if err := reg.Register("r.a", "k.count"); err != nil {
		t.Fatal(err)
	}
	var d Diagnostic
	if err := reg.Register("r.a", "k.bytes"); !errors.As(err, &d) || d.PCP() != "Error: pmRegisterDerivedMetric(\"r.a\", ...)\nk.bytes\n^\nDuplicate global derived metric name\n" {
		t.Errorf("duplicate: %v", err)
	}
	if err := reg.Register("r.b", "rate(k.count + 1)"); !errors.As(err, &d) || d.PCP() != "Error: pmRegisterDerivedMetric(\"r.b\", ...)\nrate(k.count + 1)\n             ^\nMetric name expected to follow rate(\n" {
		t.Errorf("syntax: %q", d.PCP())
	}
	if got := strings.Join(reg.Names(), " "); got != "event.flags event.missed r.a" {
		t.Errorf("Names() = %q", got)
	}
}

// TestFailedMetricVisibility checks libpcp's namespace rule: a derived
// metric that fails stays in the namespace until the context has looked
// at its descriptor.
func TestFailedMetricVisibility(t *testing.T) {
	c, diags := wrapDefs(t, "vis.ok = k.count", "vis.bad = k.count * k.count", "vis.missing = no.such + 1")
	if len(diags) != 2 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if got := PCPReport(diags); got != "Semantic error: derived metric vis.bad: k.count * k.count: Illegal operator for counters\n" {
		t.Errorf("PCPReport = %q", got)
	}
	children := func() string {
		kids, _ := c.Children("vis")
		var names []string
		for _, k := range kids {
			names = append(names, k.Name)
		}
		return strings.Join(names, " ")
	}
	if got := children(); got != "ok bad missing" {
		t.Errorf("before: %q", got)
	}
	for _, n := range []string{"vis.bad", "vis.missing"} {
		id, _ := c.LookupName(n)
		c.LookupDesc(id)
	}
	if got := children(); got != "ok" {
		t.Errorf("after: %q", got)
	}
}

// TestDiagnosticRendering checks our own rendering of semantic errors:
// file:line:col in the configuration file, the line and a caret under
// the operator.
func TestDiagnosticRendering(t *testing.T) {
	reg := NewRegistry()
	var diags []Diagnostic
	reg.loadText("my.conf", "# two metrics\nr.ok = k.count\nr.bad = k.count  *  k.count\nr.rate = rate(str.s)\n", &diags)
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	_, diags = Wrap(loadReplay(t, goldenArchive), reg)
	if len(diags) != 2 {
		t.Fatalf("got %d diagnostics", len(diags))
	}
	want := "my.conf:3:18: error: Illegal operator for counters\nr.bad = k.count  *  k.count\n                 ^"
	if got := diags[0].Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	want = "my.conf:4:10: error: Non-arithmetic operand for function\nr.rate = rate(str.s)\n         ^~~~"
	if got := diags[1].Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := PCPReport(diags); got != "Semantic error: derived metric r.bad: k.count * k.count: Illegal operator for counters\nSemantic error: derived metric r.rate: RATE(str.s): Non-arithmetic operand for function\n" {
		t.Errorf("PCPReport = %q", got)
	}
}

// TestExtremeWithoutValues: max() and min() of a metric with no values
// give one value all the same, as libpcp's do: 0 at the first fetch
// (libpcp's is what its new memory holds) and later the last value they
// had. m.setsome has values in the golden archive's records 0-2 and 5-6;
// t.i32.inst, fetched beside it, in every record.
func TestExtremeWithoutValues(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		from int // the record the fetches start at
		want string
	}{
		{"max", 0, "100 110 120 120 120 150 160"},
		{"min", 0, "100 110 120 120 120 150 160"},
		{"max", 3, "0 0 150 160"},
		{"min", 3, "0 0 150 160"},
	} {
		c, diags := wrapDefs(t, "my.x = "+tc.fn+"(m.setsome)")
		if len(diags) != 0 {
			t.Fatalf("unexpected diagnostics: %v", diags)
		}
		r := c.inner.(*replay)
		r.SetMode(pmapi.ModeForw, r.records[tc.from].t, 0)
		x, _ := c.LookupName("my.x")
		every, _ := c.LookupName("t.i32.inst")
		var got []string
		var res pmapi.Result
		for c.Fetch([]pmapi.PMID{x, every}, &res) == nil {
			vs := res.Sets[0]
			if vs.Err != nil || len(vs.Values) != 1 {
				got = append(got, fmt.Sprintf("%v/%d", vs.Err, len(vs.Values)))
				continue
			}
			got = append(got, exact(pmapi.TypeU64, vs.Values[0].Atom))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s(m.setsome) from record %d: got %q, want %q", tc.fn, tc.from, strings.Join(got, " "), tc.want)
		}
	}
}
