// Package web is pmie's HTTP endpoint, served by pmie-notify from
// snapshots of pmie's state that it asks pmie for (a Source). It is on
// only with --web.listen-address or the daemon configuration's
// http.listen_address:
//
//	GET  /metrics        pmie's metrics (prometheus/client_golang's exposition)
//	GET  /-/healthy      200 while pmie runs
//	GET  /-/ready        200 once rules have been evaluated, 503 before
//	POST /-/reload       reload (as SIGUSR1): 200, or 500 with the errors
//	GET  /api/v1/rules   the rules, as Prometheus's /api/v1/rules
//	GET  /api/v1/alerts  alerts firing, as Prometheus's /api/v1/alerts
//	GET  /               a status page: rules, their values, alerts
//
// Healthy means pmie answers (within answerWait); ready, that it has
// evaluated its rules.
package web

import (
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/pmie/daemon/selfmetrics"
	"github.com/gopcp/pmie/daemon/wire"
)

// Source is where the endpoint gets pmie's state and its reloads.
type Source interface {
	// Snapshot is pmie's state now (with the receivers' counts).
	Snapshot(ctx context.Context) (*wire.Snapshot, error)
	// Reload reloads pmie's configuration, as SIGUSR1 does; the error
	// says why it was refused.
	Reload(ctx context.Context, reason string) error
}

// answerWait bounds how long a request waits for pmie.
const answerWait = 5 * time.Second

// Server is a running HTTP endpoint.
type Server struct {
	src  Source
	ln   net.Listener
	http *http.Server
	done chan struct{}
}

// Listen starts the endpoint on addr.
func Listen(addr string, src Source) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--web.listen-address: %v", err)
	}
	s := &Server{src: src, ln: ln, done: make(chan struct{})}
	s.http = &http.Server{Handler: s.handler(), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, WriteTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute}
	go func() {
		defer close(s.done)
		s.http.Serve(ln)
	}()
	return s, nil
}

// Addr is the address the endpoint listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the endpoint, letting requests in progress finish until
// ctx is done (5 s at most).
func (s *Server) Close(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if s.http.Shutdown(ctx) != nil {
		s.http.Close()
	}
	<-s.done
}

func (s *Server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", s.serveMetrics)
	mux.HandleFunc("GET /-/healthy", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := s.snapshot(w, r); ok {
			plain(w, http.StatusOK, "pmie is Healthy.\n")
		}
	})
	mux.HandleFunc("GET /-/ready", func(w http.ResponseWriter, r *http.Request) {
		snap, ok := s.snapshot(w, r)
		switch {
		case !ok:
		case snap.Ready:
			plain(w, http.StatusOK, "pmie is Ready.\n")
		default:
			plain(w, http.StatusServiceUnavailable, "pmie is not ready.\n")
		}
	})
	mux.HandleFunc("POST /-/reload", s.serveReload)
	mux.HandleFunc("PUT /-/reload", s.serveReload)
	mux.HandleFunc("GET /api/v1/rules", s.serveRules)
	mux.HandleFunc("GET /api/v1/alerts", s.serveAlerts)
	mux.HandleFunc("GET /{$}", s.serveStatus)
	return mux
}

// snapshot gets pmie's state for a request, answering 503 if pmie does
// not answer.
func (s *Server) snapshot(w http.ResponseWriter, r *http.Request) (*wire.Snapshot, bool) {
	ctx, cancel := context.WithTimeout(r.Context(), answerWait)
	defer cancel()
	snap, err := s.src.Snapshot(ctx)
	if err != nil {
		plain(w, http.StatusServiceUnavailable, "pmie is not answering: "+err.Error()+"\n")
		return nil, false
	}
	return snap, true
}

func plain(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	w.Write([]byte(text))
}

