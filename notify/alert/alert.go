package alert

import (
	"math"
	"time"

	"github.com/gopcp/pmie/actions"
)

// Alert is one fired action as the receivers see it, and its JSON form;
// or, with Status Resolved, the news that bindings an action fired for
// no longer make its rule true.
type Alert struct {
	Rule   string    `json:"rule"`
	Status string    `json:"status"` // Firing or Resolved
	Action string    `json:"action"` // the action's keyword: print, shell, syslog, alarm, stomp
	Time   time.Time `json:"time"`
	// StartsAt is when the bindings began to fire (the earliest of them);
	// EndsAt, for a resolution, is when they stopped (Time).
	StartsAt time.Time         `json:"startsAt"`
	EndsAt   time.Time         `json:"endsAt,omitzero"`
	Message  string            `json:"message"`
	Hosts    []string          `json:"hosts"`     // distinct, in binding order
	Insts    []string          `json:"instances"` // distinct, in binding order
	Bindings []Binding         `json:"bindings"`
	Labels   map[string]string `json:"labels"`
}

// The statuses of an Alert, as Alertmanager names them.
const (
	Firing   = "firing"
	Resolved = "resolved"
)

// Binding is one host and instance that made the rule true, with its
// value as pmie's %v gives it.
type Binding struct {
	Host  string `json:"host,omitempty"`
	Inst  string `json:"instance,omitempty"`
	Value string `json:"value,omitempty"`
}

// FromEvent makes the alert for ev, computing its bindings (which must be
// done while the rule's values are current, so before the evaluator goes
// on). labels are shared, not copied: receivers must not change them.
func FromEvent(ev *actions.Event, labels map[string]string) *Alert {
	sec, frac := math.Modf(ev.Time)
	t := time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC()
	a := &Alert{Rule: ev.Rule, Status: Firing, Action: ev.Kind.String(), Message: ev.Message(),
		Time: t, StartsAt: t, Hosts: []string{}, Insts: []string{}, Bindings: []Binding{}, Labels: labels}
	if a.Labels == nil {
		a.Labels = map[string]string{}
	}
	if ev.Bindings == nil {
		return a
	}
	for _, b := range ev.Bindings() {
		a.Bindings = append(a.Bindings, Binding{Host: b.Host, Inst: b.Inst, Value: b.Value})
		a.Hosts = AppendNew(a.Hosts, b.Host)
		a.Insts = AppendNew(a.Insts, b.Inst)
	}
	return a
}

// AppendNew appends s to list unless it is empty or already there.
func AppendNew(list []string, s string) []string {
	if s == "" {
		return list
	}
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// IsPowerOf10 says which counts of dropped or failed alerts to log (1, 10,
// 100, ...), so that a flood is reported without flooding the log.
func IsPowerOf10(c int64) bool {
	for c >= 10 && c%10 == 0 {
		c /= 10
	}
	return c == 1
}
