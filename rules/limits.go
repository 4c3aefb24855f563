package rules

import "time"

// Limits bounds the work live hosts do at once: connections being made
// (each a connection and pmcd's first answers) and fetches in flight.
// One Limits may be shared by many engines (a fleet's members), so that
// thousands of hosts evaluated in one process never open thousands of
// connections, or wait on thousands of fetches, at the same moment. A
// fetch waiting for its turn counts against its evaluation's timeout, as
// a slow host does.
type Limits struct {
	connect, fetch chan struct{}
}

// NewLimits makes limits of connections connections being made and
// fetches fetches in flight at once (0: no limit).
func NewLimits(connections, fetches int) *Limits {
	l := &Limits{}
	if connections > 0 {
		l.connect = make(chan struct{}, connections)
	}
	if fetches > 0 {
		l.fetch = make(chan struct{}, fetches)
	}
	return l
}

// Dial runs open, which connects to a host, within the limit of
// connections.
func (l *Limits) Dial(open func()) {
	if l != nil && l.connect != nil {
		l.connect <- struct{}{}
		defer func() { <-l.connect }()
	}
	open()
}

// fetching waits for a fetch's turn; the function returned ends it.
func (l *Limits) fetching() (done func()) {
	if l == nil || l.fetch == nil {
		return func() {}
	}
	l.fetch <- struct{}{}
	return func() { <-l.fetch }
}

// Backoff is how long an engine waits between attempts to reach a host
// that cannot be reached: Min after the first failure, twice as long
// after each further one, up to Max. The zero Backoff tries again at
// every evaluation of the host's rules (pmie's engine without libpcp's
// waits; see the README).
type Backoff struct {
	Min, Max time.Duration
}

// next is the wait after a failure that followed a wait of last.
func (b Backoff) next(last time.Duration) time.Duration {
	if b.Min <= 0 {
		return 0
	}
	w := max(2*last, b.Min)
	if b.Max > 0 && w > b.Max {
		w = b.Max
	}
	return w
}
