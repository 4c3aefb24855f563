package rules

import (
	"sync"
	"time"

	"github.com/gopcp/pmie/internal/waker"
)

// alarm tells the live engine that the time it waits for its hosts'
// fetches has passed. Its goroutine (started once, ended by stop) waits
// on a waker.Timer, which the engine sets itself for each deadline: a
// deadline set and met costs one system call and wakes nothing. The
// engine does not cancel the timer when its fetches end in time, for that
// would wake the alarm's goroutine (and, once the engine sleeps, the
// thread) at every evaluation; the next deadline replaces it before it
// expires (a fetch timeout of the interval, the default, expires after
// the next evaluation starts), or, for a shorter timeout, the engine
// clears it. An expiry for a deadline met, or raced by the next setting,
// is checked against the time and the deadline waited for, and ignored.
type alarm struct {
	t     *waker.Timer
	fired chan uint64 // the generation of a deadline passed

	mu   sync.Mutex
	gen  uint64    // of the last deadline set
	want uint64    // the deadline waited for; 0 when none is
	at   time.Time // want's time
}

func newAlarm() *alarm {
	a := &alarm{t: waker.NewTimer(), fired: make(chan uint64, 2)}
	go a.run()
	return a
}

// run waits for the timer's expiries until stop, passing on the
// deadline waited for if its time has come.
func (a *alarm) run() {
	for a.t.Wait() {
		now := time.Now()
		a.mu.Lock()
		g := a.want
		if g != 0 && !now.Before(a.at) {
			a.want = 0
		} else {
			g = 0
		}
		a.mu.Unlock()
		if g != 0 {
			select {
			case a.fired <- g:
			default: // cannot be: start empties it, and one fires a deadline
			}
		}
	}
}

// start sets a deadline, d from now; it returns its generation, which
// fired gives when it passes.
func (a *alarm) start(d time.Duration) uint64 {
	for len(a.fired) > 0 {
		<-a.fired // earlier deadlines', passed as they were cancelled
	}
	a.mu.Lock()
	a.gen++
	a.want, a.at = a.gen, time.Now().Add(d)
	gen := a.gen
	a.mu.Unlock()
	a.t.Set(d)
	return gen
}

// cancel stops waiting for deadline gen, if it has not passed. The timer
// stays set, unless clear: a deadline that would expire before the next
// one is set (a fetch timeout shorter than the interval) is cleared, so
// that it wakes nothing.
func (a *alarm) cancel(gen uint64, clear bool) {
	a.mu.Lock()
	if a.want == gen {
		a.want = 0
	}
	a.mu.Unlock()
	if clear {
		a.t.Clear()
	}
}

// stop ends the alarm's goroutine.
func (a *alarm) stop() { a.t.Close() }
