package waker

import "time"

// Timer is a timer set from one goroutine and waited for in another,
// without a timer of the Go runtime where it can (a timer descriptor, as
// Waker's). Setting it again replaces the time it was set for, and Clear
// disarms it, each with one system call and no wake-up of the waiting
// goroutine: a deadline that is met is simply set anew or cleared, where
// cancelling a wait would wake its waiter.
//
// Wait may return for an expiry of an earlier setting that raced with
// Set: the waiter checks the time against what it waits for.
type Timer struct {
	fd     *timerFD    // nil: a runtime timer
	tm     *time.Timer // for the runtime timer's wait
	closed chan struct{}
}

// NewTimer makes a Timer, not set.
func NewTimer() *Timer {
	t := &Timer{fd: newTimerFD(), closed: make(chan struct{})}
	if t.fd == nil {
		t.tm = time.NewTimer(time.Hour)
		t.tm.Stop()
	}
	return t
}

// Set makes the timer expire once, d from now (at once if d <= 0),
// replacing any earlier setting.
func (t *Timer) Set(d time.Duration) {
	d = max(d, time.Nanosecond)
	if t.fd != nil {
		t.fd.arm(d)
		return
	}
	t.tm.Reset(d)
}

// Clear disarms the timer.
func (t *Timer) Clear() {
	if t.fd != nil {
		t.fd.arm(0)
		return
	}
	t.tm.Stop()
}

// Wait waits until the timer expires; it reports false once the Timer
// is closed (or its descriptor fails).
func (t *Timer) Wait() bool {
	if t.fd != nil {
		return t.fd.block()
	}
	select {
	case <-t.tm.C:
		return true
	case <-t.closed:
		return false
	}
}

// Close ends the Timer, and a Wait in progress with it. It is called
// once.
func (t *Timer) Close() {
	close(t.closed)
	if t.fd != nil {
		t.fd.close()
	}
}
