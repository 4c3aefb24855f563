package notify

import (
	"context"
	"testing"
)

// discard is a sender that sends nowhere.
type discard struct{}

func (discard) send(context.Context, *Alert) error { return nil }

// BenchmarkNotify measures what routing costs the evaluator for each
// action fired: the alert made, five conditions run, two queues fed.
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
}
