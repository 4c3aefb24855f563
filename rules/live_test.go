package rules

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// ctxSource adapts a context to eval.Source.
type ctxSource struct{ ctx pmapi.Context }

// dialSource is an eval.Env's Source over pmcd, closing what it opens
// when t ends.
func dialSource(t *testing.T) func(conn string) (eval.Source, error) {
	return func(conn string) (eval.Source, error) {
		c, err := pmcd.Dial(conn, pmcd.Config{})
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { c.Close() })
		return ctxSource{c}, nil
	}
}

func (s ctxSource) Host() string                                 { return s.ctx.Source().Host }
func (s ctxSource) LookupName(n string) (pmapi.PMID, error)      { return s.ctx.LookupName(n) }
func (s ctxSource) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) { return s.ctx.LookupDesc(id) }
func (s ctxSource) InDom(d pmapi.InDom) ([]pmapi.Instance, error) {
	return s.ctx.InDom(d)
}

// fakeClock is a clock that jumps to whatever time is slept until, so an
// engine runs its cycles back to back. Each sleep takes a few real
// milliseconds (pause) so that reconnections in the background get done.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	hooks map[int]func() // called before the nth sleep
	n     int
	pause time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, until time.Time) error {
	c.mu.Lock()
	c.n++
	h := c.hooks[c.n]
	if until.After(c.now) {
		c.now = until
	}
	c.mu.Unlock()
	if h != nil {
		h()
	}
	time.Sleep(c.pause)
	return ctx.Err()
}

// stampedWriter records when each cycle's output was written.
type stampedWriter struct {
	bytes.Buffer
	at []time.Time
}

func (w *stampedWriter) Write(p []byte) (int, error) {
	w.at = append(w.at, time.Now())
	return w.Buffer.Write(p)
}

// liveSetup starts n pmcd stand-ins and binds rules over all of them: the
// 1-minute load of each, whether some host is loaded, and the sum of their
// free memory.
func liveSetup(t *testing.T, n int) ([]*pmcdtest.Server, []string, *eval.Builder, *eval.Program) {
	t.Helper()
	servers := make([]*pmcdtest.Server, n)
	specs := make([]string, n)
	for i := range servers {
		servers[i] = pmcdtest.Start(t, pmcdtest.Sample(fmt.Sprintf("host%02d", i)))
		specs[i] = servers[i].Spec()
	}
	var mu sync.Mutex
	meta := map[string]eval.Source{}
	dial := dialSource(t)
	rt := &eval.Runtime{Clock: eval.NewClock()}
	env := &eval.Env{DefaultConn: specs[0], Runtime: rt, Source: func(conn string) (eval.Source, error) {
		mu.Lock()
		defer mu.Unlock()
		if s, ok := meta[conn]; ok {
			return s, nil
		}
		s, err := dial(conn)
		if err != nil {
			return nil, err
		}
		meta[conn] = s
		return s, nil
	}}
	b := &eval.Builder{Env: env}
	prog := &eval.Program{}
	add := func(name string, x *eval.Node) {
		b.Begin()
		if b.Statement(prog, name, x, 10) == nil {
			t.Fatalf("rule %s not accepted", name)
		}
	}
	one := []string{"1 minute"}
	add("load", b.Fetch("kernel.all.load", specs, one, 0, 0))
	add("loaded", b.Domain(eval.OpSome, lang.DomHost,
		b.Rel(eval.OpGt, b.Fetch("kernel.all.load", specs, one, 0, 0), b.NumConst(0.4, pmapi.Units{}))))
	add("free", b.Domain(eval.OpSum, lang.DomHost, b.Fetch("mem.util.free", specs, nil, 0, 0)))
	return servers, specs, b, prog
}

func liveConfig(clock *fakeClock, out *stampedWriter, cycles int) Config {
	start := float64(clock.now.UnixNano()) / 1e9
	return Config{Start: start, Stop: start + float64(cycles-1)*10 + 1, Verbose: 2,
		Out:          out,
		TimeString:   func(float64) string { return "T" },
		Open:         func(conn string) (pmapi.Context, error) { return pmcd.Dial(conn, pmcd.Config{}) },
		Now:          clock.Now,
		Sleep:        clock.Sleep,
		FetchTimeout: 5 * time.Second,
	}
}

