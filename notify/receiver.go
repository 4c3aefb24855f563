package notify

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/gopcp/pmie/notify/alert"
)

// receiver is one configured receiver running: exec and webhook
// receivers send fired actions from a queue, one at a time; an
// alertmanager receiver keeps each of its Alertmanagers told of the
// alerts' states (amNode).
type receiver struct {
	cfg   ReceiverConfig
	fails *failures

	// exec and webhook
	q            *queue
	s            sender
	sent, failed atomic.Int64
	done         chan struct{}
	ctx          context.Context // for sending; cancelled when Close gives up
	cancel       context.CancelFunc

	// alertmanager
	nodes []*amNode
}

// startReceiver starts sending for rc.
func (n *Notifier) startReceiver(rc ReceiverConfig) *receiver {
	r := &receiver{cfg: rc, fails: newFailures(rc.Name, n.log, n.opt.Now)}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	switch rc.Type {
	case "alertmanager":
		for _, u := range rc.URLs {
			nd := newAMNode(&r.cfg, u, n.opt.Client, n.opt.Now, r.fails, n.log)
			r.nodes = append(r.nodes, nd)
			go nd.run(r.ctx)
		}
		return r
	case "exec":
		r.s = &execSender{cfg: &r.cfg, info: n.opt.Info, run: n.opt.Exec}
	case "webhook":
		r.s = &webhook{cfg: &r.cfg, client: n.opt.Client}
	}
	if s := n.opt.senders[rc.Name]; s != nil {
		r.s = s
	}
	r.q = newQueue(rc.Queue)
	r.done = make(chan struct{})
	go r.run()
	return r
}

// push queues a fired action's alert.
func (r *receiver) push(a *Alert, log func(string)) {
	if d := r.q.push(a); alert.IsPowerOf10(int64(d)) {
		log(fmt.Sprintf("alerting: receiver %s: queue full, oldest alert dropped (%d dropped so far)", r.cfg.Name, d))
	}
}

// run sends the queued alerts, one at a time.
func (r *receiver) run() {
	defer close(r.done)
	for {
		a, ok := r.q.pop()
		if !ok {
			return
		}
		if r.ctx.Err() != nil {
			r.failed.Add(1)
			continue
		}
		if err := safeSend(r.ctx, r.s, a); err != nil {
			r.failed.Add(1)
			r.fails.failed(fmt.Sprintf("rule %s: %v", a.Rule, err))
			continue
		}
		r.sent.Add(1)
		r.fails.succeeded()
	}
}

// safeSend sends a, turning a panic in the sender into an error: one bad
// alert must not stop a receiver.
func safeSend(ctx context.Context, s sender, a *Alert) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	return s.send(ctx, a)
}

// close stops taking alerts and sends what is held, giving up when ctx is
// done.
func (r *receiver) close(ctx context.Context) {
	if r.q != nil {
		r.q.close()
		select {
		case <-r.done:
		case <-ctx.Done():
			r.cancel() // the sender gives up; what is left is counted as failed
			<-r.done
		}
	}
	var wg sync.WaitGroup
	for _, nd := range r.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nd.close(ctx)
		}()
	}
	wg.Wait()
	r.cancel()
}

// stats gives the receiver's counts.
func (r *receiver) stats() Stats {
	if r.q != nil {
		waiting, dropped := r.q.counts()
		return Stats{Sent: int(r.sent.Load()), Failed: int(r.failed.Load()), Dropped: dropped, Waiting: waiting}
	}
	var s Stats
	for _, nd := range r.nodes {
		ns := nd.stats()
		s.Sent += ns.Sent
		s.Failed += ns.Failed
		s.Dropped += ns.Dropped
		s.Waiting += ns.Waiting
	}
	return s
}
