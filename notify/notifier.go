package notify

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/gopcp/pmie/actions"
	"github.com/gopcp/pmie/notify/alert"
)

// sender delivers one alert to a receiver; it must give up when ctx is
// done.
type sender interface {
	send(ctx context.Context, a *Alert) error
}

// Options are what a Notifier needs from its caller.
type Options struct {
	// Log reports failures to send, drops and bad conditions; it may be
	// called from any goroutine.
	Log func(msg string)
	// Client makes HTTP requests; nil uses a client of its own (each
	// request has its receiver's timeout).
	Client *http.Client
}

// Notifier routes alerts to receivers and sends them in the background,
// each receiver from its own bounded queue.
type Notifier struct {
	cfg     *Config
	log     func(string)
	workers map[string]*worker
	wg      sync.WaitGroup
	ctx     context.Context // for sending; cancelled when Close gives up
	cancel  context.CancelFunc
	badCond atomic.Int64 // conditions that failed to run
}

type worker struct {
	name         string
	q            *queue
	s            sender
	sent, failed atomic.Int64
}

// Stats counts what happened to one receiver's alerts.
type Stats struct {
	Sent, Failed, Dropped, Waiting int
}

// New starts a Notifier for cfg.
func New(cfg *Config, opt Options) *Notifier {
	client := opt.Client
	if client == nil {
		client = &http.Client{}
	}
	senders := map[string]sender{}
	for _, r := range cfg.Receivers {
		switch r.Type {
		case "exec":
			senders[r.Name] = &execSender{cfg: r, log: opt.Log}
		case "webhook":
			senders[r.Name] = &webhook{cfg: r, client: client}
		case "alertmanager":
			senders[r.Name] = newAlertmanager(r, client)
		}
	}
	return start(cfg, opt.Log, senders)
}

// start runs a worker for each receiver of cfg, sending with senders.
func start(cfg *Config, log func(string), senders map[string]sender) *Notifier {
	if log == nil {
		log = func(string) {}
	}
	n := &Notifier{cfg: cfg, log: log, workers: map[string]*worker{}}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	for _, r := range cfg.Receivers {
		w := &worker{name: r.Name, q: newQueue(r.Queue), s: senders[r.Name]}
		n.workers[r.Name] = w
		n.wg.Add(1)
		go n.run(w)
	}
	return n
}

// Notify routes the alert for ev to its receivers' queues. It never waits
// for a receiver: it is called by the evaluator as each action fires.
func (n *Notifier) Notify(ev *actions.Event) {
	n.Send(FromEvent(ev, n.cfg.Labels))
}

// Send routes a to its receivers' queues.
func (n *Notifier) Send(a *Alert) {
	names, errs := match(n.cfg.Routes, n.cfg.Default, a)
	for _, e := range errs {
		if c := n.badCond.Add(1); alert.IsPowerOf10(c) {
			n.log(fmt.Sprintf("alerting: %s: routes[%d].condition: %v (%d failures so far; the route is skipped)",
				n.cfg.File, e.route, e.err, c))
		}
	}
	for _, name := range names {
		w := n.workers[name]
		if d := w.q.push(a); alert.IsPowerOf10(int64(d)) {
			n.log(fmt.Sprintf("alerting: receiver %s: queue full, oldest alert dropped (%d dropped so far)", name, d))
		}
	}
}

func (n *Notifier) run(w *worker) {
	defer n.wg.Done()
	for {
		a, ok := w.q.pop()
		if !ok {
			return
		}
		if n.ctx.Err() != nil {
			w.failed.Add(1)
			continue
		}
		if err := w.s.send(n.ctx, a); err != nil {
			w.failed.Add(1)
			n.log(fmt.Sprintf("alerting: receiver %s: rule %s: %v", w.name, a.Rule, err))
			continue
		}
		w.sent.Add(1)
	}
}

// Close stops taking alerts and sends those queued, giving up when ctx is
// done or the configuration's shutdown_timeout has passed; it reports the
// alerts that were dropped or not sent.
func (n *Notifier) Close(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, n.cfg.ShutdownTimeout)
	defer cancel()
	for _, w := range n.workers {
		w.q.close()
	}
	done := make(chan struct{})
	go func() {
		n.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		n.cancel() // senders give up; what is left is counted as failed
		<-done
	}
	n.cancel()
	lost := 0
	for _, s := range n.Stats() {
		lost += s.Dropped + s.Failed
	}
	if lost > 0 {
		return fmt.Errorf("alerting: %d alerts were dropped or could not be sent", lost)
	}
	return nil
}

// Stats gives each receiver's counts.
func (n *Notifier) Stats() map[string]Stats {
	out := map[string]Stats{}
	for name, w := range n.workers {
		waiting, dropped := w.q.counts()
		out[name] = Stats{Sent: int(w.sent.Load()), Failed: int(w.failed.Load()), Dropped: dropped, Waiting: waiting}
	}
	return out
}
