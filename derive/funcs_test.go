package derive

import (
	"testing"

	"github.com/gopcp/pmie/lang"
)

// TestFunctionTable checks the function table against the functions lang
// scans (lang.DerivedFunctions) both ways: every function of the language
// that parses as a call has an entry with its argument shape, metadata
// rule and implementation, and a call written with that shape parses as
// a call of it; the other two (mkconst and matchinst) parse as their own
// nodes, which the checker handles; and the table has no entry the
// language cannot call.
func TestFunctionTable(t *testing.T) {
	sample := map[argKind]string{argName: "a.b", argExpr: "a.b + 1", argRescale: `a.b, "Kbyte"`, argAnon: "PM_TYPE_U32"}
	own := map[string]string{"mkconst": "mkconst(1, type=u32)", "matchinst": "matchinst(/x/, a.b)"}
	lexed := map[string]bool{}
	for _, name := range lang.DerivedFunctions() {
		lexed[name] = true
		if src, ok := own[name]; ok {
			x, err := lang.ParseDerived(src)
			switch x.(type) {
			case *lang.MkConst, *lang.MatchInst:
			default:
				t.Errorf("%s parses as %T (%v), not as its own node", src, x, err)
			}
			if functions[name] != nil {
				t.Errorf("%s has an entry in the function table, but is not a call", name)
			}
			continue
		}
		fn := functions[name]
		if fn == nil {
			t.Errorf("lang scans %s as a function, which has no entry in the function table", name)
			continue
		}
		if fn.name != name || fn.desc == nil || fn.compile == nil {
			t.Errorf("%s: entry %+v is incomplete", name, fn)
		}
		src := name + "(" + sample[fn.args] + ")"
		x, err := lang.ParseDerived(src)
		if call, ok := x.(*lang.Call); !ok || call.Func != name {
			t.Errorf("%s parses as %T (%v), not as a call of %s", src, x, err, name)
		}
	}
	for name := range functions {
		if !lexed[name] {
			t.Errorf("function table has %s, which lang does not scan as a function", name)
		}
	}
}
