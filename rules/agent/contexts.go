package agent

import (
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/pmapi"
)

// Contexts follows the handles of the PMAPI contexts pmie opens, as
// libpcp 6.0.3 numbers them (each new context the next number, none ever
// reused), and which of them is current, for the sender of each PDU.
//
// pmie opens, in order: a context for each archive it is given, closed at
// once (as it reads its options); one for -z, closed; while it reads its
// rules, a context for each metric it looks up (one per host a metric
// names), closed once the metric is known, which leaves none current;
// and, as each rule is made, a fetching context for each host of the
// task the rule joins, the first time a metric of that host joins the
// task, which becomes current, as does an existing one for each further
// metric. Evaluating a task makes current the fetching context of the
// first host that joined it.
type Contexts struct {
	next    int32 // the handle the next context gets
	current int32 // pmWhichContext(): a handle, or noContext
	inits   int   // the metric look-ups counted so far
	tasks   []*taskContexts
	of      map[*eval.Rule]*taskContexts
}

// noContext is what pmWhichContext returns when no context is current.
const noContext = int32(pmapi.ErrNoContext)

// taskContexts is a task's hosts, in the order they joined it, with their
// fetching contexts.
type taskContexts struct {
	delta float64
	hosts []string
	fetch []int32
}

// NewContexts starts following pmie's contexts once it has opened, and
// closed, opened of them: one for each archive, and one for -z.
func NewContexts(opened int) *Contexts {
	return &Contexts{next: int32(opened), current: noContext, of: map[*eval.Rule]*taskContexts{}}
}

// Statement follows a statement pmie has read: inits is the number of
// metrics looked up so far (eval.Builder.MetricInits), r the rule it made,
// if any.
func (c *Contexts) Statement(r *eval.Rule, inits int) {
	c.lookups(inits)
	if r == nil {
		return
	}
	var t *taskContexts
	if n := len(c.tasks); n > 0 && c.tasks[n-1].delta == r.Delta {
		t = c.tasks[n-1]
	} else {
		t = &taskContexts{delta: r.Delta}
		c.tasks = append(c.tasks, t)
	}
	c.of[r] = t
	for _, m := range r.Metrics {
		if !m.Ready() {
			continue // live: waiting for its host, not yet fetched
		}
		i := t.host(m.Host)
		if t.fetch[i] < 0 {
			t.fetch[i] = c.next
			c.next++
		}
		c.current = t.fetch[i]
	}
}

// Loaded follows the end of the rules: inits is the number of metrics
// looked up in all.
func (c *Contexts) Loaded(inits int) { c.lookups(inits) }

// lookups counts the metrics looked up since the last count: each opened a
// context and closed it.
func (c *Contexts) lookups(inits int) {
	if inits > c.inits {
		c.next += int32(inits - c.inits)
		c.current = noContext
		c.inits = inits
	}
}

// host finds or adds the host called name to t.
func (t *taskContexts) host(name string) int {
	for i, h := range t.hosts {
		if h == name {
			return i
		}
	}
	t.hosts = append(t.hosts, name)
	t.fetch = append(t.fetch, -1)
	return len(t.hosts) - 1
}

// Current is the handle of the current context, or PM_ERR_NOCONTEXT.
func (c *Contexts) Current() int32 { return c.current }

// Evaluate makes current the context pmie fetches a task with last, the
// task whose first rule is r: that of the first host to join it. A task
// with no hosts (its rules fetch nothing), or one not followed, leaves the
// current context as it is.
func (c *Contexts) Evaluate(r *eval.Rule) {
	t := c.of[r]
	if t == nil {
		return
	}
	for _, h := range t.fetch {
		if h >= 0 {
			c.current = h
			return
		}
	}
}
