package notify

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/pmie/actions"
)

// sample is an event as the evaluator gives one: two CPUs of host alpha.
func sample() *actions.Event {
	return &actions.Event{Kind: actions.Syslog, Rule: "cpu_hot", Time: 1700000000.25, Text: []byte("cpu hot"),
		Bindings: func() []actions.Binding {
			return []actions.Binding{
				{Host: "alpha", Conn: "alpha", Inst: "cpu0", Value: "0.95"},
				{Host: "alpha", Conn: "alpha", Inst: "cpu1", Value: "0.97"},
			}
		}}
}

const sampleJSON = `{"rule":"cpu_hot","status":"firing","action":"syslog","time":"2023-11-14T22:13:20.25Z",` +
	`"startsAt":"2023-11-14T22:13:20.25Z","message":"cpu hot",` +
	`"hosts":["alpha"],"instances":["cpu0","cpu1"],"bindings":[{"host":"alpha","instance":"cpu0","value":"0.95"},` +
	`{"host":"alpha","instance":"cpu1","value":"0.97"}],"labels":{"team":"ops"}}`

// recorder is an HTTP server keeping the bodies POSTed to it; fail
// answers the first requests with that status.
type recorder struct {
	mu     sync.Mutex
	bodies []string
	paths  []string
	hdr    []http.Header
	fail   []int
	got    chan struct{}
}

