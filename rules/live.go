package rules

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/pmapi"
)

// errBusy marks a host whose previous fetch has not finished.
var errBusy = errors.New("previous fetch still in progress")

// liveHost is the connection state of a live hostFetch. Fetches and
// reconnections run in their own goroutines so that a slow or dead host
// holds up only its own values.
type liveHost struct {
	mu         sync.Mutex
	busy       bool          // a fetch is in flight
	done       chan error    // result of the fetch in flight
	connecting bool          // a reconnection is in flight
	pending    pmapi.Context // a new connection waiting to be adopted
	failed     error         // why a first connection failed, to report
	closed     bool          // the engine has stopped: close what comes
	lateErr    error         // error of a fetch that finished too late
	wait       time.Duration // Config.Backoff's wait after the last failure to connect
	nextDial   time.Time     // no attempt to connect before this
}

// timeOf converts seconds since the epoch to a time.Time.
func timeOf(sec float64) time.Time {
	s, f := math.Modf(sec)
	return time.Unix(int64(s), int64(f*1e9))
}

// realNow is the live clock in seconds.
func (e *Engine) realNow() float64 {
	t := e.cfg.Now()
	return float64(t.UnixNano()) / 1e9
}

// connectAll opens every live host's context at once, waiting for them
// all; hosts that cannot be reached are reported, marked down and retried
// later.
func (e *Engine) connectAll() {
	var hosts []*hostFetch
	for _, t := range e.tasks {
		hosts = append(hosts, t.hosts...)
	}
	ctxs := make([]pmapi.Context, len(hosts))
	errs := make([]error, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		h.live = &liveHost{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.cfg.Limits.Dial(func() { ctxs[i], errs[i] = e.cfg.Open(h.conn) })
		}()
	}
	wg.Wait()
	for i, h := range hosts {
		if errs[i] != nil {
			h.down = true
			e.hosts.Unreachable(h.conn, errs[i])
			e.failedDial(h.live)
			e.stats.host(h.conn).setDown(true)
			continue
		}
		h.ctx, h.opened = ctxs[i], true
		e.hosts.Reached(h.conn)
		e.stats.host(h.conn).setDown(false)
	}
}

// runLive evaluates on the real-time clock until the stop time or until
// ctx is done.
func (e *Engine) runLive(ctx context.Context) error {
	e.connectAll()
	q := make([]*task, 0, len(e.tasks))
	for _, t := range e.tasks {
		t.when, t.epoch, t.tick = e.cfg.Start, e.cfg.Start, 0
		t.retry = 0
		if t.waits() {
			t.retry = math.Min(retryMin, t.delta)
		}
		q = append(q, t)
	}
	defer e.closeAll()
	for len(q) > 0 {
		if r := e.takeReload(); r != nil {
			e.applyReload(r, e.realNow())
			q = append(q[:0], e.tasks...)
			slices.SortStableFunc(q, func(a, b *task) int { return cmp.Compare(a.when, b.when) })
			if len(q) == 0 {
				break
			}
		}
		t := q[0]
		now := t.when
		if now > e.cfg.Stop {
			break
		}
		if woken, err := e.sleep(ctx, timeOf(now)); err != nil {
			return nil
		} else if woken {
			continue // a reload is waiting
		}
		if t.retry > 0 {
			e.enable(t)
		}
		e.rt.Clock.Reflect(now, t.delta, e.cfg.Calendar)
		e.fetchLive(t)
		e.evalTask(t, now)
		e.stats.lagged(e.cfg.Now().Sub(timeOf(now)))
		e.out.Flush()
		if t.waits() && t.retry == 0 {
			t.retry = math.Min(retryMin, t.delta)
		}
		switch {
		case t.retry > 0 && t.retry < t.delta:
			t.when = now + t.retry
			t.retry = math.Min(t.retry*2, t.delta)
		case t.retry > 0:
			t.when = now + t.delta
		default:
			t.tick++
			t.when = t.epoch + float64(t.tick)*t.delta
		}
		if real := e.realNow(); t.when > real+t.delta {
			t.when = real + t.delta
		}
		q = enqueue(q[1:], t)
	}
	return nil
}

