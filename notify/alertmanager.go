package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// amUpdate is the state of one Alertmanager alert to be sent: firing, or
// resolved at resolvedAt. A firing alert's endsAt is worked out as it is
// sent (time sent + resolve_timeout), never before: an alert that waited
// while Alertmanager was unreachable is not sent already ended.
type amUpdate struct {
	labels      map[string]string
	annotations map[string]string
	startsAt    time.Time
	resolvedAt  time.Time     // zero while firing
	extra       time.Duration // heartbeats: endsAt this much further ahead (until the next beat)
}

// amAlert is an alert in Alertmanager's API (postableAlert).
type amAlert struct {
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	StartsAt     string            `json:"startsAt"`
	EndsAt       string            `json:"endsAt"`
	GeneratorURL string            `json:"generatorURL,omitempty"`
}

// amNode keeps one Alertmanager told of the latest state of each alert.
// Updates are coalesced by alert: only the latest state of each waits to
// be sent, so a backlog after an outage is never a queue of stale states,
// and a failed post leaves its alerts waiting (unless newer states came)
// to be tried again.
type amNode struct {
	cfg    *ReceiverConfig
	url    string
	client *http.Client
	now    func() time.Time
	fails  *failures

	mu      sync.Mutex
	pending map[string]*amUpdate // by label set
	closing bool
	wake    chan struct{}
	done    chan struct{}

	sent, failed, dropped atomic.Int64
}

func newAMNode(cfg *ReceiverConfig, base string, client *http.Client, now func() time.Time, fails *failures, log func(string)) *amNode {
	return &amNode{cfg: cfg, url: strings.TrimRight(base, "/") + "/api/v2/alerts", client: client, now: now,
		fails: fails, pending: map[string]*amUpdate{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// put makes u the state of its alert to send, in place of any not yet
// sent. Beyond the receiver's queue size, a new alert is dropped.
func (nd *amNode) put(u *amUpdate) {
	fp := fingerprint(u.labels)
	nd.mu.Lock()
	_, waiting := nd.pending[fp]
	switch {
	case nd.closing:
		nd.dropped.Add(1)
	case !waiting && len(nd.pending) >= nd.cfg.Queue:
		nd.dropped.Add(1)
	default:
		nd.pending[fp] = u
	}
	nd.mu.Unlock()
	select {
	case nd.wake <- struct{}{}:
	default:
	}
}

// take takes every state waiting, in label set order.
func (nd *amNode) take() (fps []string, batch []*amUpdate, closing bool) {
	nd.mu.Lock()
	defer nd.mu.Unlock()
	for fp := range nd.pending {
		fps = append(fps, fp)
	}
	sort.Strings(fps)
	for _, fp := range fps {
		batch = append(batch, nd.pending[fp])
	}
	clear(nd.pending)
	return fps, batch, nd.closing
}

// restore puts back the states of a failed post, unless newer ones came.
func (nd *amNode) restore(fps []string, batch []*amUpdate) {
	nd.mu.Lock()
	defer nd.mu.Unlock()
	for i, fp := range fps {
		if _, newer := nd.pending[fp]; newer {
			continue
		}
		if len(nd.pending) >= nd.cfg.Queue {
			nd.dropped.Add(1)
			continue
		}
		nd.pending[fp] = batch[i]
	}
}

// run sends what waits whenever there is something, until closed (then
// it makes one last attempt) or ctx is done. After a failure it waits
// (the receiver's backoff, doubled each time, up to resend_interval)
// before trying again.
func (nd *amNode) run(ctx context.Context) {
	defer close(nd.done)
	wait := nd.cfg.Backoff
	for {
		select {
		case <-nd.wake:
		case <-ctx.Done():
			return
		}
		fps, batch, closing := nd.take()
		if len(batch) > 0 {
			if err := nd.post(ctx, batch); err != nil {
				nd.failed.Add(int64(len(batch)))
				nd.fails.failed(err.Error())
				if closing {
					return
				}
				nd.restore(fps, batch)
				if !sleep(ctx, wait) {
					return
				}
				wait = min(2*wait, nd.cfg.ResendInterval)
				select {
				case nd.wake <- struct{}{}:
				default:
				}
				continue
			}
			nd.sent.Add(int64(len(batch)))
			nd.fails.succeeded()
			wait = nd.cfg.Backoff
		}
		if closing {
			return
		}
	}
}

// sleep waits for d, or until ctx is done (false).
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// post sends a batch, working endsAt out at each attempt.
func (nd *amNode) post(ctx context.Context, batch []*amUpdate) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	return post(ctx, nd.client, nd.cfg, nd.url, func() ([]byte, error) {
		return json.Marshal(nd.alerts(batch, nd.now()))
	})
}

// alerts gives the batch in Alertmanager's form as sent at now.
func (nd *amNode) alerts(batch []*amUpdate, now time.Time) []amAlert {
	out := make([]amAlert, len(batch))
	for i, u := range batch {
		ends := u.resolvedAt
		if ends.IsZero() {
			ends = now.Add(nd.cfg.ResolveTimeout + u.extra)
		}
		out[i] = amAlert{Labels: validUTF8(u.labels), Annotations: validUTF8(u.annotations),
			StartsAt: u.startsAt.UTC().Format(time.RFC3339Nano), EndsAt: ends.UTC().Format(time.RFC3339Nano),
			GeneratorURL: nd.cfg.GeneratorURL}
	}
	return out
}

// validUTF8 replaces what is not UTF-8 in values (instance names come
// from the machines watched): Alertmanager refuses a whole batch for one
// such value.
func validUTF8(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = strings.ToValidUTF8(v, "\uFFFD")
	}
	return out
}

// close makes the node send what waits once more and stop, giving up
// when ctx is done.
func (nd *amNode) close(ctx context.Context) {
	nd.mu.Lock()
	nd.closing = true
	nd.mu.Unlock()
	select {
	case nd.wake <- struct{}{}:
	default:
	}
	select {
	case <-nd.done:
	case <-ctx.Done():
	}
}

func (nd *amNode) stats() Stats {
	nd.mu.Lock()
	waiting := len(nd.pending)
	nd.mu.Unlock()
	return Stats{Sent: int(nd.sent.Load()), Failed: int(nd.failed.Load()), Dropped: int(nd.dropped.Load()), Waiting: waiting}
}

// fingerprint is a label set as one string.
func fingerprint(labels map[string]string) string {
	var b strings.Builder
	for _, k := range sortedKeys(labels) {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(labels[k])
		b.WriteByte(0)
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
