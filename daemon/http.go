package daemon

import (
	"encoding/json"
	"html/template"
	"net/http"
	"time"

	"github.com/gopcp/pmie/eval"
)

// The HTTP endpoint (only with --web.listen-address or the file's
// http.listen_address):
//
//	GET  /metrics        pmie's metrics, Prometheus text format
//	GET  /-/healthy      200 while pmie runs
//	GET  /-/ready        200 once rules have been evaluated, 503 before
//	POST /-/reload       reload (as SIGUSR1): 200, or 500 with the errors
//	GET  /api/v1/rules   the rules, as Prometheus's /api/v1/rules
//	GET  /api/v1/alerts  alerts firing, as Prometheus's /api/v1/alerts
//	GET  /               a status page: rules, their values, alerts

func (d *Daemon) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", d.serveMetrics)
	mux.HandleFunc("GET /-/healthy", func(w http.ResponseWriter, r *http.Request) {
		plain(w, http.StatusOK, "pmie is Healthy.\n")
	})
	mux.HandleFunc("GET /-/ready", func(w http.ResponseWriter, r *http.Request) {
		if d.ready.Load() {
			plain(w, http.StatusOK, "pmie is Ready.\n")
			return
		}
		plain(w, http.StatusServiceUnavailable, "pmie is not ready.\n")
	})
	mux.HandleFunc("POST /-/reload", d.serveReload)
	mux.HandleFunc("PUT /-/reload", d.serveReload)
	mux.HandleFunc("GET /api/v1/rules", d.serveRules)
	mux.HandleFunc("GET /api/v1/alerts", d.serveAlerts)
	mux.HandleFunc("GET /{$}", d.serveStatus)
	return mux
}

func plain(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	w.Write([]byte(text))
}

func (d *Daemon) serveMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	writeText(w, d.gather())
}

func (d *Daemon) serveReload(w http.ResponseWriter, r *http.Request) {
	rl := d.reloader.Load()
	if rl == nil {
		plain(w, http.StatusServiceUnavailable, "pmie is not running rules it can reload\n")
		return
	}
	if err := rl.Reload("HTTP request from " + r.RemoteAddr); err != nil {
		plain(w, http.StatusInternalServerError, "failed to reload config: "+err.Error()+"\n")
		return
	}
	plain(w, http.StatusOK, "")
}

// apiResponse is the envelope of Prometheus's API answers.
type apiResponse struct {
	Status string `json:"status"`
	Data   any    `json:"data"`
}

func writeJSON(w http.ResponseWriter, data any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(apiResponse{Status: "success", Data: data})
}

// apiAlert is an alert in Prometheus's API.
type apiAlert struct {
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
	State       string            `json:"state"`
	ActiveAt    *time.Time        `json:"activeAt,omitempty"`
	Value       string            `json:"value"`
}

// apiRule is a rule in Prometheus's API: a pmie rule with actions is an
// alerting rule, an expression a recording rule.
type apiRule struct {
	Name           string            `json:"name"`
	Query          string            `json:"query"`
	Duration       float64           `json:"duration"`
	Labels         map[string]string `json:"labels"`
	Annotations    map[string]string `json:"annotations"`
	Alerts         []apiAlert        `json:"alerts,omitempty"`
	Health         string            `json:"health"`
	LastError      string            `json:"lastError,omitempty"`
	Type           string            `json:"type"`
	State          string            `json:"state,omitempty"`
	LastEvaluation time.Time         `json:"lastEvaluation"`
	EvaluationTime float64           `json:"evaluationTime"`
	// Value is the rule's value at its last evaluation, as pmie -v
	// prints it (pmie's own addition).
	Value string `json:"value"`
}

// apiGroup is a group of rules: those of one file.
type apiGroup struct {
	Name           string    `json:"name"`
	File           string    `json:"file"`
	Rules          []apiRule `json:"rules"`
	Interval       float64   `json:"interval"`
	LastEvaluation time.Time `json:"lastEvaluation"`
	EvaluationTime float64   `json:"evaluationTime"`
}

// rulesNow is the rules' states in the engine's order.
func (d *Daemon) rulesNow() []ruleView {
	rs := d.stats.Rules()
	keys := make([]string, len(rs))
	for i, r := range rs {
		keys[i] = r.Key
	}
	out, _ := d.view.snapshot(keys)
	return out
}

func (d *Daemon) serveRules(w http.ResponseWriter, r *http.Request) {
	rs := d.stats.Rules()
	keys := make([]string, len(rs))
	for i, r := range rs {
		keys[i] = r.Key
	}
	views, files := d.view.snapshot(keys)
	groups := []apiGroup{}
	for i, v := range views {
		if n := len(groups); n == 0 || groups[n-1].File != files[i] {
			name := files[i]
			if name == "" {
				name = "pmie"
			}
			groups = append(groups, apiGroup{Name: name, File: files[i], Interval: v.Delta, Rules: []apiRule{}})
		}
		g := &groups[len(groups)-1]
		ar := apiRule{Name: v.Name, Query: v.text(), Labels: map[string]string{}, Annotations: map[string]string{},
			Health: "ok", Type: "recording", LastEvaluation: v.Evaluated, Value: v.Value}
		if v.Evaluated.IsZero() {
			ar.Health = "unknown"
		}
		if v.Alerting {
			ar.Type, ar.State, ar.Alerts = "alerting", "inactive", alertsOf(&v)
			if v.Truth == eval.True {
				ar.State = "firing"
			}
		}
		if v.Evaluated.After(g.LastEvaluation) {
			g.LastEvaluation = v.Evaluated
		}
		g.Rules = append(g.Rules, ar)
	}
	writeJSON(w, map[string]any{"groups": groups})
}

