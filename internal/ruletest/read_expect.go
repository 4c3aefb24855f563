package ruletest

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/gopcp/pmie/eval"
)

var actionNames = map[string]bool{"print": true, "shell": true, "syslog": true, "alarm": true, "stomp": true}

// expect reads what to expect at one time.
func (r *reader) expect(n *ynode) *Expect {
	e := &Expect{Span: n.span}
	ok := r.fields(n, "an expectation", map[string]func(v *ynode){
		"at": func(v *ynode) {
			e.Span = v.span
			e.At, _ = r.interval(v, "at")
		},
		"tolerance": func(v *ynode) {
			s, ok := r.scalar(v, "tolerance")
			if !ok {
				return
			}
			t, err := strconv.ParseFloat(s, 64)
			if err != nil || t < 0 || math.IsInf(t, 0) || math.IsNaN(t) {
				r.errorf(v.span, "tolerance %q is not a number 0 or more", s)
			}
			e.Tolerance = t
		},
		"values": func(v *ynode) { e.Values = r.valueWants(v) },
		"fired":  func(v *ynode) { r.firedWants(v, e) },
	}, "at")
	if !ok {
		return nil
	}
	if e.Values == nil && !e.FiredSet {
		r.errorf(n.span, "an expectation needs values or fired (an empty fired list: nothing fires)")
	}
	return e
}

// valueWants reads the expected values of rules, by rule name.
func (r *reader) valueWants(n *ynode) []*ValueWant {
	if n.kind != yMap {
		r.errorf(n.span, "values must be a mapping of rule names to values, not %s", n.describe())
		return []*ValueWant{}
	}
	out := []*ValueWant{}
	for i, k := range n.keys {
		v := n.vals[i]
		w := &ValueWant{Span: k.span, Rule: k.text}
		switch v.kind {
		case yMap:
			// {instance or host: value, ...}
			for j, mk := range v.keys {
				w.Members = append(w.Members, &MemberWant{Span: mk.span, Key: mk.text, Samples: r.samples(v.vals[j])})
			}
		case ySeq:
			if len(v.items) > 0 && v.items[0].kind == yMap {
				for _, it := range v.items {
					if m := r.member(it); m != nil {
						w.Members = append(w.Members, m)
					}
				}
				break
			}
			fallthrough
		default:
			w.Whole = true
			w.Members = []*MemberWant{{Span: v.span, Samples: r.samples(v)}}
		}
		out = append(out, w)
	}
	return out
}

// member reads {host: H, instance: I, value: V}.
func (r *reader) member(n *ynode) *MemberWant {
	m := &MemberWant{Span: n.span}
	ok := r.fields(n, "a member's value", map[string]func(v *ynode){
		"host":     func(v *ynode) { m.Host, _ = r.scalar(v, "host") },
		"instance": func(v *ynode) { m.Instance, _ = r.scalar(v, "instance") },
		"value":    func(v *ynode) { m.Samples = r.samples(v) },
	}, "value")
	if !ok {
		return nil
	}
	if m.Host == "" && m.Instance == "" {
		r.errorf(n.span, "a member's value needs its host or instance")
	}
	return m
}

// samples reads a value, or a list of values (newest sample first).
func (r *reader) samples(n *ynode) []Want {
	if n.kind == ySeq {
		var out []Want
		for _, it := range n.items {
			out = append(out, r.want(it))
		}
		if out == nil {
			r.errorf(n.span, "an empty list of values")
		}
		return out
	}
	return []Want{r.want(n)}
}

// want reads one expected value: true, false, unknown (or ?), a number,
// or a quoted string.
func (r *reader) want(n *ynode) Want {
	w := Want{Span: n.span}
	if n.kind != yScalar {
		r.errorf(n.span, "a value must be true, false, unknown, ?, a number or a quoted string, not %s", n.describe())
		return w
	}
	if n.quoted {
		w.IsStr, w.Str = true, n.text
		return w
	}
	switch strings.ToLower(n.text) {
	case "true":
		w.IsTruth, w.Truth = true, eval.True
		return w
	case "false":
		w.IsTruth, w.Truth = true, eval.False
		return w
	case "unknown", "?":
		w.Unknown = true
		return w
	}
	v, err := strconv.ParseFloat(n.text, 64)
	if err != nil || math.IsNaN(v) {
		r.errorf(n.span, "%q is not true, false, unknown, ?, a number or a quoted string", n.text)
	}
	w.Num = v
	return w
}

