package notify

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestWindowActive checks when a time window is open: from each time its
// schedule fires, for its duration, in the configuration's time zone.
func TestWindowActive(t *testing.T) {
	cfg := mustParse(t, `
timezone: Europe/Paris
time_windows:
  - {name: night, cron: '0 22 * * *', duration: 8h}
  - {name: lunch, cron: '30 12 * * 1-5', duration: 30m}
receivers: [{name: a, type: exec, command: [/bin/true]}]
`)
	paris, _ := time.LoadLocation("Europe/Paris")
	at := func(day, hour, min int) time.Time { return time.Date(2024, 1, day, hour, min, 0, 0, paris) }
	for _, c := range []struct {
		window string
		t      time.Time
		want   bool
	}{
		{"night", at(2, 21, 59), false},
		{"night", at(2, 22, 0), true},
		{"night", at(3, 5, 59), true},
		{"night", at(3, 6, 0), false}, // 22:00 + 8h: closed again
		{"night", at(3, 5, 0).UTC(), true},
		{"lunch", at(3, 12, 45), true},  // a Wednesday
		{"lunch", at(6, 12, 45), false}, // a Saturday
		{"lunch", at(3, 13, 0), false},
	} {
		if got := cfg.muted([]string{c.window}, c.t); got != c.want {
			t.Errorf("%s at %v: open %v, want %v", c.window, c.t, got, c.want)
		}
	}
}

// TestMutedRoute checks that a route whose window is open matches (later
// routes are not tried) but sends nothing, while one whose window is
// closed sends.
func TestMutedRoute(t *testing.T) {
	rec, srv := newRecorder(t)
	cfg := mustParse(t, `
time_windows:
  - {name: always, cron: '* * * * *', duration: 2m}
  - {name: never, cron: '0 0 1 1 *', duration: 1m}
receivers:
  - {name: muted, type: webhook, url: '`+srv.URL+`/muted'}
  - {name: open, type: webhook, url: '`+srv.URL+`/open'}
  - {name: fallback, type: webhook, url: '`+srv.URL+`/fallback'}
routes:
  - {condition: 'rule == "a"', receivers: [muted], mute_when: [always]}
  - {condition: 'rule == "b"', receivers: [open], mute_when: [never]}
  - {receivers: [fallback]}
`)
	n := New(cfg, Options{})
	for _, rule := range []string{"a", "b"} {
		ev := sample()
		ev.Rule = rule
		n.Notify(ev)
	}
	n.Close(context.Background())
	if got := strings.Join(rec.paths, " "); got != "POST /open" {
		t.Errorf("sent to %q, want only /open", got)
	}
}

// TestHeartbeats checks that heartbeats arrive on their schedule: every
// second here, each as an alert with the action "heartbeat".
func TestHeartbeats(t *testing.T) {
	rec, srv := newRecorder(t)
	cfg := mustParse(t, `
labels: {site: lab}
receivers: [{name: hook, type: webhook, url: '`+srv.URL+`/beat'}]
heartbeats: [{name: alive, cron: '@every 1s', receivers: [hook]}]
`)
	n := New(cfg, Options{})
	var at []time.Time
	for len(at) < 3 {
		select {
		case <-rec.got:
			at = append(at, time.Now())
		case <-time.After(3 * time.Second):
			t.Fatalf("%d heartbeats", len(at))
		}
	}
	n.Close(context.Background())
	for i := 1; i < len(at); i++ {
		if d := at[i].Sub(at[i-1]); d < 700*time.Millisecond || d > 1300*time.Millisecond {
			t.Errorf("heartbeat %d came %v after the one before, want about 1s", i, d)
		}
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var a Alert
	if err := json.Unmarshal([]byte(rec.bodies[0]), &a); err != nil {
		t.Fatal(err)
	}
	if a.Rule != "alive" || a.Action != "heartbeat" || a.Labels["site"] != "lab" {
		t.Errorf("heartbeat %s", rec.bodies[0])
	}
}
