package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// hookPosted is an alert as posted to a webhook, in short: status, start
// and end, and the bindings with their values.
func hookPosted(t *testing.T, body string) string {
	t.Helper()
	var a Alert
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	var bs []string
	for _, b := range a.Bindings {
		bs = append(bs, b.Inst+"="+b.Value)
	}
	end := ""
	if !a.EndsAt.IsZero() {
		end = a.EndsAt.Format("15:04:05")
	}
	return fmt.Sprintf("%s %s %s %s..%s %s [%s]", a.Rule, a.Status, a.Action, a.StartsAt.Format("15:04:05"), end,
		a.Time.Format("15:04:05"), strings.Join(bs, " "))
}

// TestResolvedToHooks checks that webhook (and exec) receivers are told
// when the bindings an action fired for stop making the rule true, as
// Alertmanager is: a binding that stops is resolved while the other goes
// on, the rest when the rule becomes false, with startsAt when they
// began to fire and endsAt when they stopped; an unknown evaluation and
// true evaluations with the action held off change nothing; a receiver
// with send_resolved: false gets the firing only; a rule removed by a
// reload resolves.
func TestResolvedToHooks(t *testing.T) {
	rec, srv := newRecorder(t)
	cfg := mustParse(t, `
receivers:
  - {name: hook, type: webhook, url: '`+srv.URL+`/hook'}
  - {name: quiet, type: webhook, url: '`+srv.URL+`/quiet', send_resolved: false}
routes:
  - {receivers: [hook, quiet]}
`)
	t0 := time.Unix(1700000000, 0).UTC()
	n := New(cfg, Options{Now: (&fixedClock{t: t0}).Now})
	defer n.Close(context.Background())
	both := func() []Binding {
		return []Binding{{Host: "alpha", Inst: "cpu0", Value: "0.95"}, {Host: "alpha", Inst: "cpu1", Value: "0.97"}}
	}
	one := func() []Binding { return []Binding{{Host: "alpha", Inst: "cpu0", Value: "0.99"}} }
	step := func(sec int, truth Truth, bindings func() []Binding, fire bool) {
		at := t0.Add(time.Duration(sec) * time.Second)
		e := &Evaluation{Key: "k", Rule: "cpu_hot", Time: at, Truth: truth, Bindings: bindings}
		if fire {
			// the action's bindings are those of the evaluation
			a := FromEvent(sample(), nil)
			a.Time, a.StartsAt, a.Bindings = at, at, bindings()
			e.Fired = []*Alert{a}
		}
		n.Evaluated(e)
	}
	seen := map[string]int{}
	expect := func(path, what string, want ...string) {
		t.Helper()
		var got []string
		deadline := time.Now().Add(5 * time.Second)
		for {
			rec.mu.Lock()
			got = got[:0]
			i := 0
			for j, p := range rec.paths {
				if p == "POST "+path {
					if i >= seen[path] {
						got = append(got, hookPosted(t, rec.bodies[j]))
					}
					i++
				}
			}
			rec.mu.Unlock()
			if len(got) >= len(want) && (len(want) > 0 || time.Now().After(deadline.Add(-4900*time.Millisecond))) ||
				time.Now().After(deadline) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		seen[path] += len(got)
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("%s %s: sent\n%s\nwant\n%s", path, what, strings.Join(got, "; "), strings.Join(want, "; "))
		}
	}
	step(0, True, both, true)
	expect("/hook", "fired", "cpu_hot firing syslog 22:13:20.. 22:13:20 [cpu0=0.95 cpu1=0.97]")
	expect("/quiet", "fired", "cpu_hot firing syslog 22:13:20.. 22:13:20 [cpu0=0.95 cpu1=0.97]")
	step(30, True, both, false)
	step(70, Unknown, nil, false)
	expect("/hook", "held off, then unknown")
	step(100, True, one, false)
	expect("/hook", "cpu1 stops", "cpu_hot resolved syslog 22:13:20..22:15:00 22:15:00 [cpu1=0.97]")
	step(150, True, one, true)
	expect("/hook", "fires again for cpu0: still the same startsAt", "cpu_hot firing syslog 22:13:20.. 22:15:50 [cpu0=0.99]")
	step(200, False, nil, false)
	expect("/hook", "rule false", "cpu_hot resolved syslog 22:13:20..22:16:40 22:16:40 [cpu0=0.99]")
	step(210, False, nil, false)
	expect("/hook", "still false")
	step(220, True, one, true)
	expect("/hook", "fires anew", "cpu_hot firing syslog 22:17:00.. 22:17:00 [cpu0=0.99]")
	n.Removed([]string{"k"}, t0.Add(230*time.Second))
	expect("/hook", "rule removed", "cpu_hot resolved syslog 22:17:00..22:17:10 22:17:10 [cpu0=0.99]")
	expect("/quiet", "send_resolved: false: firings only",
		"cpu_hot firing syslog 22:13:20.. 22:15:50 [cpu0=0.99]", "cpu_hot firing syslog 22:17:00.. 22:17:00 [cpu0=0.99]")
}

