package notify

import (
	"os"
	"time"

	"github.com/gopcp/pmie/notify/alert"
)

// The life of an Alertmanager alert follows its rule, not its actions:
// it fires when an action of the rule fires and is routed to an
// alertmanager receiver, stays firing (re-sent every resend_interval)
// for as long as the rule is true at its evaluations, whatever the
// action's holdoff, and is resolved as soon as an evaluation finds the
// rule false, or the rule is removed by a reload. One alert is kept for
// each host and instance that makes the rule true (its bindings): one
// that stops making it true is resolved while the others go on. An
// unknown evaluation (no values) changes nothing: the alert's last endsAt
// lets Alertmanager resolve it if that lasts.
//
// Where a rule's alerts go is decided as its action fires (routing looks
// at the action's message and values); while the rule stays true they
// keep going there.

// Truth is what an evaluation found a rule to be.
type Truth int

// The truths of an evaluation.
const (
	Unknown Truth = iota
	False
	True
)

// Evaluation is one evaluation of a rule with actions: what a Notifier
// needs to keep the rule's alerts in step with it.
type Evaluation struct {
	Key  string // the rule's identity across reloads
	Rule string // its name
	Time time.Time
	// Truth is whether the rule was true, whatever its actions' holdoff.
	Truth Truth
	// Bindings gives the hosts, instances and values that make the rule
	// true; it is called only while the rule's values are current (during
	// Evaluated) and only if the rule is true.
	Bindings func() []Binding
	// Fired are the alerts for the actions the rule fired.
	Fired []*Alert
	// Resume says Fired were sent before (to a notifier that stopped):
	// they are routed only to be tracked for Alertmanager, not sent
	// again to exec and webhook receivers.
	Resume bool
}

// tracked is the alerts of one rule: its Alertmanager alerts, and the
// bindings its actions fired for to exec and webhook receivers that are
// to be told when they resolve (resolved.go).
type tracked struct {
	rule      string
	receivers []string // alertmanager receivers they go to
	action    string   // of the last action fired
	summary   string   // its message
	members   map[string]*member
	hooks     map[string]*hookMember // by binding (host, instance)
}

// done says whether nothing of a tracked rule is left to follow.
func (tr *tracked) done() bool { return len(tr.receivers) == 0 && len(tr.hooks) == 0 }

// member is one alert of a tracked rule: one binding.
type member struct {
	host, inst, value string
	startsAt          time.Time
	sent              map[*receiver]time.Time         // when last sent
	labels            map[*receiver]map[string]string // labels as last sent
}

