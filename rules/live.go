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
	from := e.cfg.Start
	if e.cfg.Phase > 0 {
		from = max(from, e.realNow())
	}
	for _, t := range e.tasks {
		first := e.phased(t.delta, from)
		t.when, t.epoch, t.tick = first, first, 0
		t.retry = 0
		if t.waits() {
			t.retry = math.Min(retryMin, t.delta)
		}
		q = append(q, t)
	}
	defer e.closeAll()
	defer e.endSleeps()
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
		if err := e.evalTask(t, now); err != nil {
			return err
		}
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
		requeue(q)
	}
	return nil
}

// phased is the first time, not before from, at which a group of rules
// with interval delta is due by Config.Phase: from itself when the phase
// is 0.
func (e *Engine) phased(delta, from float64) float64 {
	if e.cfg.Phase <= 0 || delta <= 0 {
		return from
	}
	due := e.cfg.Start + e.cfg.Phase*delta
	if due < from {
		due += math.Ceil((from-due)/delta) * delta
	}
	return due
}

// sleep waits until the time of the next evaluation, or until ctx is
// done (returning its error), or until a reload is waiting (woken). The
// context it sleeps under, which a reload cancels to wake it, is made
// once and kept until a reload has used it (or ctx changes), so that a
// sleep allocates nothing.
func (e *Engine) sleep(ctx context.Context, until time.Time) (woken bool, err error) {
	e.mu.Lock()
	if e.pending != nil {
		e.mu.Unlock()
		return true, nil
	}
	if e.sleepCtx == nil || e.sleepCtx.Err() != nil || e.sleepParent != ctx {
		if e.sleepCancel != nil {
			e.sleepCancel()
		}
		e.sleepParent = ctx
		e.sleepCtx, e.sleepCancel = context.WithCancel(ctx)
	}
	sctx := e.sleepCtx
	if e.wakeFn == nil {
		e.wakeFn = e.wakeForReload // made once: a method value allocates
	}
	e.wake = e.wakeFn
	e.mu.Unlock()
	err = e.cfg.Sleep(sctx, until)
	e.mu.Lock()
	e.wake = nil
	woken, e.reloadWoke = e.reloadWoke, false
	e.mu.Unlock()
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if woken {
		return true, nil
	}
	return false, err
}

// wakeForReload ends a sleep for a reload; e.mu is held.
func (e *Engine) wakeForReload() {
	e.reloadWoke = true
	e.sleepCancel()
}

// endSleeps releases the context sleeps were made under.
func (e *Engine) endSleeps() {
	e.mu.Lock()
	if e.sleepCancel != nil {
		e.sleepCancel()
	}
	e.sleepCtx, e.sleepCancel, e.sleepParent = nil, nil, nil
	e.mu.Unlock()
}

// closeAll ends every live host's worker and closes its context once no
// fetch is using it.
func (e *Engine) closeAll() {
	if e.alarm != nil {
		e.alarm.stop()
		e.alarm = nil
	}
	for _, t := range e.tasks {
		for _, h := range t.hosts {
			if h.live != nil {
				h.live.stop(h.ctx)
				h.ctx = nil
			}
		}
	}
}

// enable tries to bring back the task's hosts that are down and to
// initialise metrics that were waiting for their metadata. When nothing is
// left waiting the task's regular schedule restarts from now.
func (e *Engine) enable(t *task) {
	waiting := false
	for _, h := range t.hosts {
		if h.down {
			e.reconnect(h)
		}
		if !h.down && len(h.waiting) > 0 {
			e.retryMetrics(h)
			waiting = true
		}
	}
	if waiting {
		t.setProfile() // metrics now ready join the fetch's profile
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
		h.profDirty = true
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
		lh.backoff = 0
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
	lh.backoff = e.cfg.Backoff.next(lh.backoff)
	lh.nextDial = e.cfg.Now().Add(lh.backoff)
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

// fetchLive fetches from all of a task's hosts at once (each in its
// host's worker) and waits for them, but no longer than the fetch
// timeout: a host that has not answered by then has unknown values this
// time.
func (e *Engine) fetchLive(t *task) {
	timeout := e.cfg.FetchTimeout
	if timeout <= 0 {
		timeout = time.Duration(t.delta * float64(time.Second))
	}
	started := e.started[:0]
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
		h.profile() // the worker is idle: h.ctx is the engine's now
		lh.start(fetchJob{ctx: h.ctx, ids: h.ids, res: &h.result, stats: e.stats.host(h.conn), limits: e.cfg.Limits})
		lh.mu.Unlock()
		started = append(started, h)
	}
	if len(started) > 0 {
		e.awaitFetches(started, timeout, timeout < time.Duration(t.delta*float64(time.Second)))
	}
	e.started = started[:0]
	for _, h := range t.hosts {
		h.distribute()
	}
}

// awaitFetches waits for the fetches started from hosts, no longer than
// timeout in all: those not done by then are abandoned, their values
// unknown this time (an error they end with is dealt with next time).
// short says the timeout ends before the task's next evaluation: its
// alarm is then cleared once the fetches are in (see alarm).
func (e *Engine) awaitFetches(hosts []*hostFetch, timeout time.Duration, short bool) {
	if e.alarm == nil {
		e.alarm = newAlarm()
	}
	gen := e.alarm.start(timeout)
	defer e.alarm.cancel(gen, short)
	timedOut := false
	for _, h := range hosts {
		var err error
		if timedOut {
			err, timedOut = h.live.abandon()
		} else {
			err, timedOut = h.live.wait(e.alarm.fired, gen)
		}
		if timedOut {
			h.err = errBusy
			continue
		}
		h.err = err
		if err != nil {
			e.lost(h, err)
		}
	}
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
	// the rules reading from the pmcd, in every task, and those of h's
	// metrics of other connections (hostKey)
	owns := h.owns()
	for _, t := range e.tasks {
		for _, r := range t.rules {
			if slices.ContainsFunc(r.Metrics, func(m *eval.Metric) bool { return m.Conn == h.conn || owns[m] }) {
				r.Invalidate()
			}
		}
	}
	e.reconnect(h)
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
