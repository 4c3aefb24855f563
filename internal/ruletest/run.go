package ruletest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/gopcp/pmie/actions"
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/notify/alert"
	"github.com/gopcp/pmie/rules"
)

// Result is the outcome of one test.
type Result struct {
	File     *File
	Test     *Test
	Failures []Failure
	// Messages is what pmie would have said while loading the rules and
	// evaluating them (shown with the failures).
	Messages string
	Elapsed  time.Duration
	// Base is the time the expectations' times count from: the test's
	// start (for archives, by default, the archives' start).
	Base time.Time
	// Observed is what the rules gave at the times the test expects
	// something, by time since the test's start (for comparisons with
	// real pmie).
	Observed map[time.Duration]*Observed
}

// Passed reports whether the test passed.
func (r *Result) Passed() bool { return len(r.Failures) == 0 }

// Failure is one expectation not met, or a test that could not run.
type Failure struct {
	At       time.Duration // after the start; meaningful when HasAt
	HasAt    bool
	Time     string // At as a date, as pmie prints it
	What     string // "rule busy (rules.pmie:3)", "fired actions", ...
	Expected string
	Got      string
	Text     string // a problem that is not a comparison (pmie's messages)
}

// Observed is what the rules gave at one evaluation time.
type Observed struct {
	Values map[string]*RuleValue // by rule name
	Fired  []*Firing
}

// RuleValue is a rule's value at one time.
type RuleValue struct {
	Members []eval.Member
	IsTruth bool
	Text    string // as pmie -v prints it
}

// Firing is an action fired.
type Firing struct {
	Rule, Action, Message string
	Hosts, Instances      []string
	Alert                 map[string]any // the alert routing would send, as its JSON decodes
}

// Run runs one test of f.
func Run(f *File, t *Test) *Result {
	began := time.Now()
	res := &Result{File: f, Test: t, Observed: map[time.Duration]*Observed{}}
	defer func() { res.Elapsed = time.Since(began) }()
	w, err := newWorld(f, t)
	if err != nil {
		res.Failures = append(res.Failures, Failure{What: "input", Text: err.Error()})
		return res
	}
	defer w.close()
	res.Base = w.base
	if !w.compile() {
		res.Messages = w.msgs.String()
		res.Failures = append(res.Failures, Failure{What: "rule files", Text: res.Messages})
		return res
	}
	if err := w.evaluate(res); err != nil {
		res.Failures = append(res.Failures, Failure{What: "evaluation", Text: err.Error()})
	}
	res.Messages = w.msgs.String()
	res.Failures = append(res.Failures, w.check(res)...)
	return res
}

// micros is a time in whole microseconds, as evaluation times are kept.
func micros(sec float64) int64 { return int64(math.Round(sec * 1e6)) }

// evaluate runs the rules over the test's input on the archives' clock,
// as pmie -a does, recording what they give at the times the test
// expects something.
func (w *world) evaluate(res *Result) error {
	wanted := map[int64]time.Duration{}
	for _, e := range w.t.Expect {
		wanted[micros(float64(w.base.Add(e.At).UnixNano())/1e9)] = e.At
	}
	observe := func(now float64) *Observed {
		at, ok := wanted[micros(now)]
		if !ok {
			return nil
		}
		o := res.Observed[at]
		if o == nil {
			o = &Observed{Values: map[string]*RuleValue{}}
			res.Observed[at] = o
		}
		return o
	}
	runner := &actions.Runner{Replay: true, Out: io.Discard, Ctime: w.ctime,
		Log: func(msg string) { fmt.Fprintf(&w.msgs, "pmie: Error: %s\n", msg) },
		Notify: func(ev *actions.Event) {
			if o := observe(ev.Time); o != nil {
				o.Fired = append(o.Fired, w.firing(ev))
			}
		}}
	w.rt.Act = rules.Actor(runner)
	var line []byte
	cfg := rules.Config{
		Archive: true, Start: w.start, Stop: w.stop,
		Out:        io.Discard,
		TimeString: func(sec float64) string { return w.ctime(int64(sec)) },
		Calendar:   w.calendar(),
		Open:       w.openConn,
		Notify:     func(level rules.Level, msg string) { fmt.Fprintf(&w.msgs, "%s\n", msg) },
		Evaluated: func(now float64, rs []*eval.Rule) {
			o := observe(now)
			if o == nil {
				return
			}
			for _, r := range rs {
				line = r.Root.AppendValue(line[:0])
				o.Values[r.Name] = &RuleValue{Members: r.Root.Members(), IsTruth: r.Root.IsTruth(), Text: string(line)}
			}
		},
	}
	return rules.New(cfg, w.b, w.prog).Run(context.Background())
}

// firing records an action as the test sees it, with the alert routing
// would make of it.
func (w *world) firing(ev *actions.Event) *Firing {
	a := alert.FromEvent(ev, w.f.Labels)
	f := &Firing{Rule: ev.Rule, Action: ev.Kind.String(), Message: ev.Message(), Hosts: a.Hosts, Instances: a.Insts}
	if b, err := json.Marshal(a); err == nil {
		json.Unmarshal(b, &f.Alert)
	}
	return f
}