// Evaluated routes the alerts of the actions a rule fired and keeps its
// Alertmanager alerts in step with its truth. It is called by the
// evaluator after each evaluation of a rule with actions, and never
// waits for a receiver.
func (n *Notifier) Evaluated(ev *Evaluation) {
	if n.opt.Replay {
		if t := ev.Time.UnixNano(); t > n.evalNow.Load() {
			n.evalNow.Store(t)
		}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	tr := n.track[ev.Key]
	if tr == nil && len(ev.Fired) == 0 {
		return
	}
	var am []string
	var last *Alert
	for _, a := range ev.Fired {
		if a.Status == "" { // from a sender that does not set them
			a.Status, a.StartsAt = alert.Firing, a.Time
		}
		var queued []*receiver
		for _, name := range n.route(n.cfg, a) {
			r := n.recvs[name]
			switch {
			case r == nil:
			case r.q != nil:
				queued = append(queued, r)
			default:
				am = alert.AppendNew(am, name)
				last = a
			}
		}
		if len(queued) > 0 {
			if tr == nil {
				tr = n.newTracked(ev.Key)
			}
			tr.hookFired(a, queued) // before it is sent: it sets a.StartsAt
		}
		if !ev.Resume {
			for _, r := range queued {
				r.push(a, n.log)
			}
		}
	}
	if len(am) > 0 {
		if tr == nil {
			tr = n.newTracked(ev.Key)
		}
		for _, name := range am {
			tr.receivers = alert.AppendNew(tr.receivers, name)
		}
		tr.action, tr.summary = last.Action, last.Message
	}
	if tr == nil {
		return
	}
	tr.rule = ev.Rule
	switch ev.Truth {
	case True:
		bs := bindingsOf(ev)
		n.refresh(tr, ev, bs)
		n.hookRefresh(tr, bs, ev.Time)
		if tr.done() {
			delete(n.track, ev.Key)
		}
	case False:
		n.resolveAll(tr, ev.Time)
		delete(n.track, ev.Key)
	}
}

// newTracked starts following the alerts of the rule of key.
func (n *Notifier) newTracked(key string) *tracked {
	tr := &tracked{members: map[string]*member{}, hooks: map[string]*hookMember{}}
	n.track[key] = tr
	return tr
}

// bindingsOf gives the bindings of a true evaluation: one without host
// or instance if it has none.
func bindingsOf(ev *Evaluation) []Binding {
	var bs []Binding
	if ev.Bindings != nil {
		bs = ev.Bindings()
	}
	if len(bs) == 0 {
		bs = []Binding{{}}
	}
	return bs
}

// bindingKey identifies a binding among a rule's.
func bindingKey(b Binding) string { return b.Host + "\x00" + b.Inst }

// Removed resolves the alerts of rules no longer in force (by key).
func (n *Notifier) Removed(keys []string, now time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, k := range keys {
		if tr := n.track[k]; tr != nil {
			n.resolveAll(tr, now)
			delete(n.track, k)
		}
	}
}

// refresh brings a true rule's alerts up to date: new bindings fire,
// bindings gone are resolved, and alerts not sent for resend_interval are
// sent again.
func (n *Notifier) refresh(tr *tracked, ev *Evaluation, bs []Binding) {
	if len(tr.receivers) == 0 {
		return
	}
	current := make(map[string]bool, len(bs))
	for _, b := range bs {
		k := bindingKey(b)
		current[k] = true
		m := tr.members[k]
		if m == nil {
			m = &member{host: b.Host, inst: b.Inst, startsAt: ev.Time,
				sent: map[*receiver]time.Time{}, labels: map[*receiver]map[string]string{}}
			tr.members[k] = m
		}
		m.value = b.Value
	}
	for k, m := range tr.members {
		if !current[k] {
			n.resolve(tr, m, ev.Time)
			delete(tr.members, k)
		}
	}
	for _, m := range tr.members {
		for _, name := range tr.receivers {
			r := n.recvs[name]
			if r == nil {
				continue
			}
			last, sent := m.sent[r]
			if sent && ev.Time.Sub(last) < r.cfg.ResendInterval && !ev.Time.Before(last) {
				continue
			}
			u := n.firing(tr, m)
			for _, nd := range r.nodes {
				nd.put(u)
			}
			m.sent[r], m.labels[r] = ev.Time, u.labels
		}
	}
}

// firing is the state of a member's alert while it fires.
func (n *Notifier) firing(tr *tracked, m *member) *amUpdate {
	labels := make(map[string]string, len(n.cfg.Labels)+4)
	for k, v := range n.cfg.Labels {
		labels[k] = v
	}
	labels["alertname"] = tr.rule
	if m.host != "" {
		labels["host"] = m.host
		labels["instance"] = m.host
	}
	if m.inst != "" {
		labels["pmie_instance"] = m.inst
	}
	ann := map[string]string{"summary": tr.summary, "action": tr.action}
	if m.value != "" {
		ann["value"] = m.value
	}
	return &amUpdate{labels: labels, annotations: ann, startsAt: m.startsAt}
}

// resolve sends the resolution of a member's alert, at time t, to every
// receiver it was sent to, with the labels it was sent with.
func (n *Notifier) resolve(tr *tracked, m *member, t time.Time) {
	for r, labels := range m.labels {
		if n.recvs[r.cfg.Name] != r {
			continue // replaced or gone: Alertmanager resolves it at its endsAt
		}
		u := &amUpdate{labels: labels, annotations: map[string]string{"summary": tr.summary, "action": tr.action},
			startsAt: m.startsAt, resolvedAt: t}
		if m.value != "" {
			u.annotations["value"] = m.value
		}
		for _, nd := range r.nodes {
			nd.put(u)
		}
	}
}

// resolveAll resolves every alert of a tracked rule.
func (n *Notifier) resolveAll(tr *tracked, t time.Time) {
	for _, m := range tr.members {
		n.resolve(tr, m, t)
	}
	n.hookResolve(tr, sortedMembers(tr.hooks), t)
}

// retrack fits the tracked alerts to a new configuration: receivers gone
// (or no longer Alertmanagers) are dropped; receivers replaced (their
// settings changed) are sent the alerts at the next evaluation; if the
// labels changed, the alerts are resolved under the
// old labels and sent again under the new ones (with the same startsAt).
func (n *Notifier) retrack(relabel bool) {
	now := n.opt.Now()
	for key, tr := range n.track {
		keep := tr.receivers[:0]
		for _, name := range tr.receivers {
			if r := n.recvs[name]; r != nil && r.nodes != nil {
				keep = append(keep, name)
			}
		}
		tr.receivers = keep
		if len(keep) == 0 {
			clear(tr.members)
		}
		for _, m := range tr.members {
			if relabel {
				n.resolve(tr, m, now)
				clear(m.sent)
				clear(m.labels)
				continue
			}
			for r := range m.sent {
				if n.recvs[r.cfg.Name] != r {
					delete(m.sent, r)
					delete(m.labels, r)
				}
			}
		}
		n.hookRetrack(tr)
		if tr.done() {
			delete(n.track, key)
		}
	}
}

// beat sends heartbeat h, as its schedule fired at t.
func (n *Notifier) beat(h *Heartbeat, t time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	start, ok := n.beatStart[h.Name]
	if !ok {
		start = t
		n.beatStart[h.Name] = t
	}
	host, _ := os.Hostname()
	msg := "pmie heartbeat " + h.Name
	for _, name := range h.Receivers {
		r := n.recvs[name]
		switch {
		case r == nil:
		case r.q != nil:
			a := &Alert{Rule: h.Name, Status: alert.Firing, Action: "heartbeat", Time: t.UTC(), StartsAt: t.UTC(), Message: msg,
				Hosts: []string{}, Insts: []string{}, Bindings: []Binding{}, Labels: n.cfg.Labels}
			if host != "" {
				a.Hosts = []string{host}
			}
			r.push(a, n.log)
		default:
			labels := map[string]string{}
			for k, v := range n.cfg.Labels {
				labels[k] = v
			}
			labels["alertname"] = h.Name
			if host != "" {
				labels["host"], labels["instance"] = host, host
			}
			u := &amUpdate{labels: labels, startsAt: start,
				annotations: map[string]string{"summary": msg, "action": "heartbeat"}}
			if next := h.sched.next(t); !next.IsZero() {
				u.extra = next.Sub(t)
			}
			for _, nd := range r.nodes {
				nd.put(u)
			}
		}
	}
}