// TestFiftySlowHosts checks that fifty hosts each answering after 300 ms
// are fetched at once: an evaluation cycle takes about one answer's time,
// not fifty.
func TestFiftySlowHosts(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	const n = 50
	servers, _, b, prog := liveSetup(t, n)
	for _, s := range servers {
		s.SetLatency(300 * time.Millisecond)
	}
	clock := &fakeClock{now: time.Unix(1700000000, 0)}
	out := &stampedWriter{}
	e := New(liveConfig(clock, out, 4), b, prog)
	began := time.Now()
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(out.at) != 4 {
		t.Fatalf("%d cycles written, want 4", len(out.at))
	}
	for i := 1; i < len(out.at); i++ {
		if d := out.at[i].Sub(out.at[i-1]); d >= time.Second {
			t.Errorf("cycle %d took %v", i, d)
		}
	}
	t.Logf("connect and first cycle %v, later cycles %v", out.at[0].Sub(began), out.at[3].Sub(out.at[0])/3)
	last := lastCycle(out.String())
	if got := strings.Count(last, "[1 minute] 0.50"); got != n {
		t.Errorf("last cycle has %d load values, want %d:\n%s", got, n, last)
	}
	if !strings.Contains(last, "loaded: true") {
		t.Errorf("loaded not true:\n%s", last)
	}
}

// lastCycle is the output of the last evaluation.
func lastCycle(s string) string {
	parts := strings.Split(strings.TrimSpace(s), "\n\n")
	return parts[len(parts)-1]
}

// TestDeadHosts checks that hosts that are down make only their own values
// unknown, and that their values come back when they do. (pmie's some_host
// stays unknown once it has seen an unknown member after a true one, so the
// dead hosts are the first ones here.)
func TestDeadHosts(t *testing.T) {
	servers, specs, b, prog := liveSetup(t, 6)
	clock := &fakeClock{now: time.Unix(1700000000, 0), pause: 30 * time.Millisecond}
	dead := servers[:2]
	for _, s := range dead {
		s.Stop()
	}
	clock.hooks = map[int]func(){
		4: func() {
			for _, s := range dead {
				if err := s.Restart(); err != nil {
					t.Error(err)
				}
			}
		},
		8: func() { servers[3].Stop() },
		12: func() {
			if err := servers[3].Restart(); err != nil {
				t.Error(err)
			}
		},
	}
	var logs []string
	var lmu sync.Mutex
	out := &stampedWriter{}
	cfg := liveConfig(clock, out, 16)
	cfg.Notify = func(l Level, msg string) {
		lmu.Lock()
		logs = append(logs, msg)
		lmu.Unlock()
	}
	e := New(cfg, b, prog)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cycles := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	first := cycles[0]
	for _, want := range []string{"host00: [1 minute] ?", "host01: [1 minute] ?",
		"host02: [1 minute] 0.50", "host05: [1 minute] 0.50", "loaded: true", "free: ?"} {
		if !strings.Contains(first, want) {
			t.Errorf("first cycle has no %q:\n%s", want, first)
		}
	}
	last := cycles[len(cycles)-1]
	for _, want := range []string{"host00: [1 minute] 0.50", "host01: [1 minute] 0.50", "free: 758513664"} {
		if !strings.Contains(last, want) {
			t.Errorf("last cycle has no %q:\n%s", want, last)
		}
	}
	joined := strings.Join(logs, "\n")
	lostAt := -1
	for i, c := range cycles {
		if strings.Contains(c, "host03: [1 minute] ?") {
			lostAt = i
			if !strings.Contains(c, "host04: [1 minute] 0.50") {
				t.Errorf("cycle %d: other hosts lost their values too:\n%s", i, c)
			}
		}
	}
	if lostAt < 0 {
		t.Errorf("host03 never went unknown while down")
	}
	for _, want := range []string{"Cannot connect to pmcd " + specs[0], "Re-established connection to pmcd " + specs[1],
		"Lost connection to pmcd " + specs[3], "Re-established connection to pmcd " + specs[3]} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %q in messages:\n%s", want, joined)
		}
	}
	// pmie says it cannot connect to a host only when the host is down at
	// the start, once; a lost host is reported lost, then back
	if n := strings.Count(joined, "Cannot connect to pmcd "+specs[0]+"\n"); n != 1 {
		t.Errorf("%d Cannot connect messages for %s, want 1:\n%s", n, specs[0], joined)
	}
	for _, bad := range []string{"Cannot connect to pmcd " + specs[3], "pmcd via " + specs[3]} {
		if strings.Contains(joined, bad) {
			t.Errorf("lost host reported with %q:\n%s", bad, joined)
		}
	}
}