func newRecorder(t *testing.T, fail ...int) (*recorder, *httptest.Server) {
	r := &recorder{fail: fail, got: make(chan struct{}, 100)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.bodies = append(r.bodies, string(body))
		r.paths = append(r.paths, req.Method+" "+req.URL.Path)
		r.hdr = append(r.hdr, req.Header.Clone())
		status := http.StatusOK
		if len(r.fail) > 0 {
			status, r.fail = r.fail[0], r.fail[1:]
		}
		r.mu.Unlock()
		w.WriteHeader(status)
		io.WriteString(w, http.StatusText(status))
		r.got <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	return r, srv
}

func mustParse(t *testing.T, yaml string) *Config {
	t.Helper()
	cfg, err := Parse("t.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// closeAndLog closes n, returning what it logged.
func runAndClose(t *testing.T, cfg *Config, send func(n *Notifier)) []string {
	t.Helper()
	var mu sync.Mutex
	var logs []string
	n := New(cfg, Options{Log: func(m string) { mu.Lock(); logs = append(logs, m); mu.Unlock() }})
	send(n)
	n.Close(context.Background())
	return logs
}

func TestWebhook(t *testing.T) {
	rec, srv := newRecorder(t, 503, 500)
	cfg := mustParse(t, `
labels: {team: ops}
receivers:
  - {name: hook, type: webhook, url: '`+srv.URL+`/in', backoff: 1ms, headers: {X-Token: secret}}
default_receiver: hook
`)
	logs := runAndClose(t, cfg, func(n *Notifier) { n.Notify(sample()) })
	if len(logs) != 0 {
		t.Errorf("logged %q", logs)
	}
	if len(rec.bodies) != 3 {
		t.Fatalf("%d requests, want 3 (two failures retried)", len(rec.bodies))
	}
	for i, b := range rec.bodies {
		if b != sampleJSON {
			t.Errorf("body %d:\n%s\nwant\n%s", i, b, sampleJSON)
		}
		if rec.paths[i] != "POST /in" || rec.hdr[i].Get("Content-Type") != "application/json" || rec.hdr[i].Get("X-Token") != "secret" {
			t.Errorf("request %d: %s %v", i, rec.paths[i], rec.hdr[i])
		}
	}
}

func TestWebhookGivesUp(t *testing.T) {
	rec, srv := newRecorder(t, 400, 500, 500, 500)
	cfg := mustParse(t, `
receivers:
  - {name: hook, type: webhook, url: '`+srv.URL+`', backoff: 1ms, retries: 2}
default_receiver: hook
`)
	var logs []string
	n := New(cfg, Options{Log: func(m string) { logs = append(logs, m) }})
	n.Notify(sample()) // 400: not retried
	<-rec.got
	n.Notify(sample()) // 500 three times: given up
	err := n.Close(context.Background())
	// the second failure, within a minute of the first, is not logged
	// (it would be counted in the next message)
	want := []string{
		"alerting: receiver hook: rule cpu_hot: POST " + srv.URL + ": 400 Bad Request: Bad Request",
	}
	if strings.Join(logs, "\n") != strings.Join(want, "\n") {
		t.Errorf("logged:\n%s\nwant:\n%s", strings.Join(logs, "\n"), strings.Join(want, "\n"))
	}
	if err == nil || err.Error() != "alerting: 2 alerts were dropped or could not be sent" {
		t.Errorf("Close: %v", err)
	}
	if s := n.Stats()["hook"]; s.Failed != 2 || s.Sent != 0 {
		t.Errorf("stats %+v", s)
	}
}

func TestExec(t *testing.T) {
	// the program inherits pmie's environment: leave out PMIE_ variables
	// the tests themselves run with (such as PMIE_REQUIRE_PMCD in CI)
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "PMIE_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "hook.sh")
	os.WriteFile(script, []byte("#!/bin/sh\ncat > \"$1/stdin\"\nenv | grep '^PMIE_' | sort > \"$1/env\"\n"), 0o755)
	cfg := mustParse(t, `
labels: {team: ops}
receivers:
  - {name: run, type: exec, command: ['`+script+`', '`+dir+`']}
default_receiver: run
`)
	if logs := runAndClose(t, cfg, func(n *Notifier) { n.Notify(sample()) }); len(logs) != 0 {
		t.Errorf("logged %q", logs)
	}
	stdin, _ := os.ReadFile(filepath.Join(dir, "stdin"))
	if string(stdin) != sampleJSON+"\n" {
		t.Errorf("stdin:\n%s\nwant\n%s", stdin, sampleJSON)
	}
	env, _ := os.ReadFile(filepath.Join(dir, "env"))
	// multi-line values show as further lines of env's output
	wantEnv := "PMIE_ACTION=syslog\nPMIE_ENDS_AT=\nPMIE_HOSTS=alpha\nPMIE_INSTANCES=cpu0\nPMIE_MESSAGE=cpu hot\nPMIE_RECEIVER=run\n" +
		"PMIE_RULE=cpu_hot\nPMIE_STARTS_AT=2023-11-14T22:13:20.25Z\nPMIE_STATUS=firing\nPMIE_TIME=2023-11-14T22:13:20.25Z\n" +
		"PMIE_TIMESTAMP=1700000000\nPMIE_VALUES=0.95\n"
	if got := keepPmie(string(env)); got != wantEnv {
		t.Errorf("environment:\n%s\nwant\n%s", got, wantEnv)
	}
}

// keepPmie keeps the lines of env output that start a PMIE_ variable.
func keepPmie(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(l, "PMIE_") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// TestExecStderr checks that what a program that succeeds writes on its
// standard error is reported as information, each line of it, and not
// as a failure; a program that fails has it in its failure.
func TestExecStderr(t *testing.T) {
	cfg := mustParse(t, `
receivers:
  - {name: chatty, type: exec, command: [/bin/sh, -c, 'printf "paged\nticket 42\n" >&2']}
default_receiver: chatty
`)
	var mu sync.Mutex
	var errs, infos []string
	n := New(cfg, Options{Log: func(m string) { mu.Lock(); errs = append(errs, m); mu.Unlock() },
		Info: func(m string) { mu.Lock(); infos = append(infos, m); mu.Unlock() }})
	n.Notify(sample())
	n.Close(context.Background())
	want := "alerting: receiver chatty: rule cpu_hot: /bin/sh said: paged\n" +
		"alerting: receiver chatty: rule cpu_hot: /bin/sh said: ticket 42"
	if len(errs) != 0 || strings.Join(infos, "\n") != want {
		t.Errorf("errors %q, information %q; want no errors, information:\n%s", errs, infos, want)
	}
}

func TestExecFailure(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone")
	os.WriteFile(gone, []byte("#!/bin/sh\n"), 0o755)
	cfg := mustParse(t, `
receivers:
  - {name: run, type: exec, command: [/bin/sh, -c, 'echo bad news >&2; exit 3']}
  - {name: slow, type: exec, command: [/bin/sleep, '10'], timeout: 10ms}
  - {name: missing, type: exec, command: ['`+gone+`']}
routes:
  - {receivers: [run, slow, missing]}
`)
	os.Remove(gone) // there when checked, gone when run
	logs := runAndClose(t, cfg, func(n *Notifier) { n.Notify(sample()) })
	want := map[string]bool{
		"alerting: receiver run: rule cpu_hot: /bin/sh: exit status 3: bad news":                      true,
		"alerting: receiver slow: rule cpu_hot: /bin/sleep killed after 10ms":                         true,
		"alerting: receiver missing: rule cpu_hot: fork/exec " + gone + ": no such file or directory": true,
	}
	if len(logs) != len(want) {
		t.Fatalf("logged %q", logs)
	}
	for _, l := range logs {
		if !want[l] {
			t.Errorf("unexpected log %q", l)
		}
	}
}

// TestExecKillsGroup checks that a program killed at its timeout is
// killed with the children it started: a script's background sleep does
// not outlive it.
func TestExecKillsGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child")
	cfg := mustParse(t, `
receivers:
  - {name: slow, type: exec, command: [/bin/sh, -c, 'sleep 30 & echo $! > `+pidFile+`; wait'], timeout: 300ms}
default_receiver: slow
`)
	logs := runAndClose(t, cfg, func(n *Notifier) { n.Notify(sample()) })
	if len(logs) != 1 || !strings.HasSuffix(logs[0], "/bin/sh killed after 300ms") {
		t.Errorf("logged %q", logs)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(b))
	deadline := time.Now().Add(2 * time.Second)
	for {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return // gone, or a zombie waiting for init
		}
		if time.Now().After(deadline) {
			t.Fatalf("the script's child %s is still running: %s", pid, stat)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
