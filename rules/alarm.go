package rules

import (
	"sync/atomic"
	"time"

	"github.com/gopcp/pmie/internal/waker"
)

// alarm tells the live engine that the time it waits for its hosts'
// fetches has passed. It waits in a goroutine of its own (started once,
// ended by stop) on a waker.Waker, not on a runtime timer: a runtime
// timer armed at every evaluation has the runtime's monitor thread wake
// for it at every evaluation too (see package waker).
type alarm struct {
	w         *waker.Waker
	set       chan alarmReq // deadlines to wait for
	fired     chan uint64   // the generation of a deadline passed
	gen       uint64        // of the last deadline set (engine's)
	cancelled atomic.Uint64 // the generation cancelled last: it and all before
}

// alarmReq is one deadline for the alarm.
type alarmReq struct {
	gen uint64
	at  time.Time
}

func newAlarm() *alarm {
	a := &alarm{w: waker.New(), set: make(chan alarmReq, 1), fired: make(chan uint64, 2)}
	go a.run()
	return a
}

// run waits for each deadline in turn, until stop. The engine cancels
// deadlines in the order it sets them, so a deadline is cancelled when its
// generation or a later one is: the cancel that woke the wait may be of
// this deadline's or already of the next (set and cancelled before this
// goroutine took it), and a deadline cancelled before it is taken is not
// waited for at all.
func (a *alarm) run() {
	for req := range a.set {
		for a.cancelled.Load() < req.gen {
			if !a.w.Wait(req.at) {
				if a.cancelled.Load() < req.gen {
					select {
					case a.fired <- req.gen:
					default: // cannot be: start empties it, and the engine waits
					}
				}
				break
			}
			// woken: by this deadline's cancel or by an earlier one's
		}
	}
	a.w.Close()
}

// start sets a deadline, d from now; it returns its generation, which
// fired gives when it passes.
func (a *alarm) start(d time.Duration) uint64 {
	for len(a.fired) > 0 {
		<-a.fired // earlier deadlines', passed as they were cancelled
	}
	a.gen++
	a.set <- alarmReq{a.gen, time.Now().Add(d)}
	return a.gen
}

// cancel ends the wait for deadline gen, if it has not passed.
func (a *alarm) cancel(gen uint64) {
	a.cancelled.Store(gen)
	a.w.Wake()
}

// stop ends the alarm's goroutine.
func (a *alarm) stop() { close(a.set) }