// hidingSource hides one metric's name until shown, as a PMDA that is
// installed after pmie starts.
type hidingSource struct {
	eval.Source
	name  string
	shown *bool
}

func (s hidingSource) LookupName(n string) (pmapi.PMID, error) {
	if n == s.name && !*s.shown {
		return 0, pmapi.ErrName
	}
	return s.Source.LookupName(n)
}

// TestLateMetric checks that a metric missing when pmie starts, and one
// on a host that is down then, are looked up again and evaluated once
// they are there.
func TestLateMetric(t *testing.T) {
	up := pmcdtest.Start(t, pmcdtest.Sample("early"))
	down := pmcdtest.Start(t, pmcdtest.Sample("late"))
	down.Stop()
	shown := false
	rt := &eval.Runtime{Clock: eval.NewClock()}
	dial := dialSource(t)
	env := &eval.Env{DefaultConn: up.Spec(), Runtime: rt, Source: func(conn string) (eval.Source, error) {
		s, err := dial(conn)
		if err != nil {
			return nil, err
		}
		return hidingSource{s.(ctxSource), "mem.util.free", &shown}, nil
	}}
	var diags []string
	b := &eval.Builder{Env: env, Report: func(d *lang.Diagnostic) { diags = append(diags, d.Msg) }}
	prog := &eval.Program{}
	b.Begin()
	b.Statement(prog, "free", b.Fetch("mem.util.free", nil, nil, 0, 0), 10)
	b.Begin()
	b.Statement(prog, "ncpu", b.Fetch("hinv.ncpu", []string{down.Spec()}, nil, 0, 0), 10)
	if len(prog.Rules) != 2 {
		t.Fatalf("rules not accepted: %v", diags)
	}
	clock := &fakeClock{now: time.Unix(1700000000, 0), pause: 30 * time.Millisecond,
		hooks: map[int]func(){3: func() {
			shown = true
			if err := down.Restart(); err != nil {
				t.Error(err)
			}
		}}}
	out := &stampedWriter{}
	e := New(liveConfig(clock, out, 8), b, prog)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cycles := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	if first := cycles[0]; !strings.Contains(first, "free: ?") || !strings.Contains(first, "ncpu: ?") {
		t.Errorf("first cycle should have no values:\n%s", first)
	}
	last := cycles[len(cycles)-1]
	for _, want := range []string{"early: 126418944", "late: 4"} {
		if !strings.Contains(last, want) {
			t.Errorf("last cycle has no %q:\n%s", want, last)
		}
	}
}

