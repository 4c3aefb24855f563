package notify

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopcp/pmie/actions"
	"github.com/gopcp/pmie/internal/nss"
	"github.com/gopcp/pmie/notify/alert"
)

// sender delivers one fired action's alert to an exec or webhook
// receiver; it must give up when ctx is done.
type sender interface {
	send(ctx context.Context, a *Alert) error
}

// Options are what a Notifier needs from its caller.
type Options struct {
	// Log reports failures to send, drops, recoveries and bad
	// conditions; it may be called from any goroutine.
	Log func(msg string)
	// Info reports what is worth knowing but went well: what an exec
	// receiver's program wrote on its standard error when it succeeded,
	// one line a call. nil uses Log.
	Info func(msg string)
	// Client makes HTTP requests; nil uses a client of its own (each
	// request has its receiver's timeout).
	Client *http.Client
	// Now is the clock alerts are sent by (endsAt is worked out from it
	// as each is sent); nil is the real clock. When replaying archives
	// it should follow the evaluations (see Replay).
	Now func() time.Time
	// Replay says evaluation follows an archive's clock, not the real
	// one: Alertmanager's endsAt follows the latest evaluation.
	Replay bool
	// Exec runs an exec receiver's program; nil runs it (see execSender).
	Exec func(ctx context.Context, r *ReceiverConfig, env []string, stdin []byte) error

	senders map[string]sender // tests: senders for exec and webhook receivers, by name
}

// Notifier routes alerts to receivers and sends them in the background,
// each receiver from its own bounded queue, and keeps Alertmanager told
// of the alerts of the rules it tracks: firing while the rule is true,
// resolved when it stops (see lifecycle.go). Its configuration can be
// replaced while it runs (Apply): receivers whose settings are unchanged
// carry on with their queues and counts.
type Notifier struct {
	opt     Options
	log     func(string)
	badCond atomic.Int64 // conditions that failed to run
	evalNow atomic.Int64 // latest evaluation, unix nanoseconds (Replay)

	mu        sync.Mutex
	cfg       *Config
	recvs     map[string]*receiver
	track     map[string]*tracked // by rule key
	stopBeats func()
	beatStart map[string]time.Time // when each heartbeat first beat
	closed    bool
	retired   sync.WaitGroup // receivers replaced, still sending
}

// transport is http.DefaultTransport's settings, its connections dialled
// so that receivers' hosts are found as the C library finds them, also in
// a build without it (internal/nss).
func transport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nss.Dial(ctx, d, network, addr)
	}
	return t
}

// New starts a Notifier for cfg.
func New(cfg *Config, opt Options) *Notifier {
	if opt.Client == nil {
		opt.Client = &http.Client{Transport: transport()}
	}
	if opt.Log == nil {
		opt.Log = func(string) {}
	}
	if opt.Info == nil {
		opt.Info = opt.Log
	}
	n := &Notifier{opt: opt, log: opt.Log, recvs: map[string]*receiver{}, track: map[string]*tracked{},
		beatStart: map[string]time.Time{}}
	if opt.Now == nil {
		n.opt.Now = time.Now
		if opt.Replay {
			n.opt.Now = func() time.Time { return time.Unix(0, n.evalNow.Load()) }
		}
	}
	n.Apply(cfg)
	return n
}

// Apply puts cfg in force. Receivers whose settings are unchanged keep
// running; the others are started, and those no longer configured finish
// sending what they hold in the background (within shutdown_timeout).
func (n *Notifier) Apply(cfg *Config) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	if n.stopBeats != nil {
		n.stopBeats()
	}
	old := n.recvs
	n.recvs = map[string]*receiver{}
	for i := range cfg.Receivers {
		rc := &cfg.Receivers[i]
		if r := old[rc.Name]; r != nil && reflect.DeepEqual(r.cfg, *rc) {
			n.recvs[rc.Name] = r
			delete(old, rc.Name)
			continue
		}
		n.recvs[rc.Name] = n.startReceiver(*rc)
	}
	for _, r := range old {
		n.retire(r, cfg.ShutdownTimeout)
	}
	relabel := n.cfg != nil && !reflect.DeepEqual(n.cfg.Labels, cfg.Labels)
	n.cfg = cfg
	n.retrack(relabel)
	n.stopBeats = startHeartbeats(cfg, n.beat)
}

// retire stops a receiver that is no longer configured, letting it send
// what it holds within timeout.
func (n *Notifier) retire(r *receiver, timeout time.Duration) {
	n.retired.Add(1)
	go func() {
		defer n.retired.Done()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		r.close(ctx)
	}()
}

// Route gives the receivers for a, as the routes in force say, leaving
// out those of routes muted now.
func (n *Notifier) route(cfg *Config, a *Alert) []string {
	names, errs := match(cfg, a, n.opt.Now())
	for _, e := range errs {
		if c := n.badCond.Add(1); alert.IsPowerOf10(c) {
			n.log(fmt.Sprintf("alerting: %s: routes[%d].condition: %v (%d failures so far; the route is skipped)",
				cfg.File, e.route, e.err, c))
		}
	}
	return names
}

// Send routes a fired action's alert to its receivers' queues (exec and
// webhook receivers get it as it is; see Evaluated for Alertmanager).
// It never waits for a receiver.
func (n *Notifier) Send(a *Alert) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, name := range n.route(n.cfg, a) {
		if r := n.recvs[name]; r != nil && r.q != nil {
			r.push(a, n.log)
		}
	}
}

// Notify sends the alert for a fired action as Send does.
func (n *Notifier) Notify(ev *actions.Event) { n.Send(n.AlertFor(ev)) }

// AlertFor makes the alert for a fired action, with the labels in force.
// It computes the action's bindings, so it must be called while the
// rule's values are current.
func (n *Notifier) AlertFor(ev *actions.Event) *Alert {
	n.mu.Lock()
	labels := n.cfg.Labels
	n.mu.Unlock()
	return FromEvent(ev, labels)
}

// Close stops taking alerts and sends those queued, giving up when ctx is
// done or the configuration's shutdown_timeout has passed; it reports the
// alerts that were dropped or not sent. Alerts firing in Alertmanager are
// left firing: pmie stopping does not mean their rules stopped being
// true (Alertmanager resolves them at their endsAt if pmie does not come
// back).
func (n *Notifier) Close(ctx context.Context) error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	if n.stopBeats != nil {
		n.stopBeats()
	}
	recvs := n.recvs
	timeout := n.cfg.ShutdownTimeout
	n.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, r := range recvs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.close(ctx)
		}()
	}
	wg.Wait()
	n.retired.Wait()
	lost := 0
	for _, r := range recvs {
		s := r.stats()
		lost += s.Dropped + s.Failed
	}
	if lost > 0 {
		return fmt.Errorf("alerting: %d alerts were dropped or could not be sent", lost)
	}
	return nil
}

// Stats counts what happened to one receiver's alerts.
type Stats struct {
	Sent, Failed, Dropped, Waiting int
}

// Stats gives each receiver's counts.
func (n *Notifier) Stats() map[string]Stats {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := map[string]Stats{}
	for name, r := range n.recvs {
		out[name] = r.stats()
	}
	return out
}

// Config is the configuration in force.
func (n *Notifier) Config() *Config {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.cfg
}
