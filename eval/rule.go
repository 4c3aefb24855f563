package eval

import "math"

// Clock is the evaluation time and the reserved variables pmie keeps in
// step with it ($delta, $minute, $hour, ...). The engine that schedules
// rules updates it before each evaluation.
type Clock struct {
	Now float64 // seconds since the epoch

	// The reserved variables, each a one-element buffer shared by every
	// node that reads it.
	Delta, Second, Minute, Hour, Day, Month, Year, Weekday []float64

	then int64 // whole second of the previous Reflect
}

// NewClock makes a clock with the variables zeroed.
func NewClock() *Clock {
	one := func() []float64 { return make([]float64, 1) }
	return &Clock{Delta: one(), Second: one(), Minute: one(), Hour: one(),
		Day: one(), Month: one(), Year: one(), Weekday: one()}
}

// Calendar breaks a time into the fields of the reserved variables, in the
// reporting timezone.
type Calendar func(sec int64) (second, minute, hour, day, month, year, weekday int)

// Reflect sets the reserved variables for time now and sample interval
// delta, as pmie does before each evaluation: small steps are added to the
// previous fields, larger ones recomputed with cal.
func (c *Clock) Reflect(now, delta float64, cal Calendar) {
	c.Now = now
	c.Delta[0] = delta
	skip := int64(now - float64(c.then))
	c.then = int64(now)
	if skip >= 0 && skip < 24*60*60 {
		c.Second[0] += float64(skip)
		if c.Second[0] < 60 {
			return
		}
		k := math.Floor(c.Second[0] / 60)
		c.Second[0] -= 60 * k
		c.Minute[0] += k
		if c.Minute[0] < 60 {
			return
		}
		k = math.Floor(c.Minute[0] / 60)
		c.Minute[0] -= 60 * k
		c.Hour[0] += k
		if c.Hour[0] < 24 {
			return
		}
	}
	if cal == nil {
		return
	}
	s, mi, h, d, mo, y, wd := cal(c.then)
	c.Second[0], c.Minute[0], c.Hour[0] = float64(s), float64(mi), float64(h)
	c.Day[0], c.Month[0], c.Year[0], c.Weekday[0] = float64(d), float64(mo), float64(y), float64(wd)
}

// Binding is one host and instance that makes a rule true, with the value
// %v stands for.
type Binding struct {
	Host, Conn, Inst string // "" when undefined
	Value            string
}

// Firing is an action about to run: what pmie's action operators get. A
// Firing and the storage of its Text are the Runtime's, valid only during
// the call to the Actor: the next action reuses them, so that firing one
// allocates nothing.
type Firing struct {
	Kind Op      // OpPrint, OpShell, OpAlarm, OpSyslog or OpStomp
	Rule string  // name of the rule whose condition is true
	Time float64 // evaluation time, seconds since the epoch
	// Text is the message: the arguments with %h %c %i %v expanded,
	// joined. Message gives it as a string to keep.
	Text    []byte
	Args    []string
	Holdoff float64 // seconds, 0 if none

	// Syslog priority and tag, from -p and -t.
	Priority int
	Tag      string

	// Err, if set, says why the action must not run: a value its Quoter
	// could not put into the text safely.
	Err error

	// Action is the action's node: actions keep state of their own per
	// node (an alarm's window still showing).
	Action *Node
	// Skipped is set by the actor when the action chose not to run now
	// (an alarm whose previous one still shows): pmie then neither counts
	// it nor restarts its holdoff, and the node keeps its last truth.
	Skipped bool

	rule *Node
}

// Message is the action's message, as a string of its own.
func (f *Firing) Message() string { return string(f.Text) }

// Bindings lists the hosts, instances and values that make the rule true,
// as %h %c %i and %v see them.
func (f *Firing) Bindings() []Binding {
	if f.rule == nil {
		return nil
	}
	return bindingsOf(f.rule)
}

// Actor runs an action and says whether it succeeded (True) or failed
// (False); a failed action lets the alternative after | run.
type Actor func(f *Firing) Truth

// Runtime is what the nodes of a rule share at evaluation time: the clock,
// the rule being evaluated (for %h %i %v) and the actor.
type Runtime struct {
	Clock *Clock
	Act   Actor
	// Tally, if set, counts for the rule being evaluated; the scheduler
	// sets it before each Rule.Eval.
	Tally Tally

	curr     *Node  // rule whose actions are being run
	currName string // its name
	scratch  []byte // for expanding action arguments
	value    []byte // one value of %h %c %i or %v, before quoting
	firing   Firing // the action being run
	evals    *runtimeEvals
}

