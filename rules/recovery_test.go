package rules

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// pmieBackoff is how long libpcp's pmReconnectContext, which pmie uses,
// lets a lost host wait before trying it again, in turn (the default
// PMCD_RECONNECT_TIMEOUT "5,10,20,40,80", the last repeated).
var pmieBackoff = []float64{5, 10, 20, 40, 80}

// pmieRetryAt is when pmie would next try a host lost at time 0 that comes
// back at time back: the first retry time at or after it.
func pmieRetryAt(back float64) float64 {
	at := 0.0
	for i := 0; ; i++ {
		at += pmieBackoff[min(i, len(pmieBackoff)-1)]
		if at >= back {
			return at
		}
	}
}

// TestRecoveryWithinTwoCycles checks issue 5's fault test on the stand-in:
// a host down for many cycles, long enough that pmie's backoff would keep
// it unknown for more than two cycles after it comes back, has values
// again within two evaluation cycles of its return; while it is down its
// values are unknown, and the other hosts' values are known throughout.
func TestRecoveryWithinTwoCycles(t *testing.T) {
	servers, _, b, prog := liveSetup(t, 3)
	flaky := servers[1]
	const delta = 10.0 // the interval liveSetup binds its rules with
	const stopAt, backAt = 3, 20
	clock := &fakeClock{now: time.Unix(1700000000, 0), pause: 100 * time.Millisecond}
	var mu sync.Mutex
	var stopped, back time.Time
	clock.hooks = map[int]func(){
		stopAt: func() {
			flaky.Stop()
			mu.Lock()
			stopped = clock.Now()
			mu.Unlock()
		},
		backAt: func() {
			if err := flaky.Restart(); err != nil {
				t.Error(err)
			}
			mu.Lock()
			back = clock.Now()
			mu.Unlock()
		},
	}
	out := &stampedWriter{}
	var times []time.Time
	cfg := liveConfig(clock, out, backAt+4)
	cfg.TimeString = func(sec float64) string {
		times = append(times, timeOf(sec))
		return "T"
	}
	cfg.ShowTime = true
	e := New(cfg, b, prog)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cycles := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	if len(cycles) != len(times) || len(cycles) < backAt+2 {
		t.Fatalf("%d cycles, %d times:\n%s", len(cycles), len(times), out.String())
	}
	down := back.Sub(stopped).Seconds()
	if late := pmieRetryAt(down) - down; late <= 2*delta {
		t.Fatalf("host down %.0f s: pmie would retry %.0f s after its return, within two cycles; make it longer", down, late)
	}
	// the nth sleep comes before the (n-1)th evaluation, counting from 0
	firstDown, firstBack := stopAt-1, backAt-1
	known := -1
	for i, c := range cycles {
		for _, other := range []string{"host00: [1 minute] 0.50", "host02: [1 minute] 0.50"} {
			if !strings.Contains(c, other) {
				t.Errorf("cycle %d: no %q:\n%s", i, other, c)
			}
		}
		up := strings.Contains(c, "host01: [1 minute] 0.50")
		switch {
		case i >= firstDown && i < firstBack && up:
			t.Errorf("cycle %d: host01 has values while down:\n%s", i, c)
		case i < firstDown && !up:
			t.Errorf("cycle %d: host01 unknown before it stopped:\n%s", i, c)
		case i >= firstBack && up && known < 0:
			known = i
		case known >= 0 && !up:
			t.Errorf("cycle %d: host01 unknown again after cycle %d:\n%s", i, known, c)
		}
	}
	if known < 0 || known > firstBack+1 {
		t.Fatalf("host01 known again at cycle %d, want by cycle %d (it came back before cycle %d)", known, firstBack+1, firstBack)
	}
	t.Logf("host01 down for %.0f s (pmie would try it again %.0f s after its return); known again %v after its return, at the %s evaluation after it",
		down, pmieRetryAt(down)-down, times[known].Sub(back), []string{"first", "second"}[known-firstBack])
}
