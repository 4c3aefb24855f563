package notify

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/pmie/actions"
)

const routeConfig = `
labels: {team: ops}
receivers:
  - {name: a, type: exec, command: [/bin/true]}
  - {name: b, type: exec, command: [/bin/true]}
  - {name: c, type: exec, command: [/bin/true]}
  - {name: d, type: exec, command: [/bin/true]}
routes:
  - {name: disks, condition: 'rule startsWith "disk"', receivers: [a], continue: true}
  - {name: hot, condition: 'any(values, # > 0.9)', receivers: [b]}
  - {name: syslog, condition: 'action == "syslog" && "beta" in hosts', receivers: [c, a]}
  - {name: first-host, condition: 'hosts[0] == "gamma"', receivers: [d]}
  - {name: team, condition: 'labels.team == "ops" && time.Hour() < 12', receivers: [c]}
default_receiver: d
`

func TestRoutes(t *testing.T) {
	cfg := mustParse(t, routeConfig)
	at := func(hour int) time.Time { return time.Date(2024, 1, 2, hour, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		name  string
		alert Alert
		want  string
		errs  int
	}{
		{"continue then first match", Alert{Rule: "disk_full", Action: "print", Time: at(13),
			Bindings: []Binding{{Value: "0.95"}}}, "a b", 0},
		{"continue then default-free miss", Alert{Rule: "disk_full", Action: "print", Time: at(13), Hosts: []string{"x"}}, "a", 0},
		{"values with units", Alert{Rule: "r", Action: "print", Time: at(13), Bindings: []Binding{{Value: "0.5"}, {Value: "0.99 Kbyte"}}}, "b", 0},
		{"non-numeric value", Alert{Rule: "r", Action: "print", Time: at(13), Bindings: []Binding{{Value: "?"}}, Hosts: []string{"z"}}, "d", 0},
		{"two receivers", Alert{Rule: "load", Action: "syslog", Time: at(13), Hosts: []string{"alpha", "beta"}}, "c a", 0},
		{"failing condition skipped", Alert{Rule: "load", Action: "print", Time: at(10)}, "c", 1},
		{"index", Alert{Rule: "load", Action: "print", Time: at(13), Hosts: []string{"gamma"}}, "d", 0},
		{"default", Alert{Rule: "load", Action: "print", Time: at(13), Hosts: []string{"alpha"}}, "d", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := c.alert
			a.Labels = cfg.Labels
			if a.Hosts == nil {
				a.Hosts = []string{}
			}
			names, errs := match(cfg, &a, time.Now())
			if got := strings.Join(names, " "); got != c.want || len(errs) != c.errs {
				t.Errorf("receivers %q with %d errors %v, want %q with %d", got, len(errs), errs, c.want, c.errs)
			}
		})
	}
}

func TestNoDefaultDrops(t *testing.T) {
	cfg := mustParse(t, "receivers: [{name: a, type: exec, command: [/bin/true]}]\nroutes: [{condition: 'false', receivers: [a]}]\n")
	if names, _ := match(cfg, &Alert{}, time.Now()); len(names) != 0 {
		t.Errorf("matched %q", names)
	}
}

// gate is a sender that waits to be let go for each alert.
type gate struct {
	started chan string
	release chan struct{}
	mu      sync.Mutex
	got     []string
}

func (g *gate) send(ctx context.Context, a *Alert) error {
	g.started <- a.Message
	select {
	case <-g.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	g.mu.Lock()
	g.got = append(g.got, a.Message)
	g.mu.Unlock()
	return nil
}

// TestSlowReceiver checks that a stuck receiver neither holds up Notify
// nor the other receivers, that its queue drops its oldest alerts, and
// that Close sends what is left.
func TestSlowReceiver(t *testing.T) {
	cfg := mustParse(t, `
receivers:
  - {name: slow, type: exec, command: [/bin/true], queue: 2}
  - {name: fast, type: exec, command: [/bin/true]}
routes:
  - {receivers: [slow, fast]}
`)
	slow := &gate{started: make(chan string, 10), release: make(chan struct{})}
	fast := &gate{started: make(chan string, 10), release: make(chan struct{})}
	close(fast.release)
	var logs []string
	var mu sync.Mutex
	n := New(cfg, Options{Log: func(m string) { mu.Lock(); logs = append(logs, m); mu.Unlock() },
		senders: map[string]sender{"slow": slow, "fast": fast}})
	ev := func(i int) *actions.Event {
		return &actions.Event{Kind: actions.Print, Rule: "r", Text: []byte(fmt.Sprint(i))}
	}
	n.Notify(ev(0))
	if m := <-slow.started; m != "0" { // the slow receiver is now stuck on 0
		t.Fatalf("first alert %s", m)
	}
	for i := 1; i <= 5; i++ { // 1 to 5 into a queue of 2: 1, 2, 3 dropped
		n.Notify(ev(i))
	}
	for i := 0; i <= 5; i++ {
		<-fast.started // the fast receiver gets all, while the slow one is stuck
	}
	if s := n.Stats()["slow"]; s.Dropped != 3 || s.Waiting != 2 {
		t.Errorf("slow stats %+v", s)
	}
	close(slow.release)
	if err := n.Close(context.Background()); err == nil || err.Error() != "alerting: 3 alerts were dropped or could not be sent" {
		t.Errorf("Close: %v", err)
	}
	if got := strings.Join(slow.got, " "); got != "0 4 5" {
		t.Errorf("slow receiver got %s", got)
	}
	if got := strings.Join(fast.got, " "); got != "0 1 2 3 4 5" {
		t.Errorf("fast receiver got %s", got)
	}
	if s := n.Stats()["fast"]; s.Sent != 6 || s.Dropped != 0 {
		t.Errorf("fast stats %+v", s)
	}
	want := "alerting: receiver slow: queue full, oldest alert dropped (1 dropped so far)"
	if len(logs) != 1 || logs[0] != want {
		t.Errorf("logged %q", logs)
	}
}

// TestCloseDeadline checks that Close gives up on a stuck receiver when
// its context ends, counting what was not sent.
func TestCloseDeadline(t *testing.T) {
	cfg := mustParse(t, "receivers: [{name: stuck, type: exec, command: [/bin/true]}]\ndefault_receiver: stuck\n")
	g := &gate{started: make(chan string, 10), release: make(chan struct{})}
	n := New(cfg, Options{senders: map[string]sender{"stuck": g}})
	n.Notify(&actions.Event{Text: []byte("a")})
	n.Notify(&actions.Event{Text: []byte("b")})
	<-g.started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := n.Close(ctx); err == nil || err.Error() != "alerting: 2 alerts were dropped or could not be sent" {
		t.Errorf("Close: %v", err)
	}
	n.Notify(&actions.Event{Text: []byte("c")}) // after Close: dropped, no panic
	if s := n.Stats()["stuck"]; s.Failed != 2 || s.Dropped != 1 || s.Sent != 0 {
		t.Errorf("stats %+v", s)
	}
}
