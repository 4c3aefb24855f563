package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// TestScripts runs the semantic test scripts in testdata/script: series of
// metric values in, truths and values out, checked after each evaluation.
// The format is described in testdata/script/README.md.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/script/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { runScript(t, f, false) })
		t.Run(filepath.Base(f)+"/shared", func(t *testing.T) { runScript(t, f, true) })
	}
}

var scriptSems = map[string]pmapi.Sem{"counter": pmapi.SemCounter, "instant": pmapi.SemInstant, "discrete": pmapi.SemDiscrete}

var scriptTypes = map[string]pmapi.Type{"32": pmapi.Type32, "u32": pmapi.TypeU32, "64": pmapi.Type64,
	"u64": pmapi.TypeU64, "float": pmapi.TypeFloat, "double": pmapi.TypeDouble, "string": pmapi.TypeString}

var scriptUnits = map[string]pmapi.Units{
	"none": {}, "count": countUnits, "Kbyte": kbyteUnits, "msec": msecUnits,
	"byte":      {DimSpace: 1},
	"count/sec": perSec,
}

// script is the state of one script as it runs.
type script struct {
	t       *testing.T
	w       *world
	file    string
	line    int
	pending map[string]map[string]float64 // values set for the next step
	strs    map[string]string             // string values set for the next step
	fired   []string                      // actions of the last step not yet expected
	steps   int

	// group, when set, has the rules share their common sub-expressions
	// (Regroup), as the engine has them.
	group *Group
}

func runScript(t *testing.T, path string, share bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := &script{t: t, w: newWorld(t), file: path, pending: map[string]map[string]float64{}, strs: map[string]string{}}
	if share {
		s.group = &Group{}
	}
	lines := strings.Split(string(data), "\n")
	for s.line = 0; s.line < len(lines); s.line++ {
		text := strings.TrimSpace(lines[s.line])
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		word, rest, _ := strings.Cut(text, " ")
		switch word {
		case "metric":
			s.metric(strings.Fields(rest))
		case "rules":
			var body []string
			for s.line++; s.line < len(lines) && strings.TrimSpace(lines[s.line]) != "end"; s.line++ {
				body = append(body, lines[s.line])
			}
			s.rules(strings.Join(body, "\n"))
		case "set":
			s.set(strings.Fields(rest))
		case "at":
			s.at(rest)
		case "expect":
			name, want, _ := strings.Cut(rest, " ")
			s.expect(name, 1, want)
		case "expectV":
			name, want, _ := strings.Cut(rest, " ")
			s.expect(name, 2, want)
		case "expectW":
			name, want, _ := strings.Cut(rest, " ")
			s.expect(name, 3, want)
		case "fired":
			s.expectFired(rest)
		default:
			s.fatalf("unknown command %q", word)
		}
	}
	s.checkFired()
	if s.steps == 0 {
		s.fatalf("script evaluates nothing")
	}
}

func (s *script) fatalf(format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf("%s:%d: %s", s.file, s.line+1, fmt.Sprintf(format, args...))
}

func (s *script) errorf(format string, args ...any) {
	s.t.Helper()
	s.t.Errorf("%s:%d: %s", s.file, s.line+1, fmt.Sprintf(format, args...))
}

// metric NAME SEM TYPE UNITS [INSTANCE...]
func (s *script) metric(f []string) {
	if len(f) < 4 {
		s.fatalf("metric needs a name, semantics, type and units")
	}
	sem, ok1 := scriptSems[f[1]]
	typ, ok2 := scriptTypes[f[2]]
	u, ok3 := scriptUnits[f[3]]
	if !ok1 || !ok2 || !ok3 {
		s.fatalf("bad metric %q", f)
	}
	s.w.metric("h0", "alpha", f[0], sem, typ, u, f[4:]...)
}

// rules compiles pmie rules.
func (s *script) rules(text string) {
	file := lang.ParsePmie(s.file, text)
	for _, d := range file.Diags {
		s.fatalf("rules: %s", d.Msg)
	}
	c := &Compiler{B: s.w.b, Prog: &s.w.prog, Delta: 10, Clock: s.w.rt.Clock}
	for _, st := range file.Stmts {
		c.Statement(st)
	}
	if len(s.w.diags) > 0 {
		s.fatalf("rules: %v", s.w.diags)
	}
}

// set METRIC [INST=]VALUE... gives a metric values for the next step.
func (s *script) set(f []string) {
	if len(f) < 2 {
		s.fatalf("set needs a metric and values")
	}
	vals := map[string]float64{}
	for _, iv := range f[1:] {
		inst, v, ok := strings.Cut(iv, "=")
		if !ok {
			inst, v = "", iv
		}
		if strings.HasPrefix(v, `"`) {
			s.strs[f[0]] = strings.Trim(v, `"`)
			vals[inst] = 0
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			s.fatalf("bad value %q", v)
		}
		vals[inst] = x
	}
	s.pending[f[0]] = vals
}

// at T evaluates every rule at time T with the values set since the last
// step (metrics not set have no values).
func (s *script) at(arg string) {
	s.checkFired()
	now, err := strconv.ParseFloat(arg, 64)
	if err != nil {
		s.fatalf("bad time %q", arg)
	}
	w := s.w
	w.rt.Clock.Reflect(now, 10, nil)
	for _, r := range w.prog.Rules {
		for _, m := range r.Metrics {
			m.Drop()
			vs, ok := s.pending[m.Name]
			if !ok || !m.Ready() {
				continue
			}
			m.Deliver(w.valueSet(m, vs, s.strs[m.Name]), nil, now)
		}
	}
	if g := s.group; g != nil {
		if n := len(g.Rules); n < len(w.prog.Rules) {
			g.Rules = append(g.Rules, w.prog.Rules[n:]...)
			fresh := map[*Rule]bool{}
			for _, r := range w.prog.Rules[n:] {
				fresh[r] = true
			}
			Regroup([]*Group{g}, func(r *Rule) bool { return fresh[r] })
		}
		g.Begin()
	}
	for _, r := range w.prog.Rules {
		r.Eval(w.rt)
	}
	s.pending = map[string]map[string]float64{}
	s.fired = w.takeFiredList()
	s.steps++
}

// expect NAME TEXT checks rule NAME's value as -v (mode 1), -V (2) or -W
// (3) print it; "\n" in TEXT stands for a new line.
func (s *script) expect(name string, mode int, want string) {
	r := s.w.prog.Lookup(name)
	if r == nil {
		s.fatalf("no rule %q", name)
	}
	want = strings.ReplaceAll(want, `\n`, "\n")
	if got := show(r, mode); got != want {
		s.errorf("%s: got %q, want %q", name, got, want)
	}
}

// fired TEXT expects the next action fired in the last step to be TEXT
// ("print: message").
func (s *script) expectFired(want string) {
	if len(s.fired) == 0 {
		s.errorf("no more actions fired, want %q", want)
		return
	}
	if s.fired[0] != want {
		s.errorf("fired %q, want %q", s.fired[0], want)
	}
	s.fired = s.fired[1:]
}

// checkFired complains about actions fired that no "fired" line expected.
func (s *script) checkFired() {
	for _, f := range s.fired {
		s.errorf("unexpected action %q", f)
	}
	s.fired = nil
}
