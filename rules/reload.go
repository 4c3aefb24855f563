package rules

import (
	"math"
	"sync"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/pmapi"
)

// Candidate is a whole configuration, loaded and checked in full, ready
// to replace the running one in one step.
type Candidate struct {
	Builder *eval.Builder
	Program *eval.Program
	// Reconnect says that the hosts' contexts cannot be carried over as
	// they are: what they read has changed (derived metrics were
	// redefined).
	Reconnect bool
	// Rewrap, if set, lets a reload with Reconnect keep the connections:
	// it gives the context to fetch with in place of old, the same
	// connection seen through the new configuration, or nil if it
	// cannot (the host is then connected anew). It is called on the
	// engine's goroutine as the rules switch, for connections not in use,
	// several at once (one goroutine a connection).
	Rewrap func(conn string, old pmapi.Context) pmapi.Context
	// Apply, if set, switches whatever else the configuration holds
	// (alerting, schedules) at the moment the rules switch: on the
	// engine's goroutine, between two evaluations.
	Apply func()
	// Discard, if set, releases what the candidate holds if it is never
	// put in force.
	Discard func()
	// Files are the files the configuration was read from, which a
	// Watcher watches.
	Files []string
	// Parts, for many engines reloaded as one (a fleet's members), are
	// each engine's candidate by its identity; Builder and Program are
	// then unused.
	Parts map[string]*Candidate
}

// Switched tells how a reload changed the rules.
type Switched struct {
	Kept, Added, Removed int
}

// pending is a candidate waiting to replace the running configuration,
// and the channel told once it has.
type pending struct {
	c    *Candidate
	done chan Switched
}

// Reload replaces the engine's configuration with c from the next
// evaluation on; it may be called while Run runs (live mode), and wakes
// the engine if it is waiting for its next evaluation, so the switch is
// not held up by a long interval. The channel returned is given how the
// rules changed once c is in force, and closed; it is closed without a
// value if c never comes into force (Run ended, or a later Reload
// superseded it).
//
// A rule of c whose Key is that of a running rule is replaced by the
// running one, so that it carries on with its sample history, rising and
// falling memory and holdoff times; its task keeps its schedule, so a
// reload causes no extra evaluation. Connections to hosts still used are
// kept unless c.Reconnect without c.Rewrap. Rules that are gone are reported to
// Config.Removed.
func (e *Engine) Reload(c *Candidate) <-chan Switched {
	p := &pending{c: c, done: make(chan Switched, 1)}
	e.mu.Lock()
	if old := e.pending; old != nil {
		close(old.done) // superseded: the newer one is what will be in force
	}
	e.pending = p
	if e.wake != nil {
		e.wake()
	}
	if e.stopped {
		close(p.done)
		e.pending = nil
	}
	e.mu.Unlock()
	return p.done
}

// takeReload returns a pending reload, if any.
func (e *Engine) takeReload() *pending {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := e.pending
	e.pending = nil
	return p
}

// finish marks the engine stopped, releasing whoever waits for a reload.
func (e *Engine) finish() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stopped = true
	if e.pending != nil {
		close(e.pending.done)
		e.pending = nil
	}
}

