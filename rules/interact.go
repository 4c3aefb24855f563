package rules

import (
	"context"

	"github.com/gopcp/pmie/eval"
)

// What pmie's debugger (pmie -d) does with an engine: it runs the rules
// again and again over spans of time, lists them, and loads more. Between
// runs the engine keeps what pmie keeps: the rules' values and, reading
// archives, each context where the last run left it (pmie positions a
// context once, when it makes it, and each fetch reads on by the task's
// interval), and the order of its task queue, which is the order in which
// tasks due at the same time are evaluated and rules are listed.

// RunSpan evaluates the rules from start until stop, as a run of pmie's
// debugger: archives are read on from where the last run left them.
func (e *Engine) RunSpan(ctx context.Context, start, stop float64) error {
	e.cfg.Start, e.cfg.Stop = start, stop
	e.mu.Lock()
	e.stopped = false
	e.mu.Unlock()
	return e.Run(ctx)
}

// Rules are the engine's rules in the order pmie's debugger lists them:
// task by task in the order of the task queue.
func (e *Engine) Rules() []*eval.Rule {
	var out []*eval.Rule
	for _, t := range e.tasks {
		out = append(out, t.rules...)
	}
	return out
}

// Invalidate forgets the values of every rule, as pmie does before a run
// of its debugger from a new time.
func (e *Engine) Invalidate() {
	for _, t := range e.tasks {
		for _, r := range t.rules {
			r.Invalidate()
		}
	}
}

// Add puts rules newly loaded into prog (the last of its rules) into
// tasks as pmie's debugger does: a rule joins the task last in the queue
// when its interval is that task's, or else starts a new task at the end.
// A host new to a task is read (from archives) from start.
func (e *Engine) Add(prog *eval.Program, added []*eval.Rule, start float64) {
	if len(added) == 0 {
		return
	}
	fresh := map[*eval.Rule]bool{}
	for _, r := range added {
		fresh[r] = true
	}
	stats := e.stats.load(prog, e.b.Rules())
	statOf := map[*eval.Rule]*RuleStats{}
	for i, r := range prog.Rules {
		statOf[r] = stats[i]
	}
	var touched []*task
	for _, r := range added {
		var t *task
		if n := len(e.tasks); n > 0 && e.tasks[n-1].delta == r.Delta {
			t = e.tasks[n-1]
		} else {
			t = &task{nth: len(e.tasks), delta: r.Delta, group: &eval.Group{}}
			e.tasks = append(e.tasks, t)
		}
		t.group.Rules = append(t.group.Rules, r)
		if len(touched) == 0 || touched[len(touched)-1] != t {
			touched = append(touched, t)
		}
	}
	groups := make([]*eval.Group, len(touched))
	for i, t := range touched {
		groups[i] = t.group
	}
	eval.Regroup(groups, func(r *eval.Rule) bool { return fresh[r] })
	for _, t := range touched {
		t.from = start
		for _, r := range t.group.Rules {
			if fresh[r] {
				t.add(r, statOf[r])
			}
		}
		t.setProfile()
	}
}
