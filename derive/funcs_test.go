package derive

import (
	"testing"

	"github.com/gopcp/pmie/lang"
)

// TestFunctionTable checks the function table against what lang parses as
// a call: every call form of the language has an entry with its argument
// shape, metadata rule and implementation, and the table has no entry the
// language cannot call.
func TestFunctionTable(t *testing.T) {
	forms := map[string]argKind{
		"avg(a.b)": argName, "count(a.b)": argName, "max(a.b)": argName, "min(a.b)": argName,
		"sum(a.b)": argName, "delta(a.b)": argName, "rate(a.b)": argName, "instant(a.b)": argName,
		"defined(a.b)": argName, "anon(PM_TYPE_U32)": argAnon, "scalar(a.b + 1)": argExpr,
		`rescale(a.b, "Kbyte")`: argRescale,
	}
	called := map[string]bool{}
	for src, kind := range forms {
		x, err := lang.ParseDerived(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		call, ok := x.(*lang.Call)
		if !ok {
			t.Fatalf("%s parses as %T, not a call", src, x)
		}
		fn := functions[call.Func]
		switch {
		case fn == nil:
			t.Errorf("%s: no entry in the function table", call.Func)
		case fn.name != call.Func || fn.args != kind || fn.desc == nil || fn.compile == nil:
			t.Errorf("%s: entry %+v does not match the language (args %v)", call.Func, fn, kind)
		}
		called[call.Func] = true
	}
	for name := range functions {
		if !called[name] {
			t.Errorf("function table has %s, which the language has no call for", name)
		}
	}
}
