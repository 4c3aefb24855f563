//go:build !linux

package waker

import "time"

// timerFD is not available: Waker waits on runtime timers.
type timerFD struct{}

func newTimerFD() *timerFD                { return nil }
func (t *timerFD) arm(time.Duration) bool { return false }
func (t *timerFD) block() bool            { return false }
func (t *timerFD) fire()                  {}
func (t *timerFD) close()                 {}
