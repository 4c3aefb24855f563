package ruletest

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gopcp/pmie/eval"
)

// check compares what the rules gave with what the test expects.
func (w *world) check(res *Result) []Failure {
	var out []Failure
	for _, e := range w.t.Expect {
		o := res.Observed[e.At]
		when := w.ctime(w.base.Add(e.At).Unix())
		fail := func(what, want, got string) {
			out = append(out, Failure{At: e.At, HasAt: true, Time: when, What: what, Expected: want, Got: got})
		}
		if o == nil {
			fail("evaluation", "rules evaluated at "+durationText(e.At), w.schedule())
			continue
		}
		for _, v := range e.Values {
			what := w.ruleText(v.Rule)
			got := o.Values[v.Rule]
			if got == nil {
				if w.prog.Lookup(v.Rule) == nil {
					fail(what, "a rule or expression called "+v.Rule, "none in the rule files")
				} else {
					fail(what, "evaluated at "+durationText(e.At), "not evaluated then: its interval does not fall on that time")
				}
				continue
			}
			if ok, note := compareValue(v, got, e.Tolerance); !ok {
				fail(what, wantText(v), gotText(got)+note)
			}
		}
		if e.FiredSet {
			if ok, want, got := compareFired(e.Fired, o.Fired, e.FiredRules); !ok {
				what := "fired actions"
				if e.FiredRules != nil {
					var rs []string
					for _, r := range slices.Sorted(maps.Keys(e.FiredRules)) {
						rs = append(rs, w.ruleText(r))
					}
					what += " of " + strings.Join(rs, ", ")
				}
				fail(what, want, got)
			}
		}
	}
	return out
}

// ruleText names a rule, with the file and line of its statement.
func (w *world) ruleText(name string) string {
	if where, ok := w.where[name]; ok {
		return "rule " + name + " (" + where + ")"
	}
	return "rule " + name
}

// schedule says when the rules are evaluated.
func (w *world) schedule() string {
	if len(w.prog.Rules) == 0 {
		return "no rules"
	}
	first := time.Unix(0, micros(w.start)*1000).Sub(w.base)
	last := time.Unix(0, micros(w.stop)*1000).Sub(w.base)
	return fmt.Sprintf("evaluations from %s to %s, every %s (and as each rule's delta says)",
		durationText(first), durationText(last), durationText(w.f.Interval))
}

