package notify

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gopcp/pmie/notify/alert"
)

// Exec and webhook receivers are sent each action a rule fires, as it
// fires; those with send_resolved (the default) are also told when the
// bindings it fired for stop making the rule true, as Alertmanager's
// webhook receivers are: an alert of status resolved, with startsAt and
// endsAt, at the first evaluation that finds the rule false or true
// only for other bindings, or when a reload removes the rule. An unknown
// evaluation changes nothing.
//
// A resolution goes to the receivers the firing went to (even if a route
// has been muted since: a receiver told of a firing is told of its end),
// one alert per receiver and evaluation, holding every binding that
// stopped. Its action and message are those of the latest action fired
// for them, and each binding's value is the last one seen while it made
// the rule true.

// hookMember is a binding an action of a tracked rule fired for, to exec
// and webhook receivers, while it makes the rule true.
type hookMember struct {
	Binding
	action, message string
	startsAt        time.Time       // when it first fired
	firedAt         time.Time       // when it last fired
	to              map[string]bool // receivers told of it that want resolutions, by name
}

// hookFired records the bindings of a fired action routed to exec and
// webhook receivers (those of rs that want resolutions are to be told of
// them), and sets a's StartsAt to the earliest time they began to fire.
func (tr *tracked) hookFired(a *Alert, rs []*receiver) {
	bs := a.Bindings
	if len(bs) == 0 {
		bs = []Binding{{}}
	}
	start := a.Time
	for _, b := range bs {
		k := bindingKey(b)
		m := tr.hooks[k]
		if m == nil {
			m = &hookMember{Binding: b, startsAt: a.Time, to: map[string]bool{}}
			tr.hooks[k] = m
		}
		m.Value, m.action, m.message, m.firedAt = b.Value, a.Action, a.Message, a.Time
		for _, r := range rs {
			if r.cfg.SendResolved {
				m.to[r.cfg.Name] = true
			}
		}
		if m.startsAt.Before(start) {
			start = m.startsAt
		}
	}
	a.StartsAt = start
}

// hookRefresh follows a true evaluation (its bindings bs): bindings that
// fired and are still true take their latest value; those gone are
// resolved.
func (n *Notifier) hookRefresh(tr *tracked, bs []Binding, t time.Time) {
	if len(tr.hooks) == 0 {
		return
	}
	current := make(map[string]string, len(bs))
	for _, b := range bs {
		current[bindingKey(b)] = b.Value
	}
	var gone []*hookMember
	for _, m := range sortedMembers(tr.hooks) {
		if v, ok := current[bindingKey(m.Binding)]; ok {
			m.Value = v
		} else {
			gone = append(gone, m)
		}
	}
	n.hookResolve(tr, gone, t)
}

// hookResolve sends the resolution of the bindings gone, at time t, to
// each receiver told of them that still wants resolutions, and stops
// following them.
func (n *Notifier) hookResolve(tr *tracked, gone []*hookMember, t time.Time) {
	if len(gone) == 0 {
		return
	}
	byReceiver := map[string][]*hookMember{}
	for _, m := range gone {
		for name := range m.to {
			byReceiver[name] = append(byReceiver[name], m)
		}
		delete(tr.hooks, bindingKey(m.Binding))
	}
	for _, name := range slices.Sorted(maps.Keys(byReceiver)) {
		r := n.recvs[name]
		if r == nil || r.q == nil || !r.cfg.SendResolved {
			continue
		}
		r.push(n.resolution(tr, byReceiver[name], t), n.log)
	}
}

// resolution is the alert telling that the bindings of ms stopped making
// the rule true at t.
func (n *Notifier) resolution(tr *tracked, ms []*hookMember, t time.Time) *Alert {
	a := &Alert{Rule: tr.rule, Status: alert.Resolved, Time: t, StartsAt: ms[0].startsAt, EndsAt: t,
		Hosts: []string{}, Insts: []string{}, Bindings: []Binding{}, Labels: n.cfg.Labels}
	latest := ms[0]
	for _, m := range ms {
		if m.startsAt.Before(a.StartsAt) {
			a.StartsAt = m.startsAt
		}
		if m.firedAt.After(latest.firedAt) {
			latest = m
		}
		if m.Host != "" || m.Inst != "" || m.Value != "" {
			a.Bindings = append(a.Bindings, m.Binding)
		}
		a.Hosts = alert.AppendNew(a.Hosts, m.Host)
		a.Insts = alert.AppendNew(a.Insts, m.Inst)
	}
	a.Action, a.Message = latest.action, latest.message
	if a.Labels == nil {
		a.Labels = map[string]string{}
	}
	return a
}

// hookRetrack fits a tracked rule's bindings to a new configuration:
// receivers gone, or no longer wanting resolutions, are not told.
func (n *Notifier) hookRetrack(tr *tracked) {
	for _, m := range tr.hooks {
		for name := range m.to {
			if r := n.recvs[name]; r == nil || r.q == nil || !r.cfg.SendResolved {
				delete(m.to, name)
			}
		}
	}
}

// sortedMembers lists a rule's fired bindings by host and instance, so
// that resolutions list them in a stable order.
func sortedMembers(hooks map[string]*hookMember) []*hookMember {
	out := make([]*hookMember, 0, len(hooks))
	for _, m := range hooks {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b *hookMember) int {
		return strings.Compare(bindingKey(a.Binding), bindingKey(b.Binding))
	})
	return out
}
