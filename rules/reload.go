package rules

import (
	"math"

	"github.com/gopcp/pmie/eval"
)

// reload is a new program waiting to replace the running one.
type reload struct {
	b    *eval.Builder
	prog *eval.Program
}

// Reload replaces the engine's rules with those of prog (bound by b) from
// the next evaluation on; it may be called while Run runs (live mode). A
// new rule whose Key is that of a running rule is replaced by the running
// one, so it carries on with its sample history, rising and falling memory
// and holdoff times; connections to hosts still used are kept.
func (e *Engine) Reload(b *eval.Builder, prog *eval.Program) {
	e.mu.Lock()
	e.pending = &reload{b, prog}
	e.mu.Unlock()
}

// takeReload returns a pending reload, if any.
func (e *Engine) takeReload() *reload {
	e.mu.Lock()
	defer e.mu.Unlock()
	r := e.pending
	e.pending = nil
	return r
}

// applyReload switches to a reloaded program, with every task due at now.
func (e *Engine) applyReload(r *reload, now float64) {
	running := map[string]*eval.Rule{}
	for _, t := range e.tasks {
		for _, rule := range t.rules {
			if rule.Key != "" {
				running[rule.Key] = rule
			}
		}
	}
	for i, rule := range r.prog.Rules {
		if old := running[rule.Key]; old != nil && rule.Key != "" {
			old.Name = rule.Name
			r.prog.Rules[i] = old
			delete(running, rule.Key)
		}
	}
	oldTasks := e.tasks
	e.b, e.rt = r.b, r.b.Env.Runtime
	e.tasks = groupTasks(r.prog, e.stats.load(r.prog, r.b.Rules()))
	for _, t := range e.tasks {
		for _, h := range t.hosts {
			h.adopt(oldTasks, t.delta)
		}
		t.when, t.epoch, t.tick = now, now, 0
		t.retry = 0
		if t.waits() {
			t.retry = math.Min(retryMin, t.delta)
		}
	}
	for _, t := range oldTasks {
		for _, h := range t.hosts {
			if h.ctx != nil && (h.live == nil || !h.live.busy) {
				h.ctx.Close()
			}
		}
	}
}

// adopt takes over the connection of the same host in a task of the same
// interval before a reload (leaving that task without it).
func (h *hostFetch) adopt(old []*task, delta float64) {
	for _, t := range old {
		if t.delta != delta {
			continue
		}
		for _, o := range t.hosts {
			if o.conn == h.conn && o.ctx != nil && o.live != nil && !o.live.busy {
				h.ctx, h.live, h.down, h.opened = o.ctx, o.live, o.down, o.opened
				o.ctx = nil
				return
			}
		}
	}
	h.live = &liveHost{}
	h.down = true // connected by the next enable
}