// firedWants reads the actions expected to fire: a list of them, or a
// mapping of rule names to the list of each rule's actions.
func (r *reader) firedWants(n *ynode, e *Expect) {
	e.FiredSet = true
	add := func(rule string) func(it *ynode) {
		return func(it *ynode) {
			f := r.fired(it)
			if f == nil {
				return
			}
			if rule != "" {
				if f.Rule != "" && f.Rule != rule {
					r.errorf(it.span, "an action of rule %s listed under rule %s", f.Rule, rule)
				}
				f.Rule = rule
			}
			e.Fired = append(e.Fired, f)
		}
	}
	if n.kind == yMap {
		e.FiredRules = map[string]bool{}
		for i, k := range n.keys {
			e.FiredRules[k.text] = true
			r.list(n.vals[i], "a rule's fired actions", add(k.text))
		}
		return
	}
	r.list(n, "fired", add(""))
	e.FiredRules = rulesNamed(e.Fired)
}

// rulesNamed is the set of rules the expected actions name, or nil if
// there are none or some action names none.
func rulesNamed(want []*FiredWant) map[string]bool {
	if len(want) == 0 {
		return nil
	}
	named := map[string]bool{}
	for _, fw := range want {
		if fw.Rule == "" {
			return nil
		}
		named[fw.Rule] = true
	}
	return named
}

// fired reads one expected action.
func (r *reader) fired(n *ynode) *FiredWant {
	f := &FiredWant{Span: n.span}
	ok := r.fields(n, "a fired action", map[string]func(v *ynode){
		"rule": func(v *ynode) { f.Rule, _ = r.scalar(v, "rule") },
		"action": func(v *ynode) {
			if f.Action, _ = r.scalar(v, "action"); f.Action != "" && !actionNames[f.Action] {
				r.errorf(v.span, "action %q is not print, shell, syslog, alarm or stomp", f.Action)
			}
		},
		"message":   func(v *ynode) { f.Message, f.HasMsg = r.scalar(v, "message") },
		"host":      func(v *ynode) { f.Hosts, f.HasHosts = r.oneOf(v, "host") },
		"hosts":     func(v *ynode) { f.Hosts, f.HasHosts = r.strings(v, "hosts"), true },
		"instance":  func(v *ynode) { f.Instances, f.HasInsts = r.oneOf(v, "instance") },
		"instances": func(v *ynode) { f.Instances, f.HasInsts = r.strings(v, "instances"), true },
		"alert":     func(v *ynode) { f.Alert = r.alert(v) },
	})
	if !ok {
		return nil
	}
	return f
}

// oneOf reads a single name as a list of one.
func (r *reader) oneOf(n *ynode, what string) ([]string, bool) {
	s, ok := r.scalar(n, what)
	if !ok {
		return nil, false
	}
	return []string{s}, true
}

// alert reads the expected keys of an alert's JSON form: a mapping, or
// a string holding a JSON object.
func (r *reader) alert(n *ynode) map[string]any {
	var v any
	if n.kind == yScalar {
		if err := json.Unmarshal([]byte(n.text), &v); err != nil {
			r.errorf(n.span, "alert: not a JSON object: %v", err)
			return nil
		}
	} else {
		v = plain(n)
	}
	m, ok := v.(map[string]any)
	if !ok {
		r.errorf(n.span, "alert must be a mapping (or a JSON object) of the alert's keys")
		return nil
	}
	// as the alert's own JSON would decode
	b, _ := json.Marshal(m)
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}

// plain is a YAML node as Go values: maps, lists, strings, numbers,
// booleans and nil.
func plain(n *ynode) any {
	switch n.kind {
	case yMap:
		m := map[string]any{}
		for i, k := range n.keys {
			m[k.text] = plain(n.vals[i])
		}
		return m
	case ySeq:
		l := []any{}
		for _, it := range n.items {
			l = append(l, plain(it))
		}
		return l
	case yNull:
		return nil
	}
	if n.quoted {
		return n.text
	}
	switch n.text {
	case "true":
		return true
	case "false":
		return false
	case "null", "~":
		return nil
	}
	if v, err := strconv.ParseFloat(n.text, 64); err == nil {
		return v
	}
	return n.text
}
