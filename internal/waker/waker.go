package waker

import (
	"sync/atomic"
	"time"
)

// Waker waits until a time or until Wake.
type Waker struct {
	woken atomic.Bool
	wake  chan struct{} // for the runtime timer's wait
	fd    *timerFD      // nil: wait on a runtime timer
}

// New makes a Waker.
func New() *Waker {
	w := &Waker{wake: make(chan struct{}, 1)}
	w.fd = newTimerFD()
	return w
}

// Wait waits until t, or until Wake is called (or was called since the
// last Wait returned), and reports whether it was woken.
func (w *Waker) Wait(t time.Time) (woken bool) {
	for {
		if w.woken.Swap(false) {
			return true
		}
		d := time.Until(t)
		if d <= 0 {
			return false
		}
		if w.fd != nil && w.fd.arm(d) {
			// a Wake from now on makes the timer expire at once
			if !w.woken.Load() && w.fd.block() {
				continue
			}
			if w.woken.Load() {
				continue
			}
		}
		w.timerWait(d)
	}
}

// timerWait waits d on a runtime timer, or until Wake.
func (w *Waker) timerWait(d time.Duration) {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
	case <-w.wake:
	}
}

// Wake ends the wait in progress, or the next one if none is.
func (w *Waker) Wake() {
	w.woken.Store(true)
	if w.fd != nil {
		w.fd.fire()
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Close releases the Waker's descriptor.
func (w *Waker) Close() {
	if w.fd != nil {
		w.fd.close()
	}
}
