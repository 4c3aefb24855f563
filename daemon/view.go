package daemon

import (
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopcp/pmie/eval"
)

// view is what the HTTP endpoint shows of the rules: each rule's state
// at its last evaluation, recorded on the engine's goroutine while the
// rule's values are current, read by the endpoint's. It is kept by rule
// key, so that a rule carried over a reload keeps its history (when it
// became true).
type view struct {
	mu    sync.Mutex
	rules map[string]*ruleView
	files map[string]string // rule key -> file it came from
}

// ruleView is one rule's state.
type ruleView struct {
	Name, Key string
	Delta     float64
	Alerting  bool // a rule with actions (not an expression)
	Evaluated time.Time
	Truth     eval.Truth
	Since     time.Time // when it became true (zero unless true)
	Value     string    // its value as -v prints it
	Bindings  []bindingView
}

// bindingView is one host and instance making a rule true.
type bindingView struct {
	Host, Inst, Value string
	Since             time.Time
}

func newView() *view { return &view{rules: map[string]*ruleView{}, files: map[string]string{}} }

// record takes r's state after an evaluation at t.
func (v *view) record(r *eval.Rule, t time.Time) {
	truth := eval.Unknown
	var bs []eval.Binding
	if r.HasActions() {
		truth = r.Truth()
		bs = r.Bindings()
	}
	value := string(r.Root.AppendValue(nil))
	v.mu.Lock()
	defer v.mu.Unlock()
	rv := v.rules[r.Key]
	if rv == nil {
		rv = &ruleView{Key: r.Key}
		v.rules[r.Key] = rv
	}
	rv.Name, rv.Delta, rv.Alerting, rv.Evaluated, rv.Value = r.Name, r.Delta, r.HasActions(), t, value
	if truth == eval.Unknown {
		rv.Truth = truth
		return // nothing is known: when it became true stays as it was
	}
	if truth != eval.True {
		rv.Truth, rv.Since, rv.Bindings = truth, time.Time{}, nil
		return
	}
	if rv.Truth != eval.True || rv.Since.IsZero() {
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
		rv.Bindings = append(rv.Bindings, bindingView{Host: b.Host, Inst: b.Inst, Value: b.Value, Since: since})
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

// snapshot copies the rules' states, in the order of names given (the
// engine's), and the file of each.
func (v *view) snapshot(keys []string) (out []ruleView, files []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, k := range keys {
		rv := v.rules[k]
		if rv == nil {
			continue
		}
		c := *rv
		c.Bindings = append([]bindingView(nil), rv.Bindings...)
		out = append(out, c)
		files = append(files, v.files[k])
	}
	return out, files
}

// text is the rule's text as written, from its key (name, text and
// interval joined by NULs).
func (r *ruleView) text() string {
	parts := strings.Split(r.Key, "\x00")
	if len(parts) >= 2 {
		return parts[1]
	}
	return r.Key
}

// labels are the labels of the alert for binding b, as Alertmanager gets
// them (without the file's labels).
func (r *ruleView) labels(b bindingView) map[string]string {
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
