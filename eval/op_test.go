package eval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// TestOperatorTable checks the evaluator's operator table against lang's
// grammar both ways, as Prometheus's TestFunctionList checks its function
// table: every operator lang parses has a row here with the same class and
// operand types and an implementation, every row naming an operator of
// the language names one lang parses, and a statement using each operator
// (over every domain, for aggregates and quantifiers) compiles to a node
// of that row. Adding an operator to one table and not the other fails
// here.
func TestOperatorTable(t *testing.T) {
	grammar := map[syntaxKey]bool{}
	for _, g := range lang.PmieOperators() {
		k := syntaxKey{g.Class, g.Name}
		grammar[k] = true
		op, ok := bySyntax[k]
		if !ok {
			t.Errorf("lang parses %s, which the evaluator's table does not have", describe(g))
			continue
		}
		row := ops[op]
		want := g.Operand
		if g.Class == lang.Infix {
			want |= g.Left
		}
		if row.operand != want {
			t.Errorf("%s: the evaluator takes operands of types %b, lang %b", describe(g), row.operand, want)
		}
		if row.eval == nil {
			t.Errorf("%s: no evaluator", describe(g))
		}
		checkReducer(t, g, row)
	}
	for op := range numOps {
		if s := ops[op].syntax; s != "" && !grammar[syntaxKey{ops[op].class, s}] {
			t.Errorf("the evaluator's %v is made from %q, which lang does not parse", op, s)
		}
	}
	for _, g := range lang.PmieOperators() {
		for _, text := range usesOf(g) {
			compileUse(t, g, text)
		}
	}
}

func describe(g lang.Operator) string { return fmt.Sprintf("operator %q (class %d)", g.Name, g.Class) }

// checkReducer checks that an aggregate or quantifier has the one
// reduction its operand and result call for.
func checkReducer(t *testing.T, g lang.Operator, row opInfo) {
	r := row.reduce
	n := 0
	for _, set := range []bool{r.num != nil, r.truth != nil, r.count != nil} {
		if set {
			n++
		}
	}
	var ok bool
	switch g.Class {
	case lang.Aggregate:
		ok = n == 1 && (r.num != nil && g.Operand == lang.TypeArith || r.count != nil && g.Operand == lang.TypeBool)
	case lang.Quantifier:
		ok = n == 1 && r.truth != nil && g.Operand == lang.TypeBool
	default:
		ok = n == 0
	}
	if !ok {
		t.Errorf("%s: reductions %+v do not fit its class and operand", describe(g), r)
	}
}

// operandText is an operand of type t for the statements usesOf writes,
// its metric qualified by q.
func operandText(t lang.Type, q string) string {
	switch {
	case t&lang.TypeArith != 0:
		return "m" + q
	case t&lang.TypeBool != 0:
		return "(m #a" + q + " > 0)"
	}
	return `(print "a")`
}

// usesOf writes statements that use g, for every domain it may range
// over.
func usesOf(g lang.Operator) []string {
	switch g.Class {
	case lang.Infix:
		return []string{operandText(g.Left, "") + " " + g.Name + " " + operandText(g.Operand, "")}
	case lang.Prefix:
		return []string{g.Name + " " + operandText(g.Operand, "")}
	case lang.Matching:
		return []string{g.Name + ` "a" ` + operandText(g.Operand, "")}
	case lang.ActionWord:
		return []string{g.Name + ` "a"`}
	}
	word := g.Name
	if word == "%" {
		word = "50%"
	}
	var out []string
	for _, dom := range []string{"host", "inst", "sample"} {
		q := ""
		if dom == "sample" {
			q = " @0..2"
		}
		x := operandText(g.Operand, q)
		out = append(out, word+"_"+dom+" "+x)
	}
	return out
}

// compileUse compiles text and checks that its root is a node of g's row.
func compileUse(t *testing.T, g lang.Operator, text string) {
	t.Helper()
	w := newWorld(t)
	w.metric("h0", "alpha", "m", pmapi.SemInstant, pmapi.TypeDouble, noUnits, "a", "b")
	f := lang.ParsePmie("op.pmie", text+";")
	if len(f.Diags) > 0 || len(f.Stmts) != 1 {
		t.Errorf("%s: %q does not parse: %v", describe(g), text, f.Diags)
		return
	}
	comp := &Compiler{B: w.b, Prog: &w.prog, Delta: 10, Clock: w.rt.Clock}
	r := comp.Statement(f.Stmts[0])
	if r == nil {
		t.Errorf("%s: %q does not compile: %v", describe(g), text, w.diags)
		return
	}
	op := bySyntax[syntaxKey{g.Class, g.Name}]
	if r.Root.Op != op {
		t.Errorf("%s: %q compiles to %v, want %v", describe(g), text, r.Root.Op, op)
	}
	if g.Class == lang.Aggregate || g.Class == lang.Quantifier {
		_, rest, _ := strings.Cut(text, "_")
		dom, _, _ := strings.Cut(rest, " ")
		if want := ops[op].name + "_" + dom; r.Root.opName() != want {
			t.Errorf("%s: %q lists as %q, want %q", describe(g), text, r.Root.opName(), want)
		}
	}
}
