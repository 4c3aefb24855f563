package notify

import "sync"

// queue holds the alerts waiting for one receiver: at most its capacity,
// dropping the oldest to make room, so that a slow or stuck receiver
// never holds up the rules.
type queue struct {
	mu      sync.Mutex
	items   []*Alert // a ring of len = capacity
	head, n int
	dropped int
	closed  bool
	ready   chan struct{} // has a token while items may be waiting
}

func newQueue(capacity int) *queue {
	return &queue{items: make([]*Alert, capacity), ready: make(chan struct{}, 1)}
}

// push adds a, dropping the oldest alert if the queue is full; it reports
// the count of alerts dropped so far if it dropped one, else 0. After
// close it drops a.
func (q *queue) push(a *Alert) (dropped int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		q.dropped++
		return q.dropped
	}
	if q.n == len(q.items) {
		q.items[q.head] = nil
		q.head = (q.head + 1) % len(q.items)
		q.n--
		q.dropped++
		dropped = q.dropped
	}
	q.items[(q.head+q.n)%len(q.items)] = a
	q.n++
	select {
	case q.ready <- struct{}{}:
	default:
	}
	return dropped
}

// pop waits for the oldest alert and takes it; ok is false once the queue
// is closed and empty.
func (q *queue) pop() (a *Alert, ok bool) {
	for {
		q.mu.Lock()
		if q.n > 0 {
			a = q.items[q.head]
			q.items[q.head] = nil
			q.head = (q.head + 1) % len(q.items)
			q.n--
			q.mu.Unlock()
			return a, true
		}
		closed := q.closed
		q.mu.Unlock()
		if closed {
			return nil, false
		}
		<-q.ready
	}
}

// close lets pop return false once the queue is empty.
func (q *queue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.ready)
	}
}

// counts gives the alerts waiting and those dropped so far.
func (q *queue) counts() (waiting, dropped int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n, q.dropped
}