// actionState is what an action leaf keeps: its arguments and holdoff, and
// when it last ran.
type actionState struct {
	rt       *Runtime
	holdoff  float64 // seconds, from the optional number after the action
	hasHold  bool
	args     []string
	quoter   Quoter // nil: values go in as they are
	priority int
	tag      string
}

// Tally is told what pmie counts as it evaluates rules (for pmcd's
// pmcd.pmie metrics): the truth of each rule (cond -> action) evaluated,
// which for a ruleset is each of its rules tried in turn, and each action
// run (an action held off does not run).
type Tally interface {
	Outcome(t Truth)
	Fired(kind Op)
}

// ruleEval is the evaluator of cond -> action: the action runs when the
// condition is true.
func ruleEval(rt *Runtime) func(*Node) {
	return func(x *Node) { ruleOnce(rt, x) }
}

// ruleOnce evaluates the rule x, telling rt's tally its outcome.
func ruleOnce(rt *Runtime, x *Node) {
	c := x.Arg1
	evalArg(c)
	x.valid = c.valid
	v := Unknown
	if x.valid > 0 {
		v = False
		if len(c.tru) > 0 {
			v = c.tru[0]
		}
		x.tru[0] = v
	}
	if rt != nil && rt.Tally != nil {
		rt.Tally.Outcome(v)
	}
	if v == True {
		evalArg(x.Arg2)
	}
}

// runNested evaluates one rule of a ruleset as the current rule.
func runNested(rt *Runtime, r *Node) {
	save := rt.curr
	rt.curr = r
	ruleOnce(rt, r)
	rt.curr = save
}

// rulesetEval evaluates the rules of a ruleset in order until one's
// condition is true, then the unknown or otherwise clause as pmie does.
func rulesetEval(rt *Runtime) func(*Node) {
	return func(x *Node) {
		x.valid = 0
		allUnknown := true
		for op := x.Arg1; op != nil; op = op.Arg2 {
			r := op
			if op.Op != OpRule {
				r = op.Arg1
			}
			runNested(rt, r)
			if c := r.Arg1; c.valid != 0 {
				x.valid = c.valid
				x.tru[0] = c.tru0()
				if x.valid > 0 && x.tru[0] == True {
					return
				}
				if x.valid > 0 && x.tru[0] == False {
					allUnknown = false
				}
			}
			if op.Op == OpRule {
				break
			}
		}
		other := x.Arg2
		if other == nil {
			return
		}
		if allUnknown && other.Arg1.Op != OpNop {
			runNested(rt, other.Arg1)
			return
		}
		if other.Arg2.Op != OpNop {
			r := other.Arg2
			rt.curr = r // pmie leaves the otherwise rule current
			ruleOnce(rt, r)
			x.valid = r.Arg1.valid
			x.tru[0] = r.Arg1.tru0()
		}
	}
}

// actSeq is the evaluator of a & b: both run; it succeeds if both do.
func actSeq(x *Node) {
	evalArg(x.Arg1)
	evalArg(x.Arg2)
	x.tru[0] = boolTruth(x.Arg1.tru0() == True && x.Arg2.tru0() == True)
}

// actAlt is the evaluator of a | b: b runs only if a fails.
func actAlt(x *Node) {
	evalArg(x.Arg1)
	if x.Arg1.tru0() == False {
		evalArg(x.Arg2)
		x.tru[0] = x.Arg2.tru0()
		return
	}
	x.tru[0] = True
}

// actLeaf is the evaluator of an action (print, shell, ...): unless held
// off, it expands the arguments and hands the action to the actor.
func actLeaf(x *Node) {
	st := x.act
	rt := st.rt
	now := rt.Clock.Now
	last := x.stamp[0]
	if st.hasHold && last != 0 && now < st.holdoff+last {
		return
	}
	text, err := expandArgs(rt, st.args, st.quoter)
	f := &rt.firing
	*f = Firing{Kind: x.Op, Rule: rt.currName, Time: now, Text: text, Args: st.args,
		Priority: st.priority, Tag: st.tag, Err: err, Action: x, rule: rt.curr}
	if st.hasHold {
		f.Holdoff = st.holdoff
	}
	res := True
	if rt.Act != nil {
		res = rt.Act(f)
	}
	if f.Skipped {
		return
	}
	if rt.Tally != nil {
		rt.Tally.Fired(x.Op)
	}
	x.tru[0] = res
	x.stamp[0] = now
}
