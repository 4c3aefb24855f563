package rules

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// A host that cannot be reached is tried again after Backoff's waits,
// not at every evaluation.
func TestBackoff(t *testing.T) {
	attempts := func(b Backoff) int {
		servers, specs, bld, prog := liveSetup(t, 2)
		clock := &fakeClock{now: time.Unix(1700000000, 0), pause: 20 * time.Millisecond}
		clock.hooks = map[int]func(){2: servers[1].Stop}
		cfg := liveConfig(clock, &stampedWriter{}, 30) // 300 s, every 10 s
		var n atomic.Int32
		cfg.Open = func(conn string) (pmapi.Context, error) {
			if conn == specs[1] {
				n.Add(1)
			}
			return pmcd.Dial(conn, pmcd.Config{})
		}
		cfg.Backoff = b
		if err := New(cfg, bld, prog).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return int(n.Load())
	}
	// lost at about 10 s: tried at once, then after 30, 60, 60, 60 s...
	if n := attempts(Backoff{Min: 30 * time.Second, Max: time.Minute}); n < 4 || n > 7 {
		t.Errorf("with a backoff, %d attempts to connect in 300 s", n)
	}
	if n := attempts(Backoff{}); n < 20 {
		t.Errorf("without a backoff, only %d attempts to connect in 300 s", n)
	}
}

func TestBackoffNext(t *testing.T) {
	b := Backoff{Min: time.Second, Max: 5 * time.Second}
	var got []time.Duration
	w := time.Duration(0)
	for range 5 {
		w = b.next(w)
		got = append(got, w)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("waits %v, want %v", got, want)
		}
	}
	if (Backoff{}).next(time.Hour) != 0 {
		t.Error("the zero Backoff waits")
	}
}

// countingCtx counts the fetches in flight at once on every host.
type countingCtx struct {
	pmapi.Context
	now, peak *atomic.Int32
}

func (c countingCtx) Fetch(ids []pmapi.PMID, r *pmapi.Result) error {
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			break
		}
	}
	return c.Context.Fetch(ids, r)
}

// Limits bounds the fetches in flight over every host, and they all
// still answer.
func TestLimits(t *testing.T) {
	servers, _, b, prog := liveSetup(t, 12)
	for _, s := range servers {
		s.SetLatency(30 * time.Millisecond)
	}
	clock := &fakeClock{now: time.Unix(1700000000, 0), pause: time.Millisecond}
	out := &stampedWriter{}
	cfg := liveConfig(clock, out, 4)
	var now, peak atomic.Int32
	var dials, maxDials atomic.Int32
	var mu sync.Mutex
	cfg.Open = func(conn string) (pmapi.Context, error) {
		mu.Lock()
		if d := dials.Add(1); d > maxDials.Load() {
			maxDials.Store(d)
		}
		mu.Unlock()
		defer dials.Add(-1)
		c, err := pmcd.Dial(conn, pmcd.Config{})
		if err != nil {
			return nil, err
		}
		return countingCtx{c, &now, &peak}, nil
	}
	cfg.Limits = NewLimits(2, 3)
	if err := New(cfg, b, prog).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p < 2 || p > 3 {
		t.Errorf("%d fetches at once, limit 3", p)
	}
	if d := maxDials.Load(); d > 2 {
		t.Errorf("%d connections made at once, limit 2", d)
	}
	if c := lastCycle(out.String()); c == "" || strings.Contains(c, "?") {
		t.Errorf("last cycle:\n%s", c)
	}
}

// A StatsGroup sums its members' counts, each rule's over the members
// running it.
func TestStatsGroup(t *testing.T) {
	_, _, b, prog := liveSetup(t, 1)
	g := NewStatsGroup()
	called := 0
	g.AfterEval(func() { called++ })
	for _, id := range []string{"a", "b"} {
		member := &eval.Program{}
		for _, r := range prog.Rules {
			c := *r
			c.Key = MemberKey(r.Name, id)
			member.Rules = append(member.Rules, &c)
		}
		rs := g.Add(id).load(member, b.Rules())
		rs[0].Outcome(eval.True)
		rs[0].evaluated()
	}
	rules := g.Rules()
	if len(rules) != len(prog.Rules) || rules[0].Key != prog.Rules[0].Name || rules[0].True != 2 || rules[0].Evaluations != 2 {
		t.Errorf("rules %+v", rules)
	}
	if tot := g.Totals(); tot.True != 2 || tot.NumRules != 2*b.Rules() || g.Len() != 2 || called != 2 {
		t.Errorf("totals %+v, %d members, %d calls", tot, g.Len(), called)
	}
	g.Remove("a")
	if tot := g.Totals(); tot.True != 1 {
		t.Errorf("after a member is removed, totals %+v", tot)
	}
	if BaseKey(MemberKey("k", "m")) != "k" || BaseKey("k") != "k" {
		t.Error("BaseKey does not undo MemberKey")
	}
}