// sleep waits until the time of the next evaluation, or until ctx is
// done (returning its error), or until a reload is waiting (woken).
func (e *Engine) sleep(ctx context.Context, until time.Time) (woken bool, err error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	e.mu.Lock()
	if e.pending != nil {
		e.mu.Unlock()
		return true, nil
	}
	reload := false
	e.wake = func() { reload = true; cancel() } // called with e.mu held
	e.mu.Unlock()
	err = e.cfg.Sleep(sctx, until)
	e.mu.Lock()
	e.wake = nil
	woken = reload
	e.mu.Unlock()
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if woken {
		return true, nil
	}
	return false, err
}

// closeAll closes every live context once no fetch is using it.
func (e *Engine) closeAll() {
	for _, t := range e.tasks {
		for _, h := range t.hosts {
			lh := h.live
			if lh == nil {
				continue
			}
			lh.mu.Lock()
			lh.closed = true
			if lh.busy {
				lh.mu.Unlock()
				continue // the fetch goroutine still owns it
			}
			if h.ctx != nil {
				h.ctx.Close()
				h.ctx = nil
			}
			if lh.pending != nil {
				lh.pending.Close()
				lh.pending = nil
			}
			lh.mu.Unlock()
		}
	}
}

// enable tries to bring back the task's hosts that are down and to
// initialise metrics that were waiting for their metadata. When nothing is
// left waiting the task's regular schedule restarts from now.
func (e *Engine) enable(t *task) {
	for _, h := range t.hosts {
		if h.down {
			e.reconnect(h)
		}
		if !h.down && len(h.waiting) > 0 {
			e.retryMetrics(h)
		}
	}
	if !t.waits() {
		t.epoch = t.when
		t.tick = 0
		t.retry = 0
	}
}

// reconnect adopts a connection made in the background, or starts making
// one. As in pmie, "Cannot connect" is said only of a host never reached
// (once): of a host that was lost, only that it was lost and, later,
// that it is back.
func (e *Engine) reconnect(h *hostFetch) {
	lh := h.live
	lh.mu.Lock()
	ctx, failed := lh.pending, lh.failed
	lh.pending, lh.failed = nil, nil
	start := ctx == nil && !lh.connecting && !lh.busy && !e.cfg.Now().Before(lh.nextDial)
	if start {
		lh.connecting = true
	}
	lh.mu.Unlock()
	switch {
	case ctx != nil:
		h.ctx, h.down, h.opened = ctx, false, true
		e.hosts.Reached(h.conn)
		e.stats.host(h.conn).setDown(false)
	case failed != nil:
		e.hosts.Unreachable(h.conn, failed)
	}
	if start {
		go e.dial(h, !h.opened)
	}
}

// dial connects to h's host in the background, leaving the connection for
// reconnect to adopt, or, for a host never reached, why it failed.
func (e *Engine) dial(h *hostFetch, never bool) {
	var ctx pmapi.Context
	var err error
	e.cfg.Limits.Dial(func() { ctx, err = e.cfg.Open(h.conn) })
	lh := h.live
	lh.mu.Lock()
	defer lh.mu.Unlock()
	lh.connecting = false
	if err != nil {
		e.failedDial(lh)
	} else {
		lh.wait = 0
	}
	switch {
	case err == nil && lh.closed:
		ctx.Close()
	case err == nil:
		lh.pending = ctx
	case never:
		lh.failed = err
	}
}

// failedDial puts off the next attempt to connect by Config.Backoff;
// lh.mu is held (or lh is not yet shared).
func (e *Engine) failedDial(lh *liveHost) {
	lh.wait = e.cfg.Backoff.next(lh.wait)
	lh.nextDial = e.cfg.Now().Add(lh.wait)
}

// retryMetrics looks again for the metadata of h's waiting metrics.
func (e *Engine) retryMetrics(h *hostFetch) {
	keep := h.waiting[:0]
	for _, m := range h.waiting {
		e.b.Retry(m)
		switch {
		case m.Ready():
			h.addID(m.Desc.PMID)
		case m.Waiting():
			keep = append(keep, m)
		}
	}
	h.waiting = keep
}

