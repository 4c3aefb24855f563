package derive

import (
	"strings"
	"testing"
)

// TestIdentity checks that a derived metric's identity follows its own
// definition and those of the derived metrics it names, to any depth,
// and its PMID, and nothing else.
func TestIdentity(t *testing.T) {
	reg := func(defs ...string) *Registry {
		r := NewRegistry()
		for _, d := range defs {
			name, expr, _ := strings.Cut(d, "=")
			if err := r.Register(strings.TrimSpace(name), strings.TrimSpace(expr)); err != nil {
				t.Fatal(err)
			}
		}
		return r
	}
	id := func(r *Registry, name string) string {
		t.Helper()
		for i, n := range r.Names() {
			if n == name {
				s, ok := r.Identity(r.defs[i].pmid)
				if !ok {
					t.Fatalf("no identity for %s", name)
				}
				return s
			}
		}
		t.Fatalf("no %s", name)
		return ""
	}
	base := reg("a.x = hinv.ncpu * 2", "a.y = a.x + 1", "a.z = rate(kernel.all.pswitch) > 0 ? mem.util.free : a.q", "a.q = 3")
	for _, c := range []struct {
		what, name string
		r          *Registry
		same       bool
	}{
		{"unchanged", "a.y", reg("a.x = hinv.ncpu * 2", "a.y = a.x + 1", "a.z = 1", "a.q = 3"), true},
		{"an operand redefined", "a.y", reg("a.x = hinv.ncpu * 3", "a.y = a.x + 1", "a.z = 1", "a.q = 3"), false},
		{"another redefined", "a.x", reg("a.x = hinv.ncpu * 2", "a.y = a.x + 2", "a.z = 1", "a.q = 3"), true},
		{"renumbered", "a.y", reg("a.w = 1", "a.x = hinv.ncpu * 2", "a.y = a.x + 1"), false},
		{"through a ternary", "a.z", reg("a.x = hinv.ncpu * 2", "a.y = a.x + 1", "a.z = rate(kernel.all.pswitch) > 0 ? mem.util.free : a.q", "a.q = 4"), false},
	} {
		if got := id(c.r, c.name) == id(base, c.name); got != c.same {
			t.Errorf("%s: same identity %v, want %v:\n%s\n%s", c.what, got, c.same, id(c.r, c.name), id(base, c.name))
		}
	}
	if _, ok := base.Identity(0); ok {
		t.Errorf("an identity for a PMID not in the registry")
	}
}
