package daemon

import (
	"sort"
	"sync"
	"time"

	"github.com/gopcp/pmie/daemon/wire"
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/rules"
)

// view is what the HTTP endpoint shows of the rules: each rule's state
// at its last evaluation, recorded on the engine's goroutine while the
// rule's values are current, read by the endpoint's. It is kept by rule
// key, so that a rule carried over a reload keeps its history (when it
// became true).
type view struct {
	mu    sync.Mutex
	rules map[string]*wire.RuleView
	files map[string]string // rule key -> file it came from
}

func newView() *view { return &view{rules: map[string]*wire.RuleView{}, files: map[string]string{}} }

// record takes r's state after an evaluation at t.
func (v *view) record(r *eval.Rule, t time.Time) {
	truth := wire.Unknown
	var bs []eval.Binding
	if r.HasActions() {
		truth = truthOf(r.Truth())
		if truth == wire.True {
			bs = r.Bindings()
		}
	}
	value := string(r.Root.AppendValue(nil))
	v.mu.Lock()
	defer v.mu.Unlock()
	rv := v.rules[r.Key]
	if rv == nil {
		rv = &wire.RuleView{Key: r.Key}
		v.rules[r.Key] = rv
	}
	rv.Name, rv.Delta, rv.Alerting, rv.Evaluated, rv.Value = r.Name, r.Delta, r.HasActions(), t, value
	if truth == wire.Unknown {
		rv.Truth = truth
		return // nothing is known: when it became true stays as it was
	}
	if truth != wire.True {
		rv.Truth, rv.Since, rv.Bindings = truth, time.Time{}, nil
		return
	}
	if rv.Truth != wire.True || rv.Since.IsZero() {
		rv.Since = t
	}
	rv.Truth = truth
	prev := map[string]time.Time{}
	for _, b := range rv.Bindings {
		prev[b.Host+"\x00"+b.Inst] = b.Since
	}
	rv.Bindings = rv.Bindings[:0]
	for _, b := range bs {
		since, ok := prev[b.Host+"\x00"+b.Inst]
		if !ok {
			since = t
		}
		rv.Bindings = append(rv.Bindings, wire.BindingView{Host: b.Host, Inst: b.Inst, Value: b.Value, Since: since})
	}
}

// remove forgets rules a reload removed.
func (v *view) remove(keys []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, k := range keys {
		delete(v.rules, k)
	}
}

// setFiles records which file each rule came from.
func (v *view) setFiles(files map[string]string) {
	if files == nil {
		return
	}
	v.mu.Lock()
	v.files = files
	v.mu.Unlock()
}

// addFiles records which file more rules came from.
func (v *view) addFiles(files map[string]string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.files == nil {
		v.files = map[string]string{}
	}
	for k, f := range files {
		v.files[k] = f
	}
}

// snapshot copies the rules' states, in the order of the engine's
// counts, with the counts and the file of each.
func (v *view) snapshot(counts []rules.RuleCounts) []wire.RuleView {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := make([]wire.RuleView, 0, len(counts))
	var members map[string][]*wire.RuleView
	for _, c := range counts {
		rv := v.rules[c.Key]
		if rv == nil && members == nil {
			members = v.byBase()
		}
		if rv == nil && len(members[c.Key]) > 0 {
			rv = merged(members[c.Key])
		}
		if rv == nil {
			rv = &wire.RuleView{Key: c.Key, Name: c.Name, Delta: c.Delta}
		}
		cp := *rv
		cp.Bindings = append([]wire.BindingView(nil), rv.Bindings...)
		cp.File = v.files[c.Key]
		if cp.File == "" && len(members[c.Key]) > 0 {
			cp.File = v.files[members[c.Key][0].Key]
		}
		cp.Key = c.Key
		cp.Counts = countsOf(&c)
		out = append(out, cp)
	}
	return out
}

// byBase groups the rules' states of a fleet's members by the rule they
// are copies of (rules.BaseKey).
func (v *view) byBase() map[string][]*wire.RuleView {
	out := map[string][]*wire.RuleView{}
	for k, rv := range v.rules {
		if b := rules.BaseKey(k); b != k {
			out[b] = append(out[b], rv)
		}
	}
	return out
}

// merged is one view of a rule from its members' copies: true if any
// is (since the first became true, with all their bindings), else false
// if any is, else unknown; evaluated when the last was; its value the
// first true copy's, else any.
func merged(rvs []*wire.RuleView) *wire.RuleView {
	sort.Slice(rvs, func(i, j int) bool { return rvs[i].Key < rvs[j].Key })
	m := *rvs[0]
	m.Bindings = nil
	m.Truth, m.Since = wire.Unknown, time.Time{}
	for _, rv := range rvs {
		if rv.Evaluated.After(m.Evaluated) {
			m.Evaluated = rv.Evaluated
		}
		switch {
		case rv.Truth == wire.True:
			if m.Truth != wire.True {
				m.Value = rv.Value
			}
			if m.Since.IsZero() || rv.Since.Before(m.Since) {
				m.Since = rv.Since
			}
			m.Truth = wire.True
			m.Bindings = append(m.Bindings, rv.Bindings...)
		case rv.Truth == wire.False && m.Truth == wire.Unknown:
			m.Truth = wire.False
		}
	}
	return &m
}
