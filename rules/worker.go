package rules

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// liveHost is the connection state of a live hostFetch. Its fetches run
// in a worker goroutine of its own, started once and kept (so that a slow
// or dead host holds up only its own values, and the steady state starts
// no goroutine and grows no stack); reconnections run in the background.
type liveHost struct {
	mu         sync.Mutex
	busy       bool          // a fetch is in flight
	waited     bool          // the engine waits for it (not abandoned)
	connecting bool          // a reconnection is in flight
	pending    pmapi.Context // a new connection waiting to be adopted
	failed     error         // why a first connection failed, to report
	closed     bool          // the engine has stopped: close what comes
	lateErr    error         // error of a fetch that finished too late
	backoff    time.Duration // Config.Backoff's wait after the last failure to connect
	nextDial   time.Time     // no attempt to connect before this

	work    chan fetchJob // to the worker; nil until it starts
	done    chan error    // the result of the fetch the engine waits for
	stopped bool          // the worker has been told to end
}

// workersStarted counts the fetch workers started (for tests: one per
// host connection, none per fetch).
var workersStarted atomic.Int64

// fetchJob is one fetch for a host's worker.
type fetchJob struct {
	ctx    pmapi.Context
	ids    []pmapi.PMID
	res    *pmapi.Result
	stats  *hostCounters
	limits *Limits // shared with other engines: a fetch waits for its turn
}

// start hands the worker a fetch, starting the worker if need be, and
// marks the host busy until the engine has its result or abandons it.
// The caller holds lh.mu and has checked that lh is not busy.
func (lh *liveHost) start(j fetchJob) {
	if lh.work == nil {
		lh.work = make(chan fetchJob, 1)
		lh.done = make(chan error, 1)
		workersStarted.Add(1)
		go lh.worker(lh.work)
	}
	lh.busy, lh.waited = true, true
	lh.work <- j // never waits: the worker is idle when lh is not busy
}

// worker runs the fetches it is given until its channel is closed.
func (lh *liveHost) worker(work <-chan fetchJob) {
	for j := range work {
		turn := j.limits.fetching()
		t := time.Now()
		err := j.ctx.Fetch(j.ids, j.res)
		j.stats.fetched(time.Since(t), err)
		turn()
		lh.finish(j.ctx, err)
	}
}

// finish delivers a fetch's result to the engine if it waits for it;
// otherwise (abandoned) the host is free again, with the error, if any,
// for the next evaluation, and the connection is closed if the engine has
// stopped meanwhile.
func (lh *liveHost) finish(ctx pmapi.Context, err error) {
	lh.mu.Lock()
	defer lh.mu.Unlock()
	if lh.waited {
		lh.done <- err // buffered: the engine takes it
		return
	}
	lh.busy = false
	switch {
	case lh.closed:
		ctx.Close() // closeAll left it to the worker
	case err != nil:
		lh.lateErr = err
	}
}

// wait waits for the result of the fetch in flight until the deadline
// of generation gen fires; it reports the fetch's error, or timedOut
// when it has not ended, in which case it is abandoned (see finish).
func (lh *liveHost) wait(fired <-chan uint64, gen uint64) (err error, timedOut bool) {
	for {
		select {
		case err = <-lh.done:
			lh.taken()
			return err, false
		case g := <-fired:
			if g == gen {
				return lh.abandon()
			}
			// an earlier deadline's, passed as it was cancelled
		}
	}
}

// abandon stops waiting for the fetch in flight, unless it has just
// ended: then it reports its error.
func (lh *liveHost) abandon() (err error, timedOut bool) {
	lh.mu.Lock()
	defer lh.mu.Unlock()
	select {
	case err = <-lh.done:
		lh.busy, lh.waited = false, false
		return err, false
	default:
	}
	lh.waited = false
	return nil, true
}

// isBusy reports whether a fetch is in flight.
func (lh *liveHost) isBusy() bool {
	lh.mu.Lock()
	defer lh.mu.Unlock()
	return lh.busy
}

// taken marks the fetch whose result the engine has taken over.
func (lh *liveHost) taken() {
	lh.mu.Lock()
	lh.busy, lh.waited = false, false
	lh.mu.Unlock()
}

// stop ends the worker (once its fetch in flight, if any, has ended) and
// closes ctx, now or, if a fetch uses it, when the fetch ends.
func (lh *liveHost) stop(ctx pmapi.Context) {
	lh.mu.Lock()
	defer lh.mu.Unlock()
	lh.closed = true
	if lh.work != nil && !lh.stopped {
		close(lh.work)
		lh.stopped = true
	}
	if ctx != nil && !lh.busy {
		ctx.Close()
	}
	if lh.pending != nil {
		lh.pending.Close()
		lh.pending = nil
	}
}