// fetchLive fetches from all of a task's hosts at once and waits for them,
// but no longer than the fetch timeout: a host that has not answered by
// then has unknown values this time.
func (e *Engine) fetchLive(t *task) {
	timeout := e.cfg.FetchTimeout
	if timeout <= 0 {
		timeout = time.Duration(t.delta * float64(time.Second))
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var started []*hostFetch
	for _, h := range t.hosts {
		h.err = pmapi.ErrNoData
		lh := h.live
		if lh == nil || h.down || h.ctx == nil || len(h.ids) == 0 {
			continue
		}
		lh.mu.Lock()
		if lh.busy {
			lh.mu.Unlock()
			h.err = errBusy
			continue
		}
		if err := lh.lateErr; err != nil {
			lh.lateErr = nil
			lh.mu.Unlock()
			e.lost(h, err)
			continue
		}
		lh.busy = true
		lh.done = make(chan error, 1)
		lh.mu.Unlock()
		started = append(started, h)
		go func(h *hostFetch, ctx pmapi.Context, done chan error, c *hostCounters) {
			turn := e.cfg.Limits.fetching()
			start := time.Now()
			err := ctx.Fetch(h.ids, &h.result)
			c.fetched(time.Since(start), err)
			turn()
			done <- err
		}(h, h.ctx, lh.done, e.stats.host(h.conn))
	}
	timedOut := false
	for _, h := range started {
		lh := h.live
		if timedOut {
			e.abandon(h)
			continue
		}
		select {
		case err := <-lh.done:
			e.fetched(h, err)
		case <-deadline.C:
			timedOut = true
			e.abandon(h)
		}
	}
	for _, h := range t.hosts {
		h.distribute()
	}
}

// fetched takes the result of a host's fetch, err: the host is free for
// the next, and lost if the fetch failed.
func (e *Engine) fetched(h *hostFetch, err error) {
	lh := h.live
	lh.mu.Lock()
	lh.busy = false
	lh.mu.Unlock()
	h.err = err
	if err != nil {
		e.lost(h, err)
	}
}

// abandon leaves a host's fetch to finish in the background: its values
// are unknown this time, and an error it ends with is dealt with next
// time.
func (e *Engine) abandon(h *hostFetch) {
	lh := h.live
	select {
	case err := <-lh.done:
		e.fetched(h, err)
		return
	default:
	}
	h.err = errBusy
	go func(ctx pmapi.Context, done chan error) {
		err := <-done
		lh.mu.Lock()
		defer lh.mu.Unlock()
		lh.busy = false
		switch {
		case lh.closed:
			ctx.Close() // closeAll left it to us
		case err != nil:
			lh.lateErr = err
		}
	}(h.ctx, lh.done)
}

// lost handles a failed fetch: the host is marked down, every value that
// depends on it becomes unknown, and reconnection starts.
func (e *Engine) lost(h *hostFetch, err error) {
	if e.cfg.Notify != nil {
		e.cfg.Notify(Error, "pmFetch from "+h.hostName()+" failed: "+errText(err))
	}
	e.hosts.lost(h.conn)
	e.stats.host(h.conn).setDown(true)
	h.down = true
	h.err = err
	if h.ctx != nil {
		h.ctx.Close()
		h.ctx = nil
	}
	for _, t := range e.tasks {
		for _, r := range t.rules {
			if usesConn(r, h.conn) {
				r.Invalidate()
			}
		}
	}
	e.reconnect(h)
}

// usesConn reports whether rule r reads metrics from conn.
func usesConn(r *eval.Rule, conn string) bool {
	for _, m := range r.Metrics {
		if m.Conn == conn {
			return true
		}
	}
	return false
}

// hostName is the name the host of h reports, or its connection.
func (h *hostFetch) hostName() string {
	for _, m := range h.metrics {
		if m.Host != "" {
			return m.Host
		}
	}
	return h.conn
}

// errText is PCP's wording of a fetch error.
func errText(err error) string {
	var e pmapi.Errno
	if errors.As(err, &e) {
		return e.Error()
	}
	return pmapi.Code(err).Error()
}
