package web

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/gopcp/pmie/daemon/wire"
)

// fakeSource answers with a fixed snapshot and reloads as told.
type fakeSource struct {
	snap      *wire.Snapshot
	reloadErr error
	reloads   []string
}

func (f *fakeSource) Snapshot(context.Context) (*wire.Snapshot, error) { return f.snap, nil }

func (f *fakeSource) Reload(_ context.Context, reason string) error {
	f.reloads = append(f.reloads, reason)
	return f.reloadErr
}

var t0 = time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC)

func snapshot() *wire.Snapshot {
	return &wire.Snapshot{Start: t0, Ready: true,
		Totals: wire.Totals{NumRules: 2, Counts: wire.Counts{Evaluations: 20, True: 7, False: 3, Actions: 2}},
		Rules: []wire.RuleView{
			{Key: "cpu_hot\x00cpu_hot = some_inst (kernel.percpu.cpu.user > 0.9) -> print \"hot\"\x0010", Name: "cpu_hot",
				File: "/etc/pmie/a.pmie", Delta: 10, Alerting: true, Evaluated: t0.Add(time.Minute), Truth: wire.True,
				Since: t0.Add(30 * time.Second), Value: "true",
				Counts:   wire.Counts{Evaluations: 10, True: 7, False: 3, Actions: 2, EvalSeconds: 0.004, LastEvalSeconds: 0.0003},
				Bindings: []wire.BindingView{{Host: "alpha", Inst: "cpu0", Value: "0.95", Since: t0.Add(40 * time.Second)}}},
			{Key: "load\x00kernel.all.load\x0010", Name: "load", File: "/etc/pmie/a.pmie", Delta: 10,
				Evaluated: t0.Add(time.Minute), Value: "1.5", Counts: wire.Counts{Evaluations: 10, EvalSeconds: 0.001, LastEvalSeconds: 0.0001}},
			{Key: "odd\x00x\x0010", Name: "<script>odd\"name\n\xff", File: "/etc/pmie/b.pmie", Delta: 10, Alerting: true},
		},
		Hosts:     []wire.HostCounts{{Conn: "local:", Fetches: 20, Errors: 1, Seconds: 0.5, LastSec: 0.01}},
		Reloads:   wire.Reloads{OK: 3, Failed: 1, Last: t0.Add(time.Minute), LastError: "bad"},
		Receivers: map[string]wire.ReceiverStats{"am": {Sent: 5, Failed: 1, Waiting: 2}},
	}
}

func start(t *testing.T, src Source) string {
	t.Helper()
	s, err := Listen("127.0.0.1:0", src)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return "http://" + s.Addr()
}

