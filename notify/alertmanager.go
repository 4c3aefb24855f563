package notify

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// alertmanager POSTs alerts to Prometheus Alertmanager's /api/v2/alerts,
// one Alertmanager alert for each host and instance that made the rule
// true. Its state is used by its worker alone.
type alertmanager struct {
	cfg    ReceiverConfig
	client *http.Client
	url    string
	active map[string]*amState // by label set
}

// amState is what is remembered of one Alertmanager alert.
type amState struct {
	startsAt, sent, endsAt time.Time
}

// amAlert is an alert in Alertmanager's API (postableAlert).
type amAlert struct {
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	StartsAt     string            `json:"startsAt"`
	EndsAt       string            `json:"endsAt"`
	GeneratorURL string            `json:"generatorURL,omitempty"`
}

func newAlertmanager(cfg ReceiverConfig, client *http.Client) *alertmanager {
	return &alertmanager{cfg: cfg, client: client,
		url:    strings.TrimRight(cfg.URL, "/") + "/api/v2/alerts",
		active: map[string]*amState{}}
}

func (m *alertmanager) send(ctx context.Context, a *Alert) error {
	batch := m.alerts(a)
	if len(batch) == 0 {
		return nil
	}
	body, err := json.Marshal(batch)
	if err != nil {
		return err
	}
	return post(ctx, m.client, m.cfg, m.url, body)
}

// alerts gives the Alertmanager alerts for a, leaving out those sent less
// than resend_interval before (their endsAt is still well ahead). An
// alert's startsAt is when it began firing: kept while it is re-sent
// before its endsAt passes, new once it has resolved.
func (m *alertmanager) alerts(a *Alert) []amAlert {
	m.forget(a.Time)
	bindings := a.Bindings
	if len(bindings) == 0 {
		bindings = []Binding{{}}
	}
	var out []amAlert
	for _, b := range bindings {
		labels := map[string]string{}
		for k, v := range a.Labels {
			labels[k] = v
		}
		labels["alertname"] = a.Rule
		if b.Host != "" {
			labels["host"] = b.Host
		}
		if b.Inst != "" {
			labels["instance"] = b.Inst
		}
		key := fingerprint(labels)
		st := m.active[key]
		if st != nil && a.Time.Sub(st.sent) < m.cfg.ResendInterval && !a.Time.Before(st.sent) {
			continue
		}
		if st == nil {
			st = &amState{startsAt: a.Time}
			m.active[key] = st
		}
		st.sent, st.endsAt = a.Time, a.Time.Add(m.cfg.ResolveTimeout)
		ann := map[string]string{"summary": a.Message, "action": a.Action}
		if b.Value != "" {
			ann["value"] = b.Value
		}
		out = append(out, amAlert{Labels: labels, Annotations: ann,
			StartsAt: st.startsAt.Format(time.RFC3339Nano), EndsAt: st.endsAt.Format(time.RFC3339Nano),
			GeneratorURL: m.cfg.GeneratorURL})
	}
	return out
}

// forget drops the alerts that have resolved by t.
func (m *alertmanager) forget(t time.Time) {
	for k, st := range m.active {
		if !t.Before(st.endsAt) {
			delete(m.active, k)
		}
	}
}

// fingerprint is a label set as one string.
func fingerprint(labels map[string]string) string {
	var b strings.Builder
	for _, k := range sortedKeys(labels) {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(labels[k])
		b.WriteByte(0)
	}
	return b.String()
}
