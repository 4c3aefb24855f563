package derive

import (
	"reflect"
	"strings"
	"testing"
)

// TestLayerMatchesWrap checks that a context made by Layer, which does
// not parse a metric lacking an operand, tells the same as one made by
// Wrap: each metric's descriptor or failure, what OnBind prints, and the
// problems Diagnostics finds in the end (for lacking metrics, found then).
func TestLayerMatchesWrap(t *testing.T) {
	reg := registryOf(t,
		"my.ok = t.u32.inst + 1",
		"my.lack = no.such.metric + t.u32.inst",
		"my.lack2 = delta(no.such) == 0 ? mkconst(0, type=\"double\", units=\"count\") : t.u32.ctr / t.i32.inst",
		"my.lackbad = no.such + (t.u32.ctr < t.u32.inst)",
		"my.bad = t.u32.ctr + t.u32.inst",
		"my.defined = defined(no.such) + t.u32.inst",
		"my.uses = my.lack * 2",
		"my.usesok = my.ok * 2",
		"my.loop1 = my.loop2 + no.such",
		"my.loop2 = my.loop1 + 1",
		"my.anon = anon(PM_TYPE_U32) + t.u32.inst",
		"t.u32.inst = no.such + 1",
		"my.later = my.after + no.such",
		"my.after = t.u32.inst",
		"my.rescale = rescale(no.such, \"Kbyte\")",
	)
	wrapped, wrapDiags := Wrap(loadReplay(t, goldenArchive), reg)
	w, _ := Derived(wrapped)
	l, _ := Derived(Layer(loadReplay(t, goldenArchive), reg))
	var wTold, lTold strings.Builder
	w.OnBind(func(ds []Diagnostic) { wTold.WriteString(PCPReport(ds)) })
	l.OnBind(func(ds []Diagnostic) { lTold.WriteString(PCPReport(ds)) })
	lacking := 0
	for _, name := range reg.Names() {
		id, err := w.LookupName(name)
		lid, lerr := l.LookupName(name)
		if id != lid || (err == nil) != (lerr == nil) {
			t.Fatalf("%s: LookupName %v, %v under Wrap; %v, %v under Layer", name, id, err, lid, lerr)
		}
		d, err := w.LookupDesc(id)
		ld, lerr := l.LookupDesc(id)
		if d != ld || err != lerr {
			t.Errorf("%s: LookupDesc %v, %v under Wrap; %v, %v under Layer", name, d, err, ld, lerr)
		}
		if m := l.byPMID[id]; m != nil && m.lacking {
			lacking++
		}
	}
	// my.lack, my.lack2, my.lackbad and my.rescale; not my.uses, my.loop1
	// or my.later, which name derived metrics, nor my.defined
	if lacking != 4 {
		t.Errorf("%d metrics were found lacking an operand without their tree, want 4", lacking)
	}
	if wTold.String() != lTold.String() {
		t.Errorf("OnBind under Wrap:\n%s\nunder Layer:\n%s", wTold.String(), lTold.String())
	}
	if got := l.Diagnostics(); !reflect.DeepEqual(got, wrapDiags) || !reflect.DeepEqual(got, w.Diagnostics()) {
		t.Errorf("Layer's diagnostics\n%v\nWrap's\n%v", got, wrapDiags)
	}
	if len(wrapDiags) < 10 {
		t.Errorf("only %d diagnostics: %v", len(wrapDiags), wrapDiags)
	}
}
