package eval

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// shareRules have many sub-expressions in common: metrics read by several
// rules (with and without rates, sample windows, instances named), the
// same comparison in several rules and twice in one, rulesets (whose
// later rules are not always evaluated), several hosts, the sub-expression
// whose bindings pmie finds by comparing sets of metrics by identity.
const shareRules = `
a = some_inst ( disk > 10 ) -> print "a %i %v";
b = all_inst ( disk > 10 );
c = sum_inst disk;
d = disk;
e = disk @0..2;
f = some_inst ( all_sample ( disk @0..2 > 5 ) ) -> print "f %i";
g = rate util;
h = instant disk;
i = sum_inst disk > disk;
j = some_inst ( match_inst "d[0-2]" disk > 10 ) -> print "j %i %v";
k = some_inst ( nomatch_inst "d[0-2]" disk > 10 );
l = rising ( some_inst ( disk > 10 ) );
m = falling ( some_inst ( disk > 10 ) );
n = load #'1 minute' > 0.5 * ncpu -> print "load %v";
ruleset
    load #'1 minute' > 0.9 * ncpu -> print "extreme %v"
else load #'1 minute' > 0.6 * ncpu -> print "moderate %v"
else some_inst ( rate disk > 1 ) -> print "disk %i %v"
unknown -> print "unknown"
otherwise -> print "ok";
o = disk :alpha :beta;
p = some_host ( some_inst ( disk :alpha :beta > 10 ) ) -> print "p %h %i %v";
q = max_inst disk;
r = min_inst ( disk + util );
s = max_inst disk > 5 -> print "max %i %v";
t = count_inst ( disk > 10 );
u = 50 %_inst ( disk > 10 );
v = avg_sample ( util @0..3 );
w = util / disk;
x = disk + disk;
y = mem > 100 Kbyte/sec -> print "mem %v";
z = some_inst ( disk > 10 && disk > 10 ) -> print "z %i";
aa = util #d1 #d2 > 0.5;
bb = sum_inst util #d1 #d2;
cc = $delta * disk;
dd = some_inst ( disk > 10 ) -> print "dd %i %v";
ee = rate ( sum_inst disk );
ff = disk :beta;
gg = some_inst ( rate disk > 1 ) -> print "gg %i %v";
hh = some_inst ( disk :beta > 10 ) && some_inst ( disk > 10 );
ii = rising ( some_inst ( disk > 10 ) ) && some_inst ( disk :beta > 10 );
`

// moreRules are compiled later, as a reload would, beside rules that have
// been evaluated for a while.
const moreRules = `
g1 = some_inst ( disk > 10 ) -> print "g1 %i %v";
g2 = rate util;
g3 = sum_inst disk > disk;
`

// shareWorld is a world whose rules are compiled from text.
type shareWorld struct {
	*world
	groups []*Group
}

func newShareWorld(t *testing.T) *shareWorld {
	w := newWorld(t)
	disks := []string{"d0", "d1", "d2", "d3", "d4", "d5"}
	for _, conn := range []string{"h0", "h1"} {
		host := map[string]string{"h0": "alpha", "h1": "beta"}[conn]
		w.metric(conn, host, "disk", pmapi.SemCounter, pmapi.TypeU64, countUnits, disks...)
		w.metric(conn, host, "util", pmapi.SemInstant, pmapi.TypeDouble, noUnits, disks...)
		w.metric(conn, host, "load", pmapi.SemInstant, pmapi.TypeDouble, noUnits, "1 minute", "5 minute")
		w.metric(conn, host, "ncpu", pmapi.SemDiscrete, pmapi.TypeU32, noUnits)
		w.metric(conn, host, "mem", pmapi.SemCounter, pmapi.TypeU64, kbyteUnits)
	}
	return &shareWorld{world: w}
}

// compile adds the rules of text to the program, returning them.
func (w *shareWorld) compile(text string) []*Rule {
	file := lang.ParsePmie("rules", text)
	for _, d := range file.Diags {
		w.t.Fatalf("rules: %s", d.Msg)
	}
	n := len(w.prog.Rules)
	c := &Compiler{B: w.b, Prog: &w.prog, Delta: 10, Clock: w.rt.Clock}
	for _, st := range file.Stmts {
		c.Statement(st)
	}
	if len(w.diags) > 0 {
		w.t.Fatalf("rules: %v", w.diags)
	}
	return w.prog.Rules[n:]
}

// values are one step's values: conn/metric -> instance -> value; an
// instance left out has no value.
type values map[string]map[string]float64

