package lang

import (
	"reflect"
	"testing"
)

// TestAcceptMatchesParse reads every expression libpcp was asked about
// (pcp.jsonl) twice, through one DerivedParser each, in the same order so
// that libpcp's matchinst state carries over the same way: once with
// Parse, once with Accept, making the trees only after everything was
// accepted. The verdicts, diagnostics and trees must be the same, and what
// Accepted knows without its tree (Span, Operands) must be what the tree
// says.
func TestAcceptMatchesParse(t *testing.T) {
	cases := readPCPCases(t)
	parse := &DerivedParser{Check: testChecker}
	accept := &DerivedParser{Check: testChecker}
	type result struct {
		x Expr
		a *Accepted
	}
	var done []result
	for _, c := range cases {
		x, d := parse.Parse(c.Expr)
		a, ad := accept.Accept(c.Expr)
		if (d == nil) != (ad == nil) || d != nil && PCPRegisterError("t.m", c.Expr, d) != PCPRegisterError("t.m", c.Expr, ad) {
			t.Fatalf("%q: Parse says %v, Accept %v", c.Expr, d, ad)
		}
		if d == nil {
			done = append(done, result{x, a})
		}
	}
	if len(done) < 500 {
		t.Fatalf("only %d expressions accepted", len(done))
	}
	for _, r := range done {
		x, d := r.a.Tree()
		if d != nil {
			t.Fatalf("%q: Tree: %v", r.a.src.Text, d)
		}
		if !reflect.DeepEqual(x, r.x) {
			t.Fatalf("%q: Accept's tree\n%s\nParse's\n%s", r.a.src.Text, Dump(x), Dump(r.x))
		}
		if got, want := r.a.Span(), x.Where().Span; got != want {
			t.Errorf("%q: Span %v-%v, the tree's %v-%v", r.a.src.Text, got.Start, got.End, want.Start, want.End)
		}
		if got, want := r.a.Operands(), treeOperands(x, ""); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
			t.Errorf("%q: Operands %v, the tree has %v", r.a.src.Text, got, want)
		}
	}
}

// treeOperands lists the metric names of tree x, in order, each with the
// function it is the direct argument of (fn, for x itself).
func treeOperands(x Node, fn string) []Operand {
	var out []Operand
	switch x := x.(type) {
	case *Metric:
		return []Operand{{Name: x.Name, Func: fn}}
	case *Call:
		for _, a := range x.Args {
			f := ""
			if len(x.Args) == 1 || a == x.Args[0] {
				f = x.Func
			}
			out = append(out, treeOperands(a, f)...)
		}
		return out
	}
	_, _, kids := describeNode(x)
	for _, k := range kids {
		out = append(out, treeOperands(k, "")...)
	}
	return out
}