// alertsOf gives a rule's alerts firing.
func alertsOf(v *ruleView) []apiAlert {
	if v.Truth != eval.True {
		return nil
	}
	var out []apiAlert
	for _, b := range v.Bindings {
		since := b.Since
		ann := map[string]string{}
		if b.Value != "" {
			ann["value"] = b.Value
		}
		out = append(out, apiAlert{Labels: v.labels(b), Annotations: ann, State: "firing", ActiveAt: &since, Value: b.Value})
	}
	return out
}

func (d *Daemon) serveAlerts(w http.ResponseWriter, r *http.Request) {
	alerts := []apiAlert{}
	for _, v := range d.rulesNow() {
		alerts = append(alerts, alertsOf(&v)...)
	}
	writeJSON(w, map[string]any{"alerts": alerts})
}

// statusPage is the HTML status page.
var statusPage = template.Must(template.New("status").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>pmie</title>
<style>body{font-family:sans-serif;margin:1em 2em}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}
.firing{background:#fdd}.inactive{background:#dfd}.unknown{background:#eee}code{white-space:pre-wrap}</style></head>
<body><h1>pmie</h1>
<p>Started {{.Start}}; {{.Rules}} rules; {{.Evaluations}} evaluations, {{.Actions}} actions run;
reloads: {{.ReloadsOK}} succeeded, {{.ReloadsFailed}} failed.
<a href="/metrics">metrics</a> · <a href="/api/v1/rules">rules (JSON)</a> · <a href="/api/v1/alerts">alerts (JSON)</a></p>
<h2>Firing alerts</h2>
{{if .Alerts}}<table><tr><th>rule</th><th>labels</th><th>value</th><th>since</th></tr>
{{range .Alerts}}<tr class="firing"><td>{{.Labels.alertname}}</td><td>{{.LabelText}}</td><td>{{.Value}}</td><td>{{.Since}}</td></tr>
{{end}}</table>{{else}}<p>None.</p>{{end}}
<h2>Rules</h2>
<table><tr><th>rule</th><th>state</th><th>last value</th><th>evaluated</th><th>evaluations</th><th>true / false / unknown</th><th>actions</th><th>text</th></tr>
{{range .RuleRows}}<tr class="{{.State}}"><td>{{.Name}}</td><td>{{.State}}</td><td><code>{{.Value}}</code></td><td>{{.Evaluated}}</td>
<td>{{.Evaluations}}</td><td>{{.True}} / {{.False}} / {{.Unknown}}</td><td>{{.Actions}}</td><td><code>{{.Text}}</code></td></tr>
{{end}}</table>
{{if .Receivers}}<h2>Receivers</h2>
<table><tr><th>receiver</th><th>sent</th><th>failed</th><th>dropped</th><th>waiting</th></tr>
{{range .Receivers}}<tr><td>{{.Name}}</td><td>{{.Sent}}</td><td>{{.Failed}}</td><td>{{.Dropped}}</td><td>{{.Waiting}}</td></tr>
{{end}}</table>{{end}}
</body></html>
`))

type statusAlert struct {
	Labels           map[string]string
	LabelText, Value string
	Since            string
}

type statusRule struct {
	Name, State, Value, Evaluated, Text        string
	Evaluations, True, False, Unknown, Actions uint64
}

type statusReceiver struct {
	Name                           string
	Sent, Failed, Dropped, Waiting int
}

func (d *Daemon) serveStatus(w http.ResponseWriter, r *http.Request) {
	const stamp = "2006-01-02 15:04:05 MST"
	t := d.stats.Totals()
	page := struct {
		Start                    string
		Rules                    int
		Evaluations, Actions     uint64
		ReloadsOK, ReloadsFailed int64
		Alerts                   []statusAlert
		RuleRows                 []statusRule
		Receivers                []statusReceiver
	}{Start: d.start.Format(stamp), Rules: t.NumRules, Evaluations: t.Evaluations, Actions: t.Actions}
	if rl := d.reloader.Load(); rl != nil {
		page.ReloadsOK, page.ReloadsFailed = rl.Counts()
	}
	counts := map[string]int{}
	rs := d.stats.Rules()
	for i, c := range rs {
		counts[c.Key] = i
	}
	for _, v := range d.rulesNow() {
		c := rs[counts[v.Key]]
		row := statusRule{Name: v.Name, State: "unknown", Value: v.Value, Text: v.text(),
			Evaluations: c.Evaluations, True: c.True, False: c.False, Unknown: c.Unknown, Actions: c.Actions}
		if !v.Evaluated.IsZero() {
			row.Evaluated = v.Evaluated.Local().Format(stamp)
		}
		switch {
		case v.Alerting && v.Truth == eval.True:
			row.State = "firing"
		case v.Alerting && v.Truth == eval.False:
			row.State = "inactive"
		case !v.Alerting && !v.Evaluated.IsZero():
			row.State = "inactive"
		}
		page.RuleRows = append(page.RuleRows, row)
		for _, a := range alertsOf(&v) {
			page.Alerts = append(page.Alerts, statusAlert{Labels: a.Labels, LabelText: sortedLabels(a.Labels),
				Value: a.Value, Since: a.ActiveAt.Local().Format(stamp)})
		}
	}
	if a := d.alerting(); a != nil {
		st := a.Stats()
		for _, name := range sortedNames(st) {
			s := st[name]
			page.Receivers = append(page.Receivers, statusReceiver{name, s.Sent, s.Failed, s.Dropped, s.Waiting})
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	statusPage.Execute(w, page)
}