// randomValues makes a step's values: now and then an instance or a whole
// metric is missing, and counters go down (a wrap, which pmie takes as no
// rate) once in a while.
func randomValues(rnd *rand.Rand, step int) values {
	v := values{}
	for _, conn := range []string{"h0", "h1"} {
		for _, name := range []string{"disk", "util", "load", "ncpu", "mem"} {
			if rnd.Intn(20) == 0 {
				continue
			}
			vals := map[string]float64{}
			insts := []string{""}
			switch name {
			case "disk", "util":
				insts = []string{"d0", "d1", "d2", "d3", "d4", "d5"}
			case "load":
				insts = []string{"1 minute", "5 minute"}
			}
			for _, in := range insts {
				if len(insts) > 1 && rnd.Intn(15) == 0 {
					continue
				}
				switch name {
				case "disk", "mem":
					x := float64(step*200 + rnd.Intn(150))
					if rnd.Intn(30) == 0 {
						x = 0
					}
					vals[in] = x
				case "ncpu":
					vals[in] = 4
				default:
					vals[in] = rnd.Float64() * 4
				}
			}
			v[conn+"/"+name] = vals
		}
	}
	return v
}

// deliver hands each metric of the program its values.
func (w *shareWorld) deliver(now float64, v values) {
	w.rt.Clock.Reflect(now, 10, nil)
	for _, r := range w.prog.Rules {
		for _, m := range r.Metrics {
			m.Drop()
			vs, ok := v[m.Conn+"/"+m.Name]
			if !ok || !m.Ready() {
				continue
			}
			m.Deliver(w.valueSet(m, vs, ""), nil, now)
		}
	}
}

// step evaluates every rule at time now (in its group, when there are
// groups) and returns what -v, -V and -W print and the actions fired.
func (w *shareWorld) step(now float64, v values) string {
	w.deliver(now, v)
	if w.groups == nil {
		for _, r := range w.prog.Rules {
			r.Eval(w.rt)
		}
	} else {
		for _, g := range w.groups {
			g.Begin()
			for _, r := range g.Rules {
				r.Eval(w.rt)
			}
		}
	}
	var b strings.Builder
	for _, r := range w.prog.Rules {
		for mode := 1; mode <= 3; mode++ {
			fmt.Fprintf(&b, "%s %d: %s\n", r.Name, mode, show(r, mode))
		}
	}
	for _, f := range w.takeFiredList() {
		b.WriteString(f + "\n")
	}
	return b.String()
}

// lost makes unknown every value of the rules reading conn, as losing a
// live host does.
func (w *shareWorld) lost(conn string) {
	for _, r := range w.prog.Rules {
		for _, m := range r.Metrics {
			if m.Conn == conn {
				r.Invalidate()
				break
			}
		}
	}
}

// fetchNodes counts the fetch nodes the program's rules read.
func (w *shareWorld) fetchNodes() int {
	seen := map[*Node]bool{}
	n := 0
	var walk func(x *Node)
	walk = func(x *Node) {
		if x == nil || seen[x] {
			return
		}
		seen[x] = true
		if x.Op == OpFetch {
			n++
		}
		walk(x.Arg1)
		walk(x.Arg2)
	}
	for _, r := range w.prog.Rules {
		walk(r.Root)
	}
	return n
}

// TestSharingChangesNothing evaluates the same rules with their common
// sub-expressions shared and not, over random values (instances and
// metrics missing at times, counters wrapping), and checks that every
// value, as -v, -V and -W print it, and every action are the same at
// every step: from the start, after rules are added beside rules that
// have run for a while (as a reload does), and after the rules are shared
// out between two groups.
func TestSharingChangesNothing(t *testing.T) {
	plain, shared := newShareWorld(t), newShareWorld(t)
	plain.compile(shareRules)
	rules := shared.compile(shareRules)
	all := &Group{Rules: append([]*Rule(nil), rules...)}
	shared.groups = []*Group{all}
	before := shared.fetchNodes()
	Regroup(shared.groups, func(*Rule) bool { return true })
	if after := shared.fetchNodes(); after > before/2 {
		t.Fatalf("%d fetch nodes shared as %d", before, after)
	}
	rnd := rand.New(rand.NewSource(1))
	now := 1000.0
	run := func(steps int) {
		t.Helper()
		for i := 0; i < steps; i++ {
			now += 10
			if i%17 == 16 {
				// a host lost live: the values of the rules reading it
				// become unknown
				plain.lost("h1")
				shared.lost("h1")
			}
			v := randomValues(rnd, int(now))
			want, got := plain.step(now, v), shared.step(now, v)
			if got != want {
				t.Fatalf("at %v, shared:\n%s\nnot shared:\n%s", now, got, want)
			}
		}
	}
	run(60)

	plain.compile(moreRules)
	added := shared.compile(moreRules)
	all.Rules = append(all.Rules, added...)
	isNew := map[*Rule]bool{}
	for _, r := range added {
		isNew[r] = true
	}
	Regroup(shared.groups, func(r *Rule) bool { return isNew[r] })
	run(60)

	half := len(all.Rules) / 2
	shared.groups = []*Group{{Rules: all.Rules[:half]}, {Rules: all.Rules[half:]}}
	Regroup(shared.groups, func(*Rule) bool { return false })
	run(60)
}