// TestReload checks that a reloaded rule with the same key carries on
// with the state of the one it replaces, while a new rule starts afresh;
// that the reload wakes the engine from its wait and takes effect at the
// next scheduled evaluation, with no extra evaluation; and that a rule
// left out is reported as removed.
func TestReload(t *testing.T) {
	srv := pmcdtest.Start(t, pmcdtest.Sample("solo"))
	rt := &eval.Runtime{Clock: eval.NewClock()}
	env := &eval.Env{DefaultConn: srv.Spec(), Runtime: rt, Source: dialSource(t)}
	build := func(withLoad bool) *Candidate {
		b := &eval.Builder{Env: env}
		prog := &eval.Program{}
		b.Begin()
		r := b.Statement(prog, "hist", b.Fetch("mem.util.free", nil, nil, 0, 2), 10)
		r.Key = "hist"
		b.Begin()
		if withLoad {
			r = b.Statement(prog, "more", b.Fetch("hinv.ncpu", nil, nil, 0, 1), 10)
			r.Key = "more"
		} else {
			r = b.Statement(prog, "gone", b.Fetch("hinv.ncpu", nil, nil, 0, 0), 10)
			r.Key = "gone"
		}
		return &Candidate{Builder: b, Program: prog}
	}
	first := build(false)
	var e *Engine
	clock := &fakeClock{now: time.Unix(1700000000, 0), pause: 10 * time.Millisecond}
	var done <-chan Switched
	clock.hooks = map[int]func(){3: func() { done = e.Reload(build(true)) }}
	out := &stampedWriter{}
	cfg := liveConfig(clock, out, 6)
	var times []string
	cfg.ShowTime = true
	cfg.TimeString = func(sec float64) string {
		times = append(times, fmt.Sprint(sec))
		return "T"
	}
	var removed []string
	cfg.Removed = func(rules []*eval.Rule, now float64) {
		for _, r := range rules {
			removed = append(removed, r.Name)
		}
	}
	e = New(cfg, first.Builder, first.Program)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cycles := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	if len(cycles) < 4 {
		t.Fatalf("only %d cycles:\n%s", len(cycles), out.String())
	}
	after := cycles[2]
	for _, want := range []string{"solo: 126418944 126418944 126418944", "more (T): \n    solo: 4 ?"} {
		if !strings.Contains(after, want) {
			t.Errorf("first cycle after reload has no %q:\n%s", want, after)
		}
	}
	for i := 1; i < len(times); i++ {
		if times[i] == times[i-1] {
			t.Errorf("evaluation %d at the same time as the one before (%s): an extra evaluation", i, times[i])
		}
	}
	select {
	case <-done:
	default:
		t.Error("Reload's channel not closed")
	}
	if fmt.Sprint(removed) != "[gone]" {
		t.Errorf("removed %q, want [gone]", removed)
	}
}

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}

