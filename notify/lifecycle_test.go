package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixedClock is a clock tests move by hand.
type fixedClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fixedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fixedClock) set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// amPosted is one alert as posted to Alertmanager, in short.
func amPosted(t *testing.T, body string) []string {
	t.Helper()
	var alerts []amAlert
	if err := json.Unmarshal([]byte(body), &alerts); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	var out []string
	for _, a := range alerts {
		out = append(out, fmt.Sprintf("%s/%s %s..%s %s", a.Labels["alertname"], a.Labels["pmie_instance"],
			a.StartsAt[11:19], a.EndsAt[11:19], a.Annotations["value"]))
	}
	return out
}

// TestAlertLifecycle checks that an Alertmanager alert follows its rule:
// it fires when the action fires, stays firing (re-sent every
// resend_interval, with the same startsAt and an endsAt worked out when
// sent) while the rule is true although its action is held off, is
// resolved for a binding that stops making the rule true, and for all
// when the rule becomes false; an unknown evaluation changes nothing.
func TestAlertLifecycle(t *testing.T) {
	rec, srv := newRecorder(t)
	cfg := mustParse(t, `
labels: {team: ops}
receivers:
  - {name: am, type: alertmanager, url: '`+srv.URL+`/', resolve_timeout: 5m, resend_interval: 1m}
  - {name: hook, type: webhook, url: '`+srv.URL+`/hook'}
routes:
  - {receivers: [am, hook]}
`)
	t0 := time.Unix(1700000000, 0).UTC()
	clock := &fixedClock{t: t0}
	n := New(cfg, Options{Now: clock.Now})
	defer n.Close(context.Background())
	ev := sample()
	both := func() []Binding {
		return []Binding{{Host: "alpha", Inst: "cpu0", Value: "0.95"}, {Host: "alpha", Inst: "cpu1", Value: "0.97"}}
	}
	one := func() []Binding { return []Binding{{Host: "alpha", Inst: "cpu0", Value: "0.99"}} }
	step := func(sec int, truth Truth, bindings func() []Binding, fire bool) {
		at := t0.Add(time.Duration(sec) * time.Second)
		clock.set(at.Add(2 * time.Second)) // sent a little after the evaluation
		e := &Evaluation{Key: "k", Rule: "cpu_hot", Time: at, Truth: truth, Bindings: bindings}
		if fire {
			e.Fired = []*Alert{FromEvent(ev, cfg.Labels)}
		}
		n.Evaluated(e)
	}
	seen := 0 // Alertmanager posts looked at
	amBodies := func() []string {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		var out []string
		for i, p := range rec.paths {
			if p == "POST /api/v2/alerts" {
				out = append(out, rec.bodies[i])
			}
		}
		return out
	}
	// expect checks what was posted since the last step: one batch, or
	// several when the sender woke while the step was still putting
	expect := func(what string, want ...string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		if len(want) == 0 {
			deadline = time.Now().Add(100 * time.Millisecond)
		}
		for len(amBodies()) <= seen && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		for n := -1; n != len(amBodies()); { // until no more come for a while
			n = len(amBodies())
			time.Sleep(50 * time.Millisecond)
		}
		bodies := amBodies()
		switch {
		case len(want) == 0 && len(bodies) > seen:
			t.Fatalf("%s: sent %s", what, bodies[seen])
		case len(want) == 0:
			return
		case len(bodies) <= seen:
			t.Fatalf("%s: nothing sent", what)
		}
		var got []string
		for _, body := range bodies[seen:] {
			got = append(got, amPosted(t, body)...)
		}
		seen = len(bodies)
		sort.Strings(got)
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("%s: sent\n%s\nwant\n%s", what, strings.Join(got, "; "), strings.Join(want, "; "))
		}
	}
	step(0, True, both, true)
	expect("fired", "cpu_hot/cpu0 22:13:20..22:18:22 0.95", "cpu_hot/cpu1 22:13:20..22:18:22 0.97")
	step(30, True, both, false)
	expect("held off, within resend_interval")
	step(70, Unknown, nil, false)
	expect("unknown")
	step(90, True, both, false)
	expect("held off, resent", "cpu_hot/cpu0 22:13:20..22:19:52 0.95", "cpu_hot/cpu1 22:13:20..22:19:52 0.97")
	step(100, True, one, false)
	expect("cpu1 stops", "cpu_hot/cpu1 22:13:20..22:15:00 0.97")
	step(200, False, nil, false)
	expect("rule false", "cpu_hot/cpu0 22:13:20..22:16:40 0.99")
	step(210, True, both, false)
	expect("true again, action held off, not fired: nothing to route by")
	step(220, True, both, true)
	expect("fires again: a new startsAt", "cpu_hot/cpu0 22:17:00..22:22:02 0.95", "cpu_hot/cpu1 22:17:00..22:22:02 0.97")
	n.Removed([]string{"k"}, t0.Add(230*time.Second))
	expect("rule removed", "cpu_hot/cpu0 22:17:00..22:17:10 0.95", "cpu_hot/cpu1 22:17:00..22:17:10 0.97")
}

