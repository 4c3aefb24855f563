package eval

import (
	"errors"
	"strings"
	"testing"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// angleQuoter is a Quoter for tests: values go between < and >, a value
// holding "!" is refused, and after a backquote in the text only values
// without "!" may go (as a real quoter's opaque places).
type angleQuoter struct{ backs int }

func (q *angleQuoter) Begin() { q.backs = 0 }

func (q *angleQuoter) Literal(b []byte, s string) []byte {
	q.backs += strings.Count(s, "`")
	return append(b, s...)
}

func (q *angleQuoter) Value(b, v []byte) ([]byte, error) {
	if strings.Contains(string(v), "!") {
		return append(b, v...), errors.New("value " + string(v) + " refused")
	}
	b = append(b, '<')
	b = append(b, v...)
	return append(b, '>'), nil
}

func (q *angleQuoter) Opaque() string {
	if q.backs%2 == 1 {
		return "inside backquotes"
	}
	return ""
}

// quoteWorld is a world whose shell actions quote through angleQuoter and
// whose actor fails an action that must not run, as rules.Actor does.
func quoteWorld(t *testing.T) *world {
	w := newWorld(t)
	w.b.Prepare = func(op Op, args []string) Prepared {
		p := Prepared{Args: args}
		if op == OpShell {
			p.Quoter = &angleQuoter{}
		}
		return p
	}
	w.rt.Act = func(f *Firing) Truth {
		if f.Err != nil {
			w.fired = append(w.fired, "refused: "+f.Err.Error())
			return False
		}
		w.fired = append(w.fired, f.Kind.String()+": "+f.Message())
		return True
	}
	w.metric("h0", "alpha", "m", pmapi.SemInstant, pmapi.TypeDouble, noUnits, "a", "b c", "d!")
	return w
}

// TestQuotedExpansion checks that a shell action's values, and only a
// shell action's, go in through its Quoter, once for each binding; that a
// refused value fails the action, so the alternative after | runs; and
// that %-codes where the Quoter takes only plain values are warned of.
func TestQuotedExpansion(t *testing.T) {
	w := quoteWorld(t)
	some := func(limit float64) *Node {
		return w.b.Domain(OpSome, lang.DomInst, w.b.Rel(OpLt, w.b.Fetch("m", nil, nil, 0, 0), w.b.NumConst(limit, noUnits)))
	}
	w.add("r", w.b.Rule(some(3), w.b.Actions(OpActAlt,
		w.b.Actions(OpActSeq,
			w.b.Action(OpShell, []string{"cmd", " %i=%v@%h"}, nil),
			w.b.Action(OpPrint, []string{"print", " %i=%v"}, nil)),
		w.b.Action(OpPrint, []string{"alternative"}, nil))))
	w.step(10, map[string]map[string]float64{"m": {"a": 1, "b c": 2, "d!": 3}})
	want := "shell: cmd <a>=<1>@<alpha> <b c>=<2>@<alpha>\nprint: print a=1 b c=2"
	if got := w.takeFired(); got != want {
		t.Errorf("fired:\n%s\nwant:\n%s", got, want)
	}

	w.add("refused", w.b.Rule(some(4), w.b.Actions(OpActAlt,
		w.b.Action(OpShell, []string{"cmd", " %i"}, nil),
		w.b.Action(OpPrint, []string{"alternative"}, nil))))
	w.prog.Rules = w.prog.Rules[1:]
	w.step(20, map[string]map[string]float64{"m": {"a": 1, "b c": 2, "d!": 3}})
	want = "refused: %i value d! refused\nprint: alternative"
	if got := w.takeFired(); got != want {
		t.Errorf("fired:\n%s\nwant:\n%s", got, want)
	}

	w.diags = nil
	w.b.Action(OpShell, []string{"echo `echo", " %i`", " %v"}, nil)
	if len(w.diags) != 1 || !strings.HasPrefix(w.diags[0], "%i stands inside backquotes: ") {
		t.Errorf("warnings %q, want one about %%i inside backquotes", w.diags)
	}
}
