package notify

import (
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/pmie/actions"
	"github.com/gopcp/pmie/notify/alert"
)

// Alert and Binding are package alert's, in which pmie hands them over.
type (
	Alert   = alert.Alert
	Binding = alert.Binding
)

// FromEvent makes the alert for ev with the given labels (see
// alert.FromEvent).
func FromEvent(ev *actions.Event, labels map[string]string) *Alert {
	return alert.FromEvent(ev, labels)
}

// env is what a route's condition sees: the alert's fields under their
// JSON names, with values as numbers.
type env struct {
	Rule      string            `expr:"rule"`
	Action    string            `expr:"action"`
	Time      time.Time         `expr:"time"`
	Message   string            `expr:"message"`
	Hosts     []string          `expr:"hosts"`
	Instances []string          `expr:"instances"`
	Values    []float64         `expr:"values"`
	Labels    map[string]string `expr:"labels"`
}

// envOf is a's view for conditions: values are the bindings' values that
// are numbers (pmie's %v text with any units after a space left off).
func envOf(a *Alert) env {
	e := env{Rule: a.Rule, Action: a.Action, Time: a.Time, Message: a.Message,
		Hosts: a.Hosts, Instances: a.Insts, Values: []float64{}, Labels: a.Labels}
	for _, b := range a.Bindings {
		f, _, _ := strings.Cut(b.Value, " ")
		if v, err := strconv.ParseFloat(f, 64); err == nil {
			e.Values = append(e.Values, v)
		}
	}
	return e
}
