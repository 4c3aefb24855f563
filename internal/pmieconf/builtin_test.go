package pmieconf

import (
	"io/fs"
	"strings"
	"testing"
)

// TestBuiltinTemplates loads the built-in templates: each file is a rules
// file, each rule has a summary, help, a predicate and version, and says
// in its variables what it found (action_expand), and the global actions
// are those the README lists.
func TestBuiltinTemplates(t *testing.T) {
	s, err := Load(BuiltinPath)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := fs.Glob(builtin, "templates/*/*")
	if len(files) == 0 || len(s.Rules) < 10 {
		t.Fatalf("%d files, %d rules", len(files), len(s.Rules))
	}
	for _, r := range s.Rules[1:] {
		if !r.HasPredicate || !r.Self.HasHelp || r.Self.Value != "$rule$" || r.Version != 1 {
			t.Errorf("%s: predicate %v, help %v, summary %q, version %d", r.Name(), r.HasPredicate, r.Self.HasHelp, r.Self.Value, r.Version)
		}
		if s.findVar(r, "action_expand") == s.findVar(s.Globals(), "action_expand") {
			t.Errorf("%s does not say what it found (no action_expand of its own)", r.Name())
		}
		if !strings.Contains(r.Predicate, "$hosts$") {
			t.Errorf("%s ignores the hosts variable", r.Name())
		}
	}
	var actions []string
	for _, v := range s.Globals().Vars {
		if v.Type.IsAction() {
			actions = append(actions, v.Name)
		}
	}
	if got := strings.Join(actions, " "); got != "print_action syslog_action shell_action" {
		t.Errorf("global actions %q", got)
	}
}

// TestBuiltinReadBack reads back a file made from the built-in templates:
// BuiltinPath is a rules path that exists.
func TestBuiltinReadBack(t *testing.T) {
	s, err := Load(BuiltinPath)
	if err != nil {
		t.Fatal(err)
	}
	src := "// pmieconf-pmie 1 " + BuiltinPath + "\n// 1 cpu.busy threshold = 75\n// end\n"
	warning, err := s.ReadSaved("x.pmie", []byte(src))
	if err != nil || warning != "" {
		t.Fatalf("warning %q, error %v", warning, err)
	}
	if v := s.findVar(s.Find("cpu.busy"), "threshold"); v == nil || v.Value != "75" {
		t.Errorf("threshold not changed: %+v", v)
	}
}