func (s *Server) serveReload(w http.ResponseWriter, r *http.Request) {
	if err := s.src.Reload(r.Context(), "HTTP request from "+r.RemoteAddr); err != nil {
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

func (s *Server) serveRules(w http.ResponseWriter, r *http.Request) {
	snap, ok := s.snapshot(w, r)
	if !ok {
		return
	}
	groups := []apiGroup{}
	for i := range snap.Rules {
		v := &snap.Rules[i]
		if n := len(groups); n == 0 || groups[n-1].File != v.File {
			name := v.File
			if name == "" {
				name = "pmie"
			}
			groups = append(groups, apiGroup{Name: name, File: v.File, Interval: v.Delta, Rules: []apiRule{}})
		}
		g := &groups[len(groups)-1]
		ar := apiRule{Name: v.Name, Query: text(v), Labels: map[string]string{}, Annotations: map[string]string{},
			Health: "ok", Type: "recording", LastEvaluation: v.Evaluated, EvaluationTime: v.LastEvalSeconds, Value: v.Value}
		if v.Evaluated.IsZero() {
			ar.Health = "unknown"
		}
		if v.Alerting {
			ar.Type, ar.State, ar.Alerts = "alerting", "inactive", alertsOf(v)
			if v.Truth == wire.True {
				ar.State = "firing"
			}
		}
		if v.Evaluated.After(g.LastEvaluation) {
			g.LastEvaluation = v.Evaluated
		}
		// the file's rules' last evaluations together (they may run on
		// different intervals)
		g.EvaluationTime += v.LastEvalSeconds
		g.Rules = append(g.Rules, ar)
	}
	writeJSON(w, map[string]any{"groups": groups})
}

// alertsOf gives a rule's alerts firing.
func alertsOf(v *wire.RuleView) []apiAlert {
	if v.Truth != wire.True {
		return nil
	}
	var out []apiAlert
	for _, b := range v.Bindings {
		since := b.Since
		ann := map[string]string{}
		if b.Value != "" {
			ann["value"] = b.Value
		}
		out = append(out, apiAlert{Labels: labels(v, b), Annotations: ann, State: "firing", ActiveAt: &since, Value: b.Value})
	}
	return out
}

func (s *Server) serveAlerts(w http.ResponseWriter, r *http.Request) {
	snap, ok := s.snapshot(w, r)
	if !ok {
		return
	}
	alerts := []apiAlert{}
	for i := range snap.Rules {
		alerts = append(alerts, alertsOf(&snap.Rules[i])...)
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

func (s *Server) serveStatus(w http.ResponseWriter, r *http.Request) {
	snap, ok := s.snapshot(w, r)
	if !ok {
		return
	}
	const stamp = "2006-01-02 15:04:05 MST"
	t := snap.Totals
	page := struct {
		Start                    string
		Rules                    int
		Evaluations, Actions     uint64
		ReloadsOK, ReloadsFailed int64
		Alerts                   []statusAlert
		RuleRows                 []statusRule
		Receivers                []statusReceiver
	}{Start: snap.Start.Format(stamp), Rules: t.NumRules, Evaluations: t.Evaluations, Actions: t.Actions,
		ReloadsOK: snap.Reloads.OK, ReloadsFailed: snap.Reloads.Failed}
	for i := range snap.Rules {
		v := &snap.Rules[i]
		row := statusRule{Name: v.Name, State: "unknown", Value: v.Value, Text: text(v),
			Evaluations: v.Evaluations, True: v.True, False: v.False, Unknown: v.Unknown, Actions: v.Actions}
		if !v.Evaluated.IsZero() {
			row.Evaluated = v.Evaluated.Local().Format(stamp)
		}
		switch {
		case v.Alerting && v.Truth == wire.True:
			row.State = "firing"
		case v.Alerting && v.Truth == wire.False:
			row.State = "inactive"
		case !v.Alerting && !v.Evaluated.IsZero():
			row.State = "inactive"
		}
		page.RuleRows = append(page.RuleRows, row)
		for _, a := range alertsOf(v) {
			page.Alerts = append(page.Alerts, statusAlert{Labels: a.Labels, LabelText: sortedLabels(a.Labels),
				Value: a.Value, Since: a.ActiveAt.Local().Format(stamp)})
		}
	}
	for _, name := range selfmetrics.SortedNames(snap.Receivers) {
		c := snap.Receivers[name]
		page.Receivers = append(page.Receivers, statusReceiver{name, c.Sent, c.Failed, c.Dropped, c.Waiting})
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	statusPage.Execute(w, page)
}

// text is a rule's text as written, from its key (name, text and
// interval joined by NULs).
func text(r *wire.RuleView) string {
	parts := strings.Split(r.Key, "\x00")
	if len(parts) >= 2 {
		return parts[1]
	}
	return r.Key
}

// labels are the labels of the alert for binding b, as Alertmanager gets
// them (without the configuration's labels).
func labels(r *wire.RuleView, b wire.BindingView) map[string]string {
	l := map[string]string{"alertname": r.Name}
	if b.Host != "" {
		l["host"], l["instance"] = b.Host, b.Host
	}
	if b.Inst != "" {
		l["pmie_instance"] = b.Inst
	}
	return l
}

// sortedLabels writes labels in order, for pages.
func sortedLabels(l map[string]string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k + "=" + strconv.Quote(l[k]))
	}
	return b.String()
}