// TestResolvedAfterRestart checks that a restarted notifier, told of the
// rules still true and the alerts they fired (Resume), sends them to no
// exec or webhook receiver again but resolves them when the rule stops.
func TestResolvedAfterRestart(t *testing.T) {
	rec, srv := newRecorder(t)
	cfg := mustParse(t, `
receivers:
  - {name: hook, type: webhook, url: '`+srv.URL+`/hook'}
default_receiver: hook
`)
	t0 := time.Unix(1700000000, 0).UTC()
	n := New(cfg, Options{})
	one := func() []Binding { return []Binding{{Host: "alpha", Inst: "cpu0", Value: "0.99"}} }
	a := FromEvent(sample(), nil)
	a.Time, a.StartsAt, a.Bindings = t0, t0, one()
	n.Evaluated(&Evaluation{Key: "k", Rule: "cpu_hot", Time: t0.Add(time.Minute), Truth: True, Bindings: one,
		Fired: []*Alert{a}, Resume: true})
	n.Evaluated(&Evaluation{Key: "k", Rule: "cpu_hot", Time: t0.Add(2 * time.Minute), Truth: False})
	n.Close(context.Background())
	var got []string
	for _, b := range rec.bodies {
		got = append(got, hookPosted(t, b))
	}
	want := "cpu_hot resolved syslog 22:13:20..22:15:20 22:15:20 [cpu0=0.99]"
	if strings.Join(got, "; ") != want {
		t.Errorf("sent %q, want only %q", got, want)
	}
}

// TestStartsAtWithoutResolutions checks that a receiver with
// send_resolved: false, alone on its route, sees the startsAt of the
// bindings it is sent: an action fired again while they stay true keeps
// the first time; once they stopped, a new firing starts anew.
func TestStartsAtWithoutResolutions(t *testing.T) {
	rec, srv := newRecorder(t)
	cfg := mustParse(t, `
receivers:
  - {name: quiet, type: webhook, url: '`+srv.URL+`/quiet', send_resolved: false}
default_receiver: quiet
`)
	t0 := time.Unix(1700000000, 0).UTC()
	n := New(cfg, Options{})
	one := func() []Binding { return []Binding{{Host: "alpha", Inst: "cpu0", Value: "0.99"}} }
	for _, s := range []struct {
		sec   int
		truth Truth
	}{{0, True}, {60, True}, {120, False}, {180, True}} {
		at := t0.Add(time.Duration(s.sec) * time.Second)
		e := &Evaluation{Key: "k", Rule: "cpu_hot", Time: at, Truth: s.truth, Bindings: one}
		if s.truth == True {
			a := FromEvent(sample(), nil)
			a.Time, a.StartsAt, a.Bindings = at, at, one()
			e.Fired = []*Alert{a}
		}
		n.Evaluated(e)
	}
	n.Close(context.Background())
	var got []string
	for _, b := range rec.bodies {
		got = append(got, hookPosted(t, b))
	}
	want := "cpu_hot firing syslog 22:13:20.. 22:13:20 [cpu0=0.99]; cpu_hot firing syslog 22:13:20.. 22:14:20 [cpu0=0.99]; " +
		"cpu_hot firing syslog 22:16:20.. 22:16:20 [cpu0=0.99]"
	if strings.Join(got, "; ") != want {
		t.Errorf("sent\n%s\nwant\n%s", strings.Join(got, "; "), want)
	}
}