func get(t *testing.T, url string) (int, string, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// TestMetrics reads /metrics back with Prometheus's own parser.
func TestMetrics(t *testing.T) {
	base := start(t, &fakeSource{snap: snapshot()})
	code, ctype, body := get(t, base+"/metrics")
	if code != 200 || !strings.HasPrefix(ctype, "text/plain; version=0.0.4") {
		t.Fatalf("%d %s", code, ctype)
	}
	p := expfmt.NewTextParser(model.LegacyValidation) // the classic names: the strictest check
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	value := func(name string, labels ...string) float64 {
		t.Helper()
		f := fams[name]
		if f == nil {
			t.Fatalf("no %s in\n%s", name, body)
		}
	next:
		for _, m := range f.Metric {
			for i := 0; i+1 < len(labels); i += 2 {
				found := false
				for _, l := range m.Label {
					found = found || (l.GetName() == labels[i] && l.GetValue() == labels[i+1])
				}
				if !found {
					continue next
				}
			}
			if m.Counter != nil {
				return m.Counter.GetValue()
			}
			return m.Gauge.GetValue()
		}
		t.Fatalf("no %s%v in\n%s", name, labels, body)
		return 0
	}
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"pmie_rule_evaluations_total", []string{"rule", "cpu_hot"}, 10},
		{"pmie_rule_outcomes_total", []string{"rule", "cpu_hot", "outcome", "false"}, 3},
		{"pmie_rule_actions_total", []string{"rule", "cpu_hot"}, 2},
		{"pmie_rule_evaluation_seconds_total", []string{"rule", "cpu_hot"}, 0.004},
		{"pmie_rule_last_evaluation_seconds", []string{"rule", "load"}, 0.0001},
		{"pmie_rule_evaluations_total", []string{"rule", "<script>odd\"name\n\uFFFD"}, 0},
		{"pmie_evaluations_total", nil, 20},
		{"pmie_outcomes_total", []string{"outcome", "true"}, 7},
		{"pmie_rules", nil, 2},
		{"pmie_host_fetches_total", []string{"host", "local:"}, 20},
		{"pmie_host_fetch_errors_total", []string{"host", "local:"}, 1},
		{"pmie_host_fetch_seconds_total", []string{"host", "local:"}, 0.5},
		{"pmie_alerts_sent_total", []string{"receiver", "am"}, 5},
		{"pmie_alerts_failed_total", []string{"receiver", "am"}, 1},
		{"pmie_alerts_queue_length", []string{"receiver", "am"}, 2},
		{"pmie_reloads_total", []string{"result", "success"}, 3},
		{"pmie_reloads_total", []string{"result", "failure"}, 1},
		{"pmie_config_last_reload_successful", nil, 0},
		{"pmie_build_info", nil, 1},
	} {
		if got := value(c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if fams["pmie_reloads_total"].GetType().String() != "COUNTER" || fams["pmie_alerts_queue_length"].GetType().String() != "GAUGE" {
		t.Errorf("types: %v %v", fams["pmie_reloads_total"].GetType(), fams["pmie_alerts_queue_length"].GetType())
	}
}

// TestMetricsNegotiated checks that /metrics answers a scraper that asks
// for Prometheus's protobuf format, compressed, in that format: the same
// values as the text format.
func TestMetricsNegotiated(t *testing.T) {
	base := start(t, &fakeSource{snap: snapshot()})
	req, _ := http.NewRequest("GET", base+"/metrics", nil)
	req.Header.Set("Accept", string(expfmt.NewFormat(expfmt.TypeProtoDelim)))
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("%d, Content-Encoding %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	format := expfmt.ResponseFormat(resp.Header)
	if format.FormatType() != expfmt.TypeProtoDelim {
		t.Fatalf("format %q, want protobuf", format)
	}
	dec := expfmt.NewDecoder(zr, format)
	got := map[string]float64{}
	for {
		var mf dto.MetricFamily
		if err := dec.Decode(&mf); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		for _, m := range mf.Metric {
			if len(m.Label) == 0 {
				got[mf.GetName()] = m.GetCounter().GetValue() + m.GetGauge().GetValue()
			}
		}
	}
	if got["pmie_evaluations_total"] != 20 || got["pmie_rules"] != 2 {
		t.Errorf("pmie_evaluations_total %v, pmie_rules %v; want 20, 2", got["pmie_evaluations_total"], got["pmie_rules"])
	}
}

// TestHealthAndReload checks /-/healthy, /-/ready and /-/reload.
func TestHealthAndReload(t *testing.T) {
	src := &fakeSource{snap: snapshot()}
	base := start(t, src)
	if code, _, body := get(t, base+"/-/healthy"); code != 200 || body != "pmie is Healthy.\n" {
		t.Errorf("healthy: %d %q", code, body)
	}
	if code, _, body := get(t, base+"/-/ready"); code != 200 || body != "pmie is Ready.\n" {
		t.Errorf("ready: %d %q", code, body)
	}
	src.snap.Ready = false
	if code, _, _ := get(t, base+"/-/ready"); code != 503 {
		t.Errorf("not ready: %d", code)
	}
	if code, _, _ := get(t, base+"/-/reload"); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /-/reload: %d", code)
	}
	resp, err := http.Post(base+"/-/reload", "", nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST /-/reload: %v %v", resp, err)
	}
	resp.Body.Close()
	src.reloadErr = errors.New("a.pmie:3:7: error: syntax error")
	resp, _ = http.Post(base+"/-/reload", "", nil)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 500 || string(b) != "failed to reload config: a.pmie:3:7: error: syntax error\n" {
		t.Errorf("failed reload: %d %q", resp.StatusCode, b)
	}
	if len(src.reloads) != 2 || !strings.HasPrefix(src.reloads[0], "HTTP request from 127.0.0.1:") {
		t.Errorf("reloads %q", src.reloads)
	}
}

// TestAPI checks /api/v1/rules and /api/v1/alerts against Prometheus's
// shapes.
func TestAPI(t *testing.T) {
	base := start(t, &fakeSource{snap: snapshot()})
	_, ctype, body := get(t, base+"/api/v1/rules")
	var rules struct {
		Status string
		Data   struct {
			Groups []struct {
				Name, File     string
				Interval       float64
				EvaluationTime float64
				Rules          []struct {
					Name, Query, Health, Type, State string
					LastEvaluation                   time.Time
					EvaluationTime                   float64
					Alerts                           []struct {
						Labels      map[string]string
						Annotations map[string]string
						State       string
						ActiveAt    time.Time
						Value       string
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &rules); err != nil || ctype != "application/json" {
		t.Fatalf("%v %s: %s", err, ctype, body)
	}
	g := rules.Data.Groups
	if rules.Status != "success" || len(g) != 2 || g[0].File != "/etc/pmie/a.pmie" || g[0].Interval != 10 || len(g[0].Rules) != 2 {
		t.Fatalf("groups: %s", body)
	}
	r := g[0].Rules[0]
	if r.Name != "cpu_hot" || r.Type != "alerting" || r.State != "firing" || r.Health != "ok" ||
		r.Query != `cpu_hot = some_inst (kernel.percpu.cpu.user > 0.9) -> print "hot"` || len(r.Alerts) != 1 {
		t.Errorf("rule %+v", r)
	}
	a := r.Alerts[0]
	if a.Labels["alertname"] != "cpu_hot" || a.Labels["instance"] != "alpha" || a.Labels["pmie_instance"] != "cpu0" ||
		a.State != "firing" || !a.ActiveAt.Equal(t0.Add(40*time.Second)) || a.Value != "0.95" {
		t.Errorf("alert %+v", a)
	}
	if r, r1 := g[0].Rules[0], g[0].Rules[1]; r.EvaluationTime != 0.0003 || r1.EvaluationTime != 0.0001 || math.Abs(g[0].EvaluationTime-0.0004) > 1e-12 {
		t.Errorf("evaluation times: rules %v and %v, group %v", r.EvaluationTime, r1.EvaluationTime, g[0].EvaluationTime)
	}
	if r := g[0].Rules[1]; r.Type != "recording" || r.State != "" {
		t.Errorf("expression %+v", r)
	}
	if r := g[1].Rules[0]; r.Health != "unknown" || r.State != "inactive" {
		t.Errorf("rule not evaluated %+v", r)
	}
	_, _, body = get(t, base+"/api/v1/alerts")
	var alerts struct {
		Status string
		Data   struct{ Alerts []map[string]any }
	}
	if err := json.Unmarshal([]byte(body), &alerts); err != nil || alerts.Status != "success" || len(alerts.Data.Alerts) != 1 {
		t.Errorf("%v: %s", err, body)
	}
}

// TestStatusPage checks that the page shows the rules, their values and
// the alerts, with names escaped.
func TestStatusPage(t *testing.T) {
	base := start(t, &fakeSource{snap: snapshot()})
	code, ctype, body := get(t, base+"/")
	if code != 200 || ctype != "text/html; charset=utf-8" {
		t.Fatalf("%d %s", code, ctype)
	}
	for _, want := range []string{"<td>cpu_hot</td><td>firing</td>", "<code>1.5</code>", `pmie_instance=&#34;cpu0&#34;`,
		"&lt;script&gt;odd", "<td>am</td><td>5</td>", "3 succeeded, 1 failed"} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in\n%s", want, body)
		}
	}
	if strings.Contains(body, "<script>") {
		t.Error("a name is not escaped")
	}
	if code, _, _ := get(t, base+"/nothing"); code != 404 {
		t.Errorf("/nothing: %d", code)
	}
}
