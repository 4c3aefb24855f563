package notify

import (
	"context"
	"strings"
	"testing"
	"time"
)

// discard is a sender that sends nowhere.
type discard struct{}

func (discard) send(context.Context, *Alert) error { return nil }

// BenchmarkNotify measures what routing costs for each action fired: the
// alert made, five conditions run, two queues fed (their senders
// discard).
func BenchmarkNotify(b *testing.B) {
	cfg, err := Parse("b.yaml", []byte(routeConfig))
	if err != nil {
		b.Fatal(err)
	}
	n := New(cfg, Options{Log: nil, senders: map[string]sender{"a": discard{}, "b": discard{}, "c": discard{}, "d": discard{}}})
	defer n.Close(context.Background())
	ev := sample()
	b.ReportAllocs()
	for b.Loop() {
		n.Notify(ev)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "actions/s")
}

// BenchmarkEvaluatedFired measures pmie-notify's work for each evaluation
// of a rule that fired an action: routed through five conditions to two
// discarding receivers and an Alertmanager receiver whose alerts are
// kept in step with the rule (its sends coalesce).
func BenchmarkEvaluatedFired(b *testing.B) {
	cfg, err := Parse("b.yaml", []byte(strings.Replace(routeConfig, "receivers:\n",
		"receivers:\n  - {name: am, type: alertmanager, url: 'http://127.0.0.1:1', retries: 0}\n", 1)))
	if err != nil {
		b.Fatal(err)
	}
	cfg.Routes = append(cfg.Routes, Route{Receivers: []string{"am"}})
	n := New(cfg, Options{Client: failingClient(), senders: map[string]sender{"a": discard{}, "b": discard{}, "c": discard{}, "d": discard{}}})
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		n.Close(ctx)
	}()
	ev := sample()
	a := FromEvent(ev, cfg.Labels)
	t0 := time.Unix(1700000000, 0)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		i++
		n.Evaluated(&Evaluation{Key: "k", Rule: ev.Rule, Time: t0.Add(time.Duration(i) * time.Second), Truth: True,
			Bindings: func() []Binding { return a.Bindings }, Fired: []*Alert{a}})
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "actions/s")
}