// TestAlertmanagerOutage checks that after an Alertmanager outage only
// the latest state of each alert is sent, with endsAt worked out when it
// is finally sent (here ten minutes after it began, at the last
// evaluation's time, plus resolve_timeout), so an alert still firing is
// never sent already ended; and that the failures are logged once and
// the recovery said.
func TestAlertmanagerOutage(t *testing.T) {
	rec, srv := newRecorder(t, 503, 503, 503)
	cfg := mustParse(t, `
receivers:
  - {name: am, type: alertmanager, url: '`+srv.URL+`', resolve_timeout: 1m, resend_interval: 10s, retries: 0, backoff: 10ms}
default_receiver: am
`)
	t0 := time.Unix(1700000000, 0).UTC()
	clock := &fixedClock{t: t0}
	var logs []string
	var mu sync.Mutex
	n := New(cfg, Options{Now: clock.Now, Log: func(m string) { mu.Lock(); logs = append(logs, m); mu.Unlock() }})
	one := func() []Binding { return []Binding{{Host: "alpha", Inst: "cpu0", Value: "1"}} }
	fired := []*Alert{FromEvent(sample(), nil)}
	for i := 0; i < 30; i++ { // ten minutes of evaluations while Alertmanager fails
		e := &Evaluation{Key: "k", Rule: "cpu_hot", Time: t0.Add(time.Duration(20*i) * time.Second), Truth: True, Bindings: one}
		if i == 0 {
			e.Fired = fired
		}
		clock.set(e.Time)
		n.Evaluated(e)
	}
	for i := 0; i < 4; i++ { // three failures, then success
		select {
		case <-rec.got:
		case <-time.After(5 * time.Second):
			t.Fatalf("only %d posts", i)
		}
	}
	n.Close(context.Background())
	rec.mu.Lock()
	defer rec.mu.Unlock()
	last := amPosted(t, rec.bodies[len(rec.bodies)-1])
	if want := "cpu_hot/cpu0 22:13:20..22:24:00 1"; len(last) != 1 || last[0] != want {
		t.Errorf("after the outage sent %q, want %q", last, want)
	}
	mu.Lock()
	defer mu.Unlock()
	// when the sender takes a failure in, the clock may be a minute on,
	// so a later failure may be logged too (TestFailuresLogged checks the
	// logging with a clock that waits)
	bad := len(logs) < 2 || len(logs) > 3 || !strings.Contains(logs[0], "503") ||
		!strings.Contains(logs[len(logs)-1], "sending again after 3 failures")
	if len(logs) == 3 && !strings.Contains(logs[1], "503") {
		bad = true
	}
	if bad {
		t.Errorf("logged %q", logs)
	}
}
