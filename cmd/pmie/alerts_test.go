package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var builtNotifier struct {
	once sync.Once
	path string
	err  error
}

// useNotifier builds pmie-notify (once) and has pmie use it: it sets
// $PMIE_NOTIFY for the whole test process (the same path for every test,
// so that tests that run in parallel may use it too). TestMain removes
// it at the end.
func useNotifier(t testing.TB) {
	t.Helper()
	builtNotifier.once.Do(func() {
		dir, err := os.MkdirTemp("", "pmie-notify")
		if err != nil {
			builtNotifier.err = err
			return
		}
		builtNotifier.path = filepath.Join(dir, "pmie-notify")
		out, err := exec.Command("go", "build", "-o", builtNotifier.path, "../pmie-notify").CombinedOutput()
		if err != nil {
			builtNotifier.err = fmt.Errorf("building pmie-notify: %v\n%s", err, out)
			return
		}
		builtNotifier.err = os.Setenv("PMIE_NOTIFY", builtNotifier.path)
	})
	if builtNotifier.err != nil {
		t.Fatal(builtNotifier.err)
	}
}

// alertServer keeps what is POSTed to it, by path.
type alertServer struct {
	mu     sync.Mutex
	bodies map[string][]string
}

func newAlertServer(t *testing.T) (*alertServer, *httptest.Server) {
	s := &alertServer{bodies: map[string][]string{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies[r.URL.Path] = append(s.bodies[r.URL.Path], string(body))
		s.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return s, srv
}

func writeAlertConfig(t *testing.T, url string) string {
	path := filepath.Join(t.TempDir(), "alerting.yaml")
	yaml := `
labels: {site: test}
receivers:
  - {name: loads, type: webhook, url: '` + url + `/load'}
  - {name: others, type: webhook, url: '` + url + `/other'}
routes:
  - {condition: 'action == "syslog"', receivers: [loads]}
  - {condition: '"cpu1" in instances', receivers: [others, loads], continue: true}
default_receiver: others
`
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRouteAlerts runs pmie over an archive with --route-alerts and
// --replay-alerts: its output is as without them, and each action
// reported reaches the webhook its route gives.
func TestRouteAlerts(t *testing.T) {
	useNotifier(t)
	s, srv := newAlertServer(t)
	cfg := writeAlertConfig(t, srv.URL)
	base := []string{"-z", "-a", "testdata/archives/pmie/alpha", "-c", "testdata/notify/alerts.pmie"}
	code, plain, plainErrs := runPmie(t, base...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, plainErrs)
	}
	code, out, errs := runPmie(t, append([]string{"--route-alerts", cfg, "--replay-alerts"}, base...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if out != plain || stripStamp(errs) != stripStamp(plainErrs) {
		t.Errorf("output with alerts differs:\n%s%s\nwithout:\n%s%s", out, errs, plain, plainErrs)
	}
	// what pmie reported (each action once), and where the routes send
	// it; and, to the same receivers, the bindings that stopped making
	// the rule true, resolved at the evaluation that found them gone
	// (none at the archive's end: the rules did not stop being true)
	want := map[string][]string{
		"/load": {
			"load firing syslog 22:13:30 load 4.49 1 minute",
			"load resolved syslog 22:13:40 load 4.49 1 minute",
			"busy firing print 22:14:20 busy cpu1 0.4445busy cpu2 0.59busy cpu3 0.65 cpu1,cpu2,cpu3",
			"busy resolved print 22:14:30 busy cpu1 0.4445busy cpu2 0.59busy cpu3 0.65 cpu1",
			"load firing syslog 22:15:00 load 4.47 1 minute",
			"load resolved syslog 22:15:10 load 4.47 1 minute",
			"busy firing print 22:15:20 busy cpu1 0.4344busy cpu2 0.62busy cpu3 0.69 cpu1,cpu2,cpu3",
		},
		"/other": {
			"busy firing print 22:13:30 busy cpu2 0.4168busy cpu3 0.55 cpu2,cpu3",
			"busy firing print 22:13:40 busy cpu3 0.63 cpu3",
			"busy resolved print 22:13:40 busy cpu2 0.4168busy cpu3 0.55 cpu2",
			"busy firing print 22:13:50 busy cpu2 0.426busy cpu3 0.77 cpu2,cpu3",
			"busy firing print 22:14:10 busy cpu2 0.64busy cpu3 0.79 cpu2,cpu3",
			"busy firing print 22:14:20 busy cpu1 0.4445busy cpu2 0.59busy cpu3 0.65 cpu1,cpu2,cpu3",
			"busy firing print 22:14:30 busy cpu2 0.4534busy cpu3 0.56 cpu2,cpu3",
			"busy resolved print 22:14:30 busy cpu1 0.4445busy cpu2 0.59busy cpu3 0.65 cpu1",
			"busy firing print 22:15:20 busy cpu1 0.4344busy cpu2 0.62busy cpu3 0.69 cpu1,cpu2,cpu3",
		},
	}
	for path, bodies := range want {
		var got []string
		for _, b := range s.bodies[path] {
			var a struct {
				Rule, Status, Action, Message string
				Time                          time.Time
				Instances                     []string
			}
			if err := json.Unmarshal([]byte(b), &a); err != nil {
				t.Fatalf("%s: %v: %s", path, err, b)
			}
			got = append(got, a.Rule+" "+a.Status+" "+a.Action+" "+a.Time.Format("15:04:05")+" "+a.Message+" "+strings.Join(a.Instances, ","))
		}
		if strings.Join(got, "\n") != strings.Join(bodies, "\n") {
			t.Errorf("%s got:\n%s\nwant:\n%s", path, strings.Join(got, "\n"), strings.Join(bodies, "\n"))
		}
	}
	if len(s.bodies) != 2 {
		t.Errorf("requests to %d paths", len(s.bodies))
	}
	// three in full: a resolution has the binding that stopped, with its
	// last value, and startsAt when it began firing
	exact := map[string]string{
		"/load": `{"rule":"load","status":"firing","action":"syslog","time":"2023-11-14T22:13:30Z","startsAt":"2023-11-14T22:13:30Z",` +
			`"message":"load 4.49","hosts":["alpha"],` +
			`"instances":["1 minute"],"bindings":[{"host":"alpha","instance":"1 minute","value":"4.49"}],"labels":{"site":"test"}}`,
		"/other": `{"rule":"busy","status":"firing","action":"print","time":"2023-11-14T22:13:30Z","startsAt":"2023-11-14T22:13:30Z",` +
			`"message":"busy cpu2 0.4168busy cpu3 0.55",` +
			`"hosts":["alpha"],"instances":["cpu2","cpu3"],"bindings":[{"host":"alpha","instance":"cpu2","value":"0.4168"},` +
			`{"host":"alpha","instance":"cpu3","value":"0.55"}],"labels":{"site":"test"}}`,
	}
	resolved := `{"rule":"busy","status":"resolved","action":"print","time":"2023-11-14T22:13:40Z","startsAt":"2023-11-14T22:13:30Z",` +
		`"endsAt":"2023-11-14T22:13:40Z","message":"busy cpu2 0.4168busy cpu3 0.55","hosts":["alpha"],"instances":["cpu2"],` +
		`"bindings":[{"host":"alpha","instance":"cpu2","value":"0.4168"}],"labels":{"site":"test"}}`
	if len(s.bodies["/other"]) < 3 || s.bodies["/other"][2] != resolved {
		t.Errorf("third alert to /other:\n%v\nwant:\n%s", s.bodies["/other"], resolved)
	}
	for path, body := range exact {
		if len(s.bodies[path]) == 0 || s.bodies[path][0] != body {
			t.Errorf("first alert to %s:\n%v\nwant:\n%s", path, s.bodies[path], body)
		}
	}
}

// TestArchiveAlertsNeedReplay checks that in archive mode --route-alerts
// alone checks the file and sends nothing: pmie only reports actions.
func TestArchiveAlertsNeedReplay(t *testing.T) {
	useNotifier(t)
	s, srv := newAlertServer(t)
	cfg := writeAlertConfig(t, srv.URL)
	code, out, errs := runPmie(t, "--route-alerts", cfg, "-z", "-a", "testdata/archives/pmie/alpha", "-c", "testdata/notify/alerts.pmie")
	if code != 0 || !strings.Contains(out, "syslog Tue Nov 14 22:13:30 2023: load 4.49") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	if len(s.bodies) != 0 {
		t.Errorf("alerts sent: %v", s.bodies)
	}
}

func TestAlertOptionErrors(t *testing.T) {
	useNotifier(t)
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("receivers:\n  - {name: x, type: webhook}\n"), 0o644)
	code, out, errs := runPmie(t, "--route-alerts", bad, "-C", "-c", "testdata/notify/alerts.pmie")
	if want := "pmie: " + bad + ":2:5: receivers[0].url: required\n"; code != 1 || out != "" || errs != want {
		t.Errorf("bad config: exit %d, %q%q, want %q", code, out, errs, want)
	}
	code, _, errs = runPmie(t, "--replay-alerts", "-C", "-c", "testdata/notify/alerts.pmie")
	if code != 1 || !strings.HasPrefix(errs, "pmie: --replay-alerts needs --yaml-config\n") {
		t.Errorf("--replay-alerts alone: exit %d, %q", code, errs)
	}
	// pmie's abbreviations keep their meaning: --al is --align, which
	// live pmie refuses as it refuses -A
	code, _, errs = runPmie(t, "--al", "1min", "-C", "-c", "testdata/notify/alerts.pmie")
	if want := "pmie: time window options are supported for archives only\n"; code != 1 || !strings.HasPrefix(errs, want) {
		t.Errorf("--al: exit %d: %s", code, errs)
	}
}

// stripStamp leaves out the time pmie's Info messages are stamped with.
func stripStamp(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(l, "[") {
			if i := strings.Index(l, "]"); i > 0 {
				l = l[i+1:]
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// TestLiveAlerts checks that live, each action runs as pmie's and is also
// sent as an alert.
func TestLiveAlerts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for a second")
	}
	useNotifier(t)
	s, srv := newAlertServer(t)
	cfg := writeAlertConfig(t, srv.URL)
	rules := filepath.Join(t.TempDir(), "live.pmie")
	os.WriteFile(rules, []byte("delta = 1 sec;\nncpu = hinv.ncpu > 0 -> print \"cpus %v\";\n"), 0o644)
	code, out, errs := runPmie(t, "--route-alerts", cfg, "-L", "-T", "1.5sec", "-c", rules)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var printed []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		_, msg, ok := strings.Cut(l, ": ")
		if !ok || !strings.HasPrefix(msg, "cpus ") {
			t.Fatalf("output line %q", l)
		}
		printed = append(printed, "ncpu print "+msg)
	}
	var sent []string
	for _, b := range s.bodies["/other"] {
		var a struct{ Rule, Action, Message string }
		json.Unmarshal([]byte(b), &a)
		sent = append(sent, a.Rule+" "+a.Action+" "+a.Message)
	}
	if len(printed) == 0 || strings.Join(sent, "\n") != strings.Join(printed, "\n") {
		t.Errorf("alerts sent:\n%s\nactions printed:\n%s", strings.Join(sent, "\n"), strings.Join(printed, "\n"))
	}
}

// TestAlertingStaysOutside checks that pmie does not link what alerting
// and the HTTP endpoint need (routing conditions, schedules, the
// configuration reader, HTTP client and server, prometheus/client_golang
// for /metrics): they live in pmie-notify (see rules/doc.go), which does
// link client_golang, for /metrics.
func TestAlertingStaysOutside(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch {
		case dep == "net/http", dep == "crypto/tls", dep == "html/template",
			dep == "github.com/gopcp/pmie/notify", strings.HasPrefix(dep, "github.com/gopcp/pmie/daemon/web"),
			strings.HasPrefix(dep, "github.com/expr-lang/"), strings.HasPrefix(dep, "github.com/spf13/"),
			strings.HasPrefix(dep, "github.com/robfig/"), strings.HasPrefix(dep, "github.com/prometheus/"):
			t.Errorf("pmie depends on %s", dep)
		}
	}
	out, err = exec.Command("go", "list", "-deps", "../pmie-notify").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(strings.Fields(string(out)), "github.com/prometheus/client_golang/prometheus/promhttp") {
		t.Error("pmie-notify does not serve /metrics with prometheus/client_golang")
	}
}