// durationText is a duration as a test file writes it: 30s, 1m, 1h30m.
func durationText(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// jsonText is v in JSON.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// compareValue compares a rule's value with the expected one; when they
// differ, note may say more than the values do.
func compareValue(v *ValueWant, got *RuleValue, tol float64) (ok bool, note string) {
	members := got.Members
	if len(members) == 0 {
		// no values at all: pmie prints "?"
		members = []eval.Member{{Samples: []eval.Sample{{}}}}
	}
	if v.Whole {
		if len(members) != 1 {
			return false, fmt.Sprintf(" (%d values, expected one)", len(members))
		}
		return samplesMatch(v.Members[0].Samples, members[0].Samples, got.IsTruth, tol), ""
	}
	used := make([]bool, len(members))
	for _, mw := range v.Members {
		idx := -1
		for i, m := range members {
			if mw.matches(m) {
				if idx >= 0 {
					return false, fmt.Sprintf(" (%s matches more than one member: name both host and instance)", mw.name())
				}
				idx = i
			}
		}
		if idx < 0 {
			return false, fmt.Sprintf(" (no member %s)", mw.name())
		}
		used[idx] = true
		if !samplesMatch(mw.Samples, members[idx].Samples, got.IsTruth, tol) {
			return false, ""
		}
	}
	for i, u := range used {
		if !u {
			return false, fmt.Sprintf(" (member %s not expected)", memberName(members[i]))
		}
	}
	return true, ""
}

// matches reports whether mw names member m.
func (mw *MemberWant) matches(m eval.Member) bool {
	if mw.Key != "" {
		return m.HasInst && m.Inst == mw.Key || !m.HasInst && m.HasHost && m.Host == mw.Key ||
			m.HasInst && m.Host+":"+m.Inst == mw.Key
	}
	return (mw.Host == "" || m.Host == mw.Host) && (mw.Instance == "" || m.HasInst && m.Inst == mw.Instance)
}

// name is how mw names a member, in messages.
func (mw *MemberWant) name() string {
	switch {
	case mw.Key != "":
		return mw.Key
	case mw.Host != "" && mw.Instance != "":
		return mw.Host + ":" + mw.Instance
	case mw.Host != "":
		return "of host " + mw.Host
	}
	return mw.Instance
}

// memberName names a member: instance, host, or host:instance.
func memberName(m eval.Member) string {
	switch {
	case m.HasInst:
		return m.Host + ":" + m.Inst
	case m.HasHost:
		return m.Host
	}
	return "(the value)"
}

// samplesMatch compares expected samples, newest first, with a member's.
func samplesMatch(want []Want, got []eval.Sample, truth bool, tol float64) bool {
	if len(want) != len(got) {
		return false
	}
	for k, w := range want {
		g := got[k]
		switch {
		case w.Unknown:
			if g.Known {
				return false
			}
		case !g.Known:
			return false
		case w.IsTruth:
			if !truth || g.Truth != w.Truth {
				return false
			}
		case w.IsStr:
			if g.Str != w.Str {
				return false
			}
		default:
			if truth || !closeEnough(g.Num, w.Num, tol) {
				return false
			}
		}
	}
	return true
}

// closeEnough compares numbers: within tol, or (tol 0) to 1 part in 1e9.
func closeEnough(got, want, tol float64) bool {
	if tol == 0 {
		tol = 1e-9 * math.Max(1, math.Abs(want))
	}
	return math.Abs(got-want) <= tol
}

// wantText is the expected value, written as a test file would.
func wantText(v *ValueWant) string {
	if v.Whole {
		return samplesWantText(v.Members[0].Samples)
	}
	parts := make([]string, len(v.Members))
	for i, m := range v.Members {
		parts[i] = m.name() + ": " + samplesWantText(m.Samples)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func samplesWantText(ws []Want) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		switch {
		case w.Unknown:
			parts[i] = "unknown"
		case w.IsTruth:
			parts[i] = w.Truth.String()
		case w.IsStr:
			parts[i] = strconv.Quote(w.Str)
		default:
			parts[i] = strconv.FormatFloat(w.Num, 'g', -1, 64)
		}
	}
	return samplesText(parts)
}

// samplesText is one sample's value, or a list of several.
func samplesText(parts []string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// gotText is a rule's value, written as a test file would.
func gotText(got *RuleValue) string {
	if len(got.Members) == 0 {
		return "unknown (no values)"
	}
	if len(got.Members) == 1 && !got.Members[0].HasInst {
		return samplesGotText(got.Members[0].Samples, got.IsTruth)
	}
	oneHost := true
	for _, m := range got.Members {
		oneHost = oneHost && m.Host == got.Members[0].Host
	}
	parts := make([]string, len(got.Members))
	for i, m := range got.Members {
		name := memberName(m)
		if oneHost && m.HasInst {
			name = m.Inst
		}
		parts[i] = name + ": " + samplesGotText(m.Samples, got.IsTruth)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func samplesGotText(ss []eval.Sample, truth bool) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		switch {
		case !s.Known:
			parts[i] = "unknown"
		case truth:
			parts[i] = s.Truth.String()
		case s.Str != "":
			parts[i] = strconv.Quote(s.Str)
		default:
			parts[i] = strconv.FormatFloat(s.Num, 'g', -1, 64)
		}
	}
	return samplesText(parts)
}

// compareFired compares the actions fired at one time with those
// expected, in any order: each expected one must match one fired, and
// nothing else may fire. If rules is not nil, only the actions of those
// rules count (as promtool checks the alerts of one alert name).
func compareFired(want []*FiredWant, got []*Firing, rules map[string]bool) (ok bool, wantText, gotText string) {
	if rules != nil {
		var mine []*Firing
		for _, g := range got {
			if rules[g.Rule] {
				mine = append(mine, g)
			}
		}
		got = mine
	}
	used := make([]bool, len(got))
	ok = true
	for _, fw := range want {
		found := false
		for i, g := range got {
			if !used[i] && fw.matches(g) {
				used[i], found = true, true
				break
			}
		}
		ok = ok && found
	}
	for _, u := range used {
		ok = ok && u
	}
	if ok {
		return true, "", ""
	}
	withAlert := false
	var ws, gs []string
	for _, fw := range want {
		ws = append(ws, fw.String())
		withAlert = withAlert || len(fw.Alert) > 0
	}
	for _, g := range got {
		gs = append(gs, g.describe(withAlert))
	}
	return false, listText(ws), listText(gs)
}

func listText(items []string) string {
	if len(items) == 0 {
		return "nothing"
	}
	return strings.Join(items, "\n"+strings.Repeat(" ", len("    expected: ")+4))
}

// matches reports whether fw describes f.
func (fw *FiredWant) matches(f *Firing) bool {
	switch {
	case fw.Rule != "" && fw.Rule != f.Rule,
		fw.Action != "" && fw.Action != f.Action,
		fw.HasMsg && fw.Message != f.Message,
		fw.HasHosts && !reflect.DeepEqual(nonNil(fw.Hosts), nonNil(f.Hosts)),
		fw.HasInsts && !reflect.DeepEqual(nonNil(fw.Instances), nonNil(f.Instances)):
		return false
	}
	for k, v := range fw.Alert {
		if g, ok := f.Alert[k]; !ok || !reflect.DeepEqual(v, g) {
			return false
		}
	}
	return true
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// String describes an expected action.
func (fw *FiredWant) String() string {
	var b strings.Builder
	b.WriteString(orAny(fw.Action, "any action"))
	if fw.HasMsg {
		b.WriteString(" " + strconv.Quote(fw.Message))
	}
	var extra []string
	if fw.Rule != "" {
		extra = append(extra, "rule "+fw.Rule)
	}
	if fw.HasHosts {
		extra = append(extra, "hosts ["+strings.Join(fw.Hosts, " ")+"]")
	}
	if fw.HasInsts {
		extra = append(extra, "instances ["+strings.Join(fw.Instances, " ")+"]")
	}
	if len(fw.Alert) > 0 {
		extra = append(extra, "alert "+jsonText(fw.Alert))
	}
	if len(extra) > 0 {
		b.WriteString(" (" + strings.Join(extra, ", ") + ")")
	}
	return b.String()
}

func orAny(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}

// describe describes a fired action, and the alert routing would send
// for it if withAlert.
func (f *Firing) describe(withAlert bool) string {
	s := fmt.Sprintf("%s %q (rule %s, hosts [%s], instances [%s]", f.Action, f.Message, f.Rule,
		strings.Join(f.Hosts, " "), strings.Join(f.Instances, " "))
	if withAlert {
		s += ", alert " + jsonText(f.Alert)
	}
	return s + ")"
}
