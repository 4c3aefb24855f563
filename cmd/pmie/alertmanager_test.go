package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/internal/realtest"
	"github.com/gopcp/pmie/pmapi"
)

// realAM is a real Alertmanager, started by a test on a free loopback
// port with its own storage, as a single node.
type realAM struct {
	t          *testing.T
	args       []string
	url        string
	cmd        *exec.Cmd
	notes      *amNotes
	notesSrv   *httptest.Server
	storageDir string
}

// amNotes keeps the notifications Alertmanager sends its webhook.
type amNotes struct {
	mu    sync.Mutex
	notes []amNote
}

type amNote struct {
	Status string `json:"status"`
	Alerts []struct {
		Status   string            `json:"status"`
		Labels   map[string]string `json:"labels"`
		StartsAt time.Time         `json:"startsAt"`
		EndsAt   time.Time         `json:"endsAt"`
	} `json:"alerts"`
}

func (n *amNotes) all() []amNote {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]amNote(nil), n.notes...)
}

// count counts the notifications of a status.
func (n *amNotes) count(status string) int {
	c := 0
	for _, note := range n.all() {
		if note.Status == status {
			c++
		}
	}
	return c
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startAM starts Alertmanager, routing every alert at once to a webhook
// of the test's that keeps its notifications (resolved ones too).
func startAM(t *testing.T) *realAM {
	t.Helper()
	realtest.Require(t, realtest.Alertmanager)
	notes := &amNotes{}
	srv := amHook(t, func(n amNote) {
		notes.mu.Lock()
		notes.notes = append(notes.notes, n)
		notes.mu.Unlock()
	})
	dir := t.TempDir()
	cfg := writeAMConfig(t, dir, srv.URL, "[alertname]", true)
	port := freePort(t)
	am := &realAM{t: t, notes: notes, notesSrv: srv, storageDir: filepath.Join(dir, "data"),
		url: fmt.Sprintf("http://127.0.0.1:%d", port)}
	am.args = []string{"--config.file=" + cfg, "--storage.path=" + am.storageDir,
		fmt.Sprintf("--web.listen-address=127.0.0.1:%d", port), "--cluster.listen-address="}
	am.start()
	t.Cleanup(am.stop)
	return am
}

// amHook is a webhook for Alertmanager's notifications, each given to
// got.
func amHook(t *testing.T, got func(amNote)) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n amNote
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &n); err == nil {
			got(n)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// writeAMConfig writes an Alertmanager configuration in dir sending
// every group (grouped by groupBy, a YAML list) at once to the webhook
// at hook, notifying resolved alerts if resolved, repeating after an
// hour.
func writeAMConfig(t *testing.T, dir, hook, groupBy string, resolved bool) string {
	cfg := filepath.Join(dir, "alertmanager.yml")
	err := os.WriteFile(cfg, []byte(`route:
  receiver: hook
  group_by: `+groupBy+`
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: `+hook+`/notify
        send_resolved: `+fmt.Sprint(resolved)+`
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// start runs Alertmanager and waits until it is ready.
func (am *realAM) start() {
	am.t.Helper()
	am.cmd = exec.Command(realtest.AlertmanagerPath, am.args...)
	am.cmd.Stdout, am.cmd.Stderr = io.Discard, io.Discard
	if err := am.cmd.Start(); err != nil {
		am.t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(am.url + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if time.Now().After(deadline) {
			am.t.Fatalf("Alertmanager not ready: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop stops Alertmanager, if running.
func (am *realAM) stop() {
	if am.cmd == nil || am.cmd.Process == nil {
		return
	}
	am.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { am.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		am.cmd.Process.Kill()
		<-done
	}
	am.cmd = nil
}

// active lists Alertmanager's active alerts as "alertname/pmie_instance
// startsAt".
func (am *realAM) active() []string {
	am.t.Helper()
	resp, err := http.Get(am.url + "/api/v2/alerts?active=true&silenced=false&inhibited=false")
	if err != nil {
		am.t.Fatal(err)
	}
	defer resp.Body.Close()
	var alerts []struct {
		Labels   map[string]string `json:"labels"`
		StartsAt time.Time         `json:"startsAt"`
		Status   struct{ State string }
	}
	json.NewDecoder(resp.Body).Decode(&alerts)
	var out []string
	for _, a := range alerts {
		if a.Status.State == "active" {
			out = append(out, a.Labels["alertname"]+"/"+a.Labels["pmie_instance"]+" "+a.StartsAt.UTC().Format(time.RFC3339Nano))
		}
	}
	sort.Strings(out)
	return out
}

// setLoad sets the stand-in pmcd's load averages.
func setLoad(srv *pmcdtest.Server, one, five float32) {
	srv.SetValues("kernel.all.load", []pmapi.Value{{Inst: 1, Atom: pmapi.F32(one)}, {Inst: 5, Atom: pmapi.F32(five)},
		{Inst: 15, Atom: pmapi.F32(0.1)}})
}

// Durations of TestRealAlertmanager's phases.
var (
	amFiring = 25 * time.Second // longer than resolve_timeout (10s)
	amDown   = 30 * time.Second
	amAfter  = 15 * time.Second
)

// TestRealAlertmanager runs pmie as a daemon against a real Alertmanager
// (Debian's prometheus-alertmanager): a rule whose action is held off
// for 10 minutes stays one firing alert per binding, with one startsAt,
// for longer than resolve_timeout; Alertmanager stopped for 30 s and
// started again sends no resolved notification for the alerts still
// firing, which keep their startsAt; once the rule is false, they
// resolve.
func TestRealAlertmanager(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for more than a minute")
	}
	t.Parallel() // mostly waits, beside the other tests that mostly wait
	am := startAM(t)
	host := pmcdtest.Start(t, pmcdtest.Sample("amtest"))
	setLoad(host, 2, 3)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "rules.pmie"), []byte("delta = 1 sec;\n"+
		"hot = some_inst (kernel.all.load > 1) -> print 10 min \"hot %i %v\";\n"), 0o644)
	yaml := filepath.Join(dir, "pmie.yaml")
	os.WriteFile(yaml, []byte(`rule_files: [rules.pmie]
mmv: false
labels: {site: test}
receivers:
  - {name: am, type: alertmanager, url: '`+am.url+`', resolve_timeout: 10s, resend_interval: 2s, retries: 0, backoff: 200ms}
default_receiver: am
`), 0o644)
	p := startLive(t, "--yaml-config", yaml, "-h", host.Spec(), "-f")
	var first []string
	p.waitFor("the alerts in Alertmanager", 15*time.Second, func() bool { first = am.active(); return len(first) == 2 })
	t.Logf("firing: %q", first)
	if !strings.HasPrefix(first[0], "hot/1 minute ") || !strings.HasPrefix(first[1], "hot/5 minute ") {
		t.Fatalf("alerts %q", first)
	}

	// the action is held off for 10 minutes: the alerts stay, unchanged
	for end := time.Now().Add(amFiring); time.Now().Before(end); time.Sleep(time.Second) {
		if now := am.active(); strings.Join(now, ",") != strings.Join(first, ",") {
			t.Fatalf("alerts changed while the rule stayed true: %q, then %q", first, now)
		}
	}
	if n := strings.Count(p.out.String(), "hot 1 minute"); n != 1 {
		t.Errorf("the action ran %d times, want once", n)
	}

	// Alertmanager away for 30 s: nothing resolves
	am.stop()
	time.Sleep(amDown)
	am.start()
	p.waitFor("the alerts back in Alertmanager", 15*time.Second, func() bool { return len(am.active()) == 2 })
	time.Sleep(amAfter)
	if now := am.active(); strings.Join(now, ",") != strings.Join(first, ",") {
		t.Errorf("after Alertmanager's restart the alerts are %q, were %q", now, first)
	}
	if n := am.notes.count("resolved"); n != 0 {
		t.Errorf("%d resolved notifications while the rule stayed true: %+v", n, am.notes.all())
	}

	// the rule stops: the alerts resolve
	setLoad(host, 0.5, 0.5)
	took := p.waitFor("the resolved notification", 15*time.Second, func() bool { return am.notes.count("resolved") > 0 })
	t.Logf("resolved %v after the rule became false; %d firing and %d resolved notifications in all",
		took, am.notes.count("firing"), am.notes.count("resolved"))
	if now := am.active(); len(now) != 0 {
		t.Errorf("still active: %q", now)
	}
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d:\n%s", code, p.errs.String())
	}
}