// TestManyReconnects checks that a host going away and coming back a
// hundred times leaves no goroutines or file descriptors behind.
func TestManyReconnects(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	servers, _, b, prog := liveSetup(t, 2)
	flaky := servers[1]
	const rounds = 100
	clock := &fakeClock{now: time.Unix(1700000000, 0), pause: 5 * time.Millisecond, hooks: map[int]func(){}}
	var lost, back int
	for i := 0; i < rounds; i++ {
		n := 4 + 4*i
		clock.hooks[n] = flaky.Stop
		clock.hooks[n+2] = func() {
			if err := flaky.Restart(); err != nil {
				t.Error(err)
			}
		}
	}
	out := &stampedWriter{}
	cfg := liveConfig(clock, out, 4*rounds+8)
	cfg.Notify = func(l Level, msg string) {
		switch {
		case strings.HasPrefix(msg, "Lost connection"):
			lost++
		case strings.HasPrefix(msg, "Re-established"):
			back++
		}
	}
	// warm up once so that lazily started runtime goroutines exist
	runtime.GC()
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	e := New(cfg, b, prog)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d losses, %d returns", lost, back)
	if lost < rounds/2 || back < rounds/2 {
		t.Errorf("only %d losses and %d returns seen", lost, back)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && (runtime.NumGoroutine() > goroutines+2 || openFDs(t) > fds+2) {
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("goroutines %d before, %d after; file descriptors %d before, %d after", goroutines, runtime.NumGoroutine(), fds, openFDs(t))
	if g := runtime.NumGoroutine(); g > goroutines+2 {
		t.Errorf("goroutines: %d before, %d after", goroutines, g)
	}
	if f := openFDs(t); f > fds+2 {
		t.Errorf("file descriptors: %d before, %d after", fds, f)
	}
}

// TestLiveWorkers checks that each live host's fetches run in one worker
// started once, not in a goroutine of their own each, and that the
// workers end with the engine.
func TestLiveWorkers(t *testing.T) {
	const hosts, cycles = 3, 30
	_, _, b, prog := liveSetup(t, hosts)
	clock := &fakeClock{now: time.Unix(1700000000, 0)}
	out := &stampedWriter{}
	before := workersStarted.Load()
	var atFive, goroutines int
	clock.hooks = map[int]func(){5: func() { atFive = runtime.NumGoroutine() }}
	e := New(liveConfig(clock, out, cycles), b, prog)
	clock.hooks[cycles-1] = func() { goroutines = runtime.NumGoroutine() }
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "loaded: true"); n != cycles {
		t.Fatalf("%d cycles evaluated, want %d", n, cycles)
	}
	if n := workersStarted.Load() - before; n != hosts {
		t.Errorf("%d fetch workers started for %d hosts over %d cycles", n, hosts, cycles)
	}
	if goroutines != atFive {
		t.Errorf("%d goroutines at cycle 5, %d at cycle %d", atFive, goroutines, cycles-1)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > atFive-hosts && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > atFive-hosts {
		t.Errorf("%d goroutines after the engine stopped, %d while running: workers left", n, atFive)
	}
}

// With a Phase, a group of rules is first evaluated at that fraction of
// its interval after the start, or, when connecting took longer, at the
// first such time after the hosts are connected; then every interval.
func TestPhase(t *testing.T) {
	_, _, b, prog := liveSetup(t, 1)
	for _, c := range []struct {
		phase   float64
		connect time.Duration // the clock's advance while connecting
		want    []float64     // evaluation times after the start
	}{
		{phase: 0, want: []float64{0, 10, 20}},
		{phase: 0.25, want: []float64{2.5, 12.5, 22.5}},
		{phase: 0.25, connect: 13 * time.Second, want: []float64{22.5, 32.5, 42.5}},
	} {
		clock := &fakeClock{now: time.Unix(1700000000, 0)}
		cfg := liveConfig(clock, &stampedWriter{}, 5)
		start := cfg.Start
		cfg.Stop = start + c.want[2]
		cfg.Phase = c.phase
		open := cfg.Open
		cfg.Open = func(conn string) (pmapi.Context, error) {
			clock.mu.Lock()
			clock.now = clock.now.Add(c.connect)
			clock.mu.Unlock()
			return open(conn)
		}
		var got []float64
		cfg.Evaluated = func(now float64, _ []*eval.Rule) { got = append(got, now-start) }
		if err := New(cfg, b, prog).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("phase %v, connecting for %v: evaluated at %v, want %v", c.phase, c.connect, got, c.want)
		}
	}
}

// TestSetWithMissingMetric checks that a set over hosts that all answer,
// one of which has not the metric, is unknown, as in pmie: that host is
// not down (whose values alone would be missing), its metric has none.
func TestSetWithMissingMetric(t *testing.T) {
	has := pmcdtest.Start(t, pmcdtest.Sample("has"))
	lacks := pmcdtest.Start(t, pmcdtest.Sample("lacks"))
	never := false
	rt := &eval.Runtime{Clock: eval.NewClock()}
	dial := dialSource(t)
	env := &eval.Env{DefaultConn: has.Spec(), Runtime: rt, Source: func(conn string) (eval.Source, error) {
		s, err := dial(conn)
		if err != nil || conn != lacks.Spec() {
			return s, err
		}
		return hidingSource{s.(ctxSource), "hinv.ncpu", &never}, nil
	}}
	var diags []string
	b := &eval.Builder{Env: env, Report: func(d *lang.Diagnostic) { diags = append(diags, d.Msg) }}
	prog := &eval.Program{}
	b.Begin()
	b.Statement(prog, "ncpu", b.Fetch("hinv.ncpu", []string{has.Spec(), lacks.Spec()}, nil, 0, 0), 10)
	if len(prog.Rules) != 1 {
		t.Fatalf("rule not accepted: %v", diags)
	}
	clock := &fakeClock{now: time.Unix(1700000000, 0), pause: 30 * time.Millisecond}
	out := &stampedWriter{}
	e := New(liveConfig(clock, out, 3), b, prog)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, cycle := range strings.Split(strings.TrimSpace(out.String()), "\n\n") {
		if !strings.Contains(cycle, "ncpu: ?") {
			t.Errorf("a cycle has values:\n%s", cycle)
		}
	}
}
