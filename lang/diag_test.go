package lang

import (
	"sort"
	"strings"
	"testing"
)

// TestDiagnosticsSort checks that Sort orders diagnostics of several
// sources by source name and then position, keeping equal ones in order,
// whatever order they come in (a valid ordering: sort.IsSorted agrees).
func TestDiagnosticsSort(t *testing.T) {
	a, b := NewSource("a.pmie", "x\ny\nz\n"), NewSource("b.pmie", "x\ny\n")
	at := func(src *Source, off int, msg string) *Diagnostic {
		return &Diagnostic{Src: src, Span: src.Span(off, off+1), Msg: msg}
	}
	ds := Diagnostics{at(b, 2, "b2"), at(a, 4, "a4"), {Msg: "none"}, at(a, 0, "a0"), at(b, 0, "b0"),
		at(a, 4, "a4 again"), at(b, 2, "b2 again")}
	ds.Sort()
	var got []string
	for _, d := range ds {
		got = append(got, d.Msg)
	}
	if want := "none a0 a4 a4 again b0 b2 b2 again"; strings.Join(got, " ") != want {
		t.Errorf("sorted %q, want %q", strings.Join(got, " "), want)
	}
	less := func(i, j int) bool {
		ni, nj := "", ""
		if ds[i].Src != nil {
			ni = ds[i].Src.Name
		}
		if ds[j].Src != nil {
			nj = ds[j].Src.Name
		}
		return ni < nj || ni == nj && ds[i].Span.Start.Offset < ds[j].Span.Start.Offset
	}
	if !sort.SliceIsSorted(ds, less) {
		t.Error("not sorted")
	}
}
