package notify

import (
	"fmt"
	"sync"
	"time"
)

// failureEvery is the least time between two messages about one
// receiver's failures: the first failure is logged at once, the ones
// after it are counted and summed up at most this often.
const failureEvery = time.Minute

// failures logs a receiver's failures without flooding the log, and
// says when the receiver works again.
type failures struct {
	name string
	log  func(string)
	now  func() time.Time

	mu       sync.Mutex
	since    time.Time // first failure of the current run of them; zero if none
	count    int       // failures in the current run
	unlogged int       // failures since the last message
	lastLog  time.Time
	last     string // the latest failure not yet logged
}

func newFailures(name string, log func(string), now func() time.Time) *failures {
	return &failures{name: name, log: log, now: now}
}

// failed records a failure, logging it unless one was logged less than
// failureEvery ago (then it is counted for the next message).
func (f *failures) failed(msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	if f.count == 0 {
		f.since = now
	}
	f.count++
	if !f.lastLog.IsZero() && now.Sub(f.lastLog) < failureEvery {
		f.unlogged++
		f.last = msg
		return
	}
	if f.unlogged > 0 {
		msg = fmt.Sprintf("%s (and %d more failures since the last message)", msg, f.unlogged)
	}
	f.log("alerting: receiver " + f.name + ": " + msg)
	f.lastLog, f.unlogged, f.last = now, 0, ""
}

// succeeded records a success, saying so if it ends a run of failures.
func (f *failures) succeeded() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.count == 0 {
		return
	}
	msg := fmt.Sprintf("alerting: receiver %s: sending again after %d failures since %s",
		f.name, f.count, f.since.Format(time.RFC3339))
	if f.unlogged > 0 {
		msg += fmt.Sprintf(" (the last not logged: %s)", f.last)
	}
	f.log(msg)
	f.count, f.unlogged, f.last, f.lastLog = 0, 0, "", time.Time{}
}