// applyReload switches to a reloaded configuration at time now.
func (e *Engine) applyReload(p *pending, now float64) {
	defer close(p.done)
	c := p.c
	running := map[string][]carried{}
	for _, t := range e.tasks {
		for _, rule := range t.rules {
			if rule.Key != "" {
				running[rule.Key] = append(running[rule.Key], carried{rule, t})
			}
		}
	}
	var sw Switched
	defer func() { p.done <- sw }()
	from := map[*eval.Rule]*task{} // carried-over rule -> its old task
	for i, rule := range c.Program.Rules {
		olds := running[rule.Key]
		if rule.Key == "" || len(olds) == 0 {
			continue
		}
		old := olds[0]
		running[rule.Key] = olds[1:]
		// the rule's runtime tree holds its state: the old one carries on
		// under the new name (pmie's made-up names shift as rules are
		// added or removed above)
		old.rule.Name = rule.Name
		c.Program.Rules[i] = old.rule
		from[old.rule] = old.t
		sw.Kept++
	}
	sw.Added = len(c.Program.Rules) - sw.Kept
	var removed []*eval.Rule
	for _, olds := range running {
		for _, o := range olds {
			removed = append(removed, o.rule)
		}
	}
	sw.Removed = len(removed)
	oldTasks := e.tasks
	e.b, e.rt = c.Builder, c.Builder.Env.Runtime
	e.tasks = groupTasks(c.Program, e.stats.load(c.Program, c.Builder.Rules()),
		func(r *eval.Rule) bool { return from[r] == nil })
	var rewrap []*hostFetch
	for _, t := range e.tasks {
		e.schedule(t, from, now)
		for _, h := range t.hosts {
			switch {
			case c.Reconnect && c.Rewrap == nil:
				h.live, h.down = &liveHost{}, true
			default:
				h.adopt(oldTasks, t.delta)
				if c.Reconnect && h.ctx != nil {
					rewrap = append(rewrap, h)
				}
			}
		}
	}
	rewrapAll(rewrap, c.Rewrap)
	for _, t := range e.tasks {
		if t.waits() && t.retry == 0 {
			t.retry = math.Min(retryMin, t.delta)
		}
	}
	for _, t := range oldTasks {
		for _, h := range t.hosts {
			switch {
			case h.live != nil:
				h.live.stop(h.ctx) // not adopted
			case h.ctx != nil:
				h.ctx.Close()
			}
		}
	}
	if c.Apply != nil {
		c.Apply()
	}
	if e.cfg.Removed != nil && len(removed) > 0 {
		e.cfg.Removed(removed, now)
	}
}

// rewrapAll has the connections adopted by hs seen through a new
// configuration (Candidate.Rewrap), one goroutine a connection, as each
// may ask its pmcd about the metrics; a connection that cannot be is
// closed, and its host connected anew.
func rewrapAll(hs []*hostFetch, rewrap func(string, pmapi.Context) pmapi.Context) {
	var wg sync.WaitGroup
	for _, h := range hs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if nc := rewrap(h.conn, h.ctx); nc != nil {
				h.ctx, h.profDirty = nc, true
				return
			}
			h.live.stop(h.ctx)
			h.ctx, h.live, h.down = nil, &liveHost{}, true
		}()
	}
	wg.Wait()
}

// carried is a running rule and its task, at a reload.
type carried struct {
	rule *eval.Rule
	t    *task
}

// schedule gives a task of a reloaded program its schedule: that of the
// old task of its first carried-over rule, so that rules carried over are
// evaluated when they would have been; a task of new rules only starts
// now, as tasks do when pmie starts (or at its phase: Config.Phase).
func (e *Engine) schedule(t *task, from map[*eval.Rule]*task, now float64) {
	for _, r := range t.rules {
		if o := from[r]; o != nil {
			t.when, t.epoch, t.tick, t.retry = o.when, o.epoch, o.tick, o.retry
			return
		}
	}
	first := e.phased(t.delta, now)
	t.when, t.epoch, t.tick, t.retry = first, first, 0, 0
}

// adopt takes over the connection of the same host in a task of the same
// interval before a reload (leaving that task without it).
func (h *hostFetch) adopt(old []*task, delta float64) {
	for _, t := range old {
		if t.delta != delta {
			continue
		}
		for _, o := range t.hosts {
			if o.conn == h.conn && o.ctx != nil && o.live != nil && !o.live.isBusy() {
				h.ctx, h.live, h.down, h.opened = o.ctx, o.live, o.down, o.opened
				h.profDirty = true
				o.ctx, o.live = nil, nil
				return
			}
		}
	}
	h.live = &liveHost{}
	h.down = true // connected by the next enable
}
