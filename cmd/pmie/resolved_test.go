package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/notify/alert"
)

// hookLog keeps the alerts a webhook of the test's is sent, by path.
type hookLog struct {
	mu     sync.Mutex
	alerts map[string][]alert.Alert
}

func (h *hookLog) get(path string) []alert.Alert {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]alert.Alert(nil), h.alerts[path]...)
}

// resolvedOf finds the resolution of a pmie instance among alerts.
func resolvedOf(alerts []alert.Alert, inst string) *alert.Alert {
	for i := range alerts {
		a := &alerts[i]
		if a.Status == alert.Resolved && len(a.Bindings) == 1 && a.Bindings[0].Inst == inst {
			return a
		}
	}
	return nil
}

// amResolved finds when Alertmanager said the alert of a pmie instance
// resolved: its startsAt and endsAt.
func amResolved(am *realAM, inst string) (start, end time.Time, ok bool) {
	for _, n := range am.notes.all() {
		for _, a := range n.Alerts {
			if a.Status == "resolved" && a.Labels["pmie_instance"] == inst {
				return a.StartsAt, a.EndsAt, true
			}
		}
	}
	return
}

// TestResolvedNotifications runs pmie as a daemon with a rule firing for
// two instances to a real Alertmanager, a webhook and an exec receiver
// (both with send_resolved, the default) and a webhook with
// send_resolved: false. When one instance stops making the rule true,
// then the other, the webhook and the program are told, each time, of a
// resolution with the startsAt and endsAt Alertmanager gives the same
// alert; the quiet webhook hears of the firing only.
func TestResolvedNotifications(t *testing.T) {
	am := startAM(t)
	hooks := &hookLog{alerts: map[string][]alert.Alert{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var a alert.Alert
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &a); err != nil {
			t.Errorf("%s: %v: %s", r.URL.Path, err, b)
		}
		hooks.mu.Lock()
		hooks.alerts[r.URL.Path] = append(hooks.alerts[r.URL.Path], a)
		hooks.mu.Unlock()
	}))
	defer srv.Close()
	host := pmcdtest.Start(t, pmcdtest.Sample("resolvetest"))
	setLoad(host, 2, 3)
	dir := t.TempDir()
	pager := filepath.Join(dir, "pager")
	os.WriteFile(pager, []byte("#!/bin/sh\ninst=$(printf %s \"$PMIE_INSTANCES\" | tr '\\n' ,)\n"+
		"echo \"$PMIE_STATUS $inst $PMIE_STARTS_AT $PMIE_ENDS_AT\" >> \"$1\"\n"), 0o755)
	paged := filepath.Join(dir, "paged")
	os.WriteFile(filepath.Join(dir, "rules.pmie"), []byte("delta = 1 sec;\n"+
		"hot = some_inst (kernel.all.load > 1) -> print 10 min \"hot %i %v\";\n"), 0o644)
	yaml := filepath.Join(dir, "pmie.yaml")
	os.WriteFile(yaml, []byte(`rule_files: [rules.pmie]
mmv: false
receivers:
  - {name: am, type: alertmanager, url: '`+am.url+`', resolve_timeout: 10s, resend_interval: 2s}
  - {name: hook, type: webhook, url: '`+srv.URL+`/hook'}
  - {name: quiet, type: webhook, url: '`+srv.URL+`/quiet', send_resolved: false}
  - {name: pager, type: exec, command: ['`+pager+`', '`+paged+`']}
routes:
  - {receivers: [am, hook, quiet, pager]}
`), 0o644)
	p := startLive(t, "--yaml-config", yaml, "-h", host.Spec(), "-f")
	p.waitFor("the firing alerts", 15*time.Second, func() bool {
		return len(hooks.get("/hook")) == 1 && len(hooks.get("/quiet")) == 1 && len(am.active()) == 2
	})
	fired := hooks.get("/hook")[0]
	if fired.Status != alert.Firing || len(fired.Bindings) != 2 || !fired.EndsAt.IsZero() {
		t.Fatalf("fired %+v", fired)
	}

	for _, step := range []struct {
		one, five float32
		inst      string
	}{{0.5, 3, "1 minute"}, {0.5, 0.5, "5 minute"}} {
		setLoad(host, step.one, step.five)
		var got *alert.Alert
		took := p.waitFor("the resolution of "+step.inst, 15*time.Second, func() bool {
			got = resolvedOf(hooks.get("/hook"), step.inst)
			_, _, amDone := amResolved(am, step.inst)
			return got != nil && amDone
		})
		amStart, amEnd, _ := amResolved(am, step.inst)
		t.Logf("%s resolved: webhook %v after the change, startsAt %s endsAt %s; Alertmanager's %s..%s",
			step.inst, took, got.StartsAt.Format(time.RFC3339Nano), got.EndsAt.Format(time.RFC3339Nano),
			amStart.UTC().Format(time.RFC3339Nano), amEnd.UTC().Format(time.RFC3339Nano))
		if !got.StartsAt.Equal(fired.StartsAt) || !got.StartsAt.Equal(amStart) || !got.EndsAt.Equal(amEnd) ||
			!got.Time.Equal(got.EndsAt) || got.Rule != "hot" || got.Action != "print" {
			t.Errorf("resolution %+v; fired at %v; Alertmanager's %v..%v", got, fired.StartsAt, amStart, amEnd)
		}
	}
	p.waitFor("the program's two resolutions", 10*time.Second, func() bool {
		b, _ := os.ReadFile(paged)
		return strings.Count(string(b), "resolved ") == 2
	})
	b, _ := os.ReadFile(paged)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	start := fired.StartsAt.Format(time.RFC3339Nano)
	if len(lines) != 3 || lines[0] != "firing 1 minute,5 minute "+start+" " ||
		!strings.HasPrefix(lines[1], "resolved 1 minute "+start+" ") || !strings.HasPrefix(lines[2], "resolved 5 minute "+start+" ") {
		t.Errorf("the program got:\n%s", b)
	}
	if n := len(hooks.get("/hook")); n != 3 {
		t.Errorf("webhook sent %d alerts, want 3 (one firing, two resolved): %+v", n, hooks.get("/hook"))
	}
	if q := hooks.get("/quiet"); len(q) != 1 || q[0].Status != alert.Firing {
		t.Errorf("send_resolved: false: sent %+v", q)
	}
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d:\n%s", code, p.errs.String())
	}
}
