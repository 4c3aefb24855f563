package eval

// Rule is a named expression ready to evaluate: a rule with actions or a
// value printed in verbose mode, with the sample interval in force where
// it was declared.
type Rule struct {
	Name    string
	Root    *Node
	Delta   float64   // seconds
	Metrics []*Metric // every metric its fetch nodes read
	// Key identifies the rule across reloads: its text as written, its
	// name unless pmie made it up, and its interval. A reloaded rule with
	// the same key carries on with the state (sample history, rising and
	// falling memory, holdoff) of the one it replaces.
	Key string
}

// Program is the statements loaded so far: rules in order of declaration,
// and the named constants (macros) that are not rules.
type Program struct {
	Rules  []*Rule
	byName map[string]*Rule
	Vars   map[string]*Node
}

// Lookup finds a rule by name.
func (p *Program) Lookup(name string) *Rule { return p.byName[name] }

// Statement finishes a statement name = x (name "" for an unnamed one): a
// constant becomes a named value (macro); anything else a rule evaluated
// every delta seconds. It returns the new rule, if any.
func (b *Builder) Statement(p *Program, name string, x *Node, delta float64) *Rule {
	ms := b.metrics
	b.metrics = nil
	if x == nil {
		return nil
	}
	if name == "" {
		name = b.NextName()
	}
	if p.byName == nil {
		p.byName = map[string]*Rule{}
		p.Vars = map[string]*Node{}
	}
	if x.Op == OpNop {
		p.Vars[name] = x
		return nil
	}
	if p.byName[name] != nil {
		b.synerr("rule \"%s\" multiply defined", name)
		return nil
	}
	if b.errs != 0 {
		return nil
	}
	post(x)
	r := &Rule{Name: name, Root: x, Delta: delta, Metrics: ms}
	p.Rules = append(p.Rules, r)
	p.byName[name] = r
	return r
}

// refuse takes r, just made, out of the rules evaluated, but leaves its
// name taken, as pmie does with a statement it refuses once it has
// registered it (see Compiler.restrict).
func (p *Program) refuse(r *Rule) {
	if n := len(p.Rules); n > 0 && p.Rules[n-1] == r {
		p.Rules = p.Rules[:n-1]
	}
}

// post carries the shape of every fetch node up the tree, as pmie does
// once a statement is complete (this is when most units become known).
func post(x *Node) {
	if x.Op == OpFetch {
		x.reshapeFetch()
		return
	}
	if x.Arg1 != nil {
		post(x.Arg1)
		if x.Arg2 != nil {
			post(x.Arg2)
		}
	}
}

// Eval evaluates r once, running its actions if its condition holds. It
// reports whether there was anything to evaluate (a statement that is
// only a reserved variable, such as $hour, has its value already), as
// pmie counts evaluations for pmcd.pmie.eval.actual.
func (r *Rule) Eval(rt *Runtime) bool {
	rt.curr, rt.currName = r.Root, r.Name
	if !r.Root.Op.evaluable() {
		return false
	}
	evalArg(r.Root)
	return true
}

// Invalidate marks every value of r unknown, as when its host goes away.
func (r *Rule) Invalidate() { clobber(r.Root) }

// clobber marks x and its operands as having no valid samples.
func clobber(x *Node) {
	if !x.Op.evaluable() {
		return
	}
	if x.Arg1 != nil {
		clobber(x.Arg1)
	}
	if x.Arg2 != nil {
		clobber(x.Arg2)
	}
	x.valid = 0
	switch x.sem {
	case SemCounter, SemInstant, SemDiscrete, SemNumVar:
		for i := range x.num {
			x.num[i] = nan
		}
	case SemBoolean:
		for i := range x.tru {
			x.tru[i] = Unknown
		}
	}
}

// Truth is the truth of r's condition at its last evaluation: for a rule
// with actions (cond -> action, or a ruleset), whether its actions were
// due, whatever their holdoff; Unknown when the condition's value is
// unknown or r is an expression without actions.
func (r *Rule) Truth() Truth {
	x := r.Root
	switch x.Op {
	case OpRule:
		x = x.Arg1
	case OpRuleset:
	default:
		return Unknown
	}
	if x.valid == 0 {
		return Unknown
	}
	return x.tru0()
}

// Bindings lists the hosts, instances and values that made r true at its
// last evaluation (what %h %c %i and %v stand for in its actions); for a
// ruleset, those of its first rule that was true. It is nil when r was
// not true.
func (r *Rule) Bindings() []Binding {
	if r.Truth() != True {
		return nil
	}
	x := r.Root
	if x.Op == OpRule {
		return bindingsOf(x)
	}
	for op := x.Arg1; op != nil; op = op.Arg2 {
		rule := op
		if op.Op != OpRule {
			rule = op.Arg1
		}
		if c := rule.Arg1; c.valid > 0 && c.tru0() == True {
			return bindingsOf(rule)
		}
		if op.Op == OpRule {
			break
		}
	}
	return nil
}

// HasActions reports whether r is a rule with actions (cond -> action, or
// a ruleset) rather than an expression whose value is only printed.
func (r *Rule) HasActions() bool { return r.Root.Op == OpRule || r.Root.Op == OpRuleset }

// ActionTimes appends, for each action of the rule in the order they are
// written, when it last ran (seconds since the epoch; 0 if never): what
// its holdoff counts from. RestoreActionTimes puts such times back,
// after a restart, so that an action that ran shortly before is held
// off as it would have been. The rule must not be evaluating meanwhile.
func (r *Rule) ActionTimes(dst []float64) []float64 {
	walkActions(r.Root, func(x *Node) { dst = append(dst, x.stamp[0]) })
	return dst
}

// RestoreActionTimes sets when each action last ran, as ActionTimes gave
// them; it does nothing if the rule's actions are not as many.
func (r *Rule) RestoreActionTimes(times []float64) {
	if len(r.ActionTimes(nil)) != len(times) {
		return
	}
	i := 0
	walkActions(r.Root, func(x *Node) { x.stamp[0] = times[i]; i++ })
}

// walkActions calls fn for each action leaf under x, in order.
func walkActions(x *Node, fn func(*Node)) {
	if x == nil {
		return
	}
	if x.act != nil {
		fn(x)
		return
	}
	walkActions(x.Arg1, fn)
	walkActions(x.Arg2, fn)
}
