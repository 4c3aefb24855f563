package daemon

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopcp/pmie/actions"
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/notify"
	"github.com/gopcp/pmie/rules"
)

// Options are what a Daemon needs from pmie.
type Options struct {
	// Log reports messages in pmie's log (from any goroutine).
	Log func(level rules.Level, msg string)
	// Listen is the HTTP endpoint's address given on the command line
	// (--web.listen-address), which wins over the file's.
	Listen string
	// Alerts says whether alerts are sent (not when archives are read,
	// unless --replay-alerts).
	Alerts bool
	// Replay says evaluation follows archives' clock.
	Replay bool
	// MMVDir is where the MMV file goes; "" is $PCP_TMP_DIR/mmv.
	MMVDir string
	// Now is the real clock; nil is time.Now.
	Now func() time.Time
}

// Daemon is what pmie runs beside its rules when it has a daemon
// configuration: alerting (package notify), the HTTP endpoint, the
// self-metrics as Prometheus text and as an MMV file, and the state of
// the rules they show. It is configured again at each reload (Prepare,
// then Apply as the rules switch).
type Daemon struct {
	opt   Options
	stats *rules.Stats
	start time.Time

	cfg      atomic.Pointer[Config]
	notifier atomic.Pointer[notify.Notifier]
	reloader atomic.Pointer[rules.Reloader]
	ready    atomic.Bool

	fired map[string][]*notify.Alert // by rule, until its group is evaluated: engine goroutine only
	view  *view

	srvMu sync.Mutex
	srv   *server
	mmv   *mmvExport
	bg    sync.WaitGroup // notifiers retired at reloads, still sending
}

// New starts a Daemon on cfg: alerting if cfg has it (and opt.Alerts),
// the HTTP endpoint if an address is given, the MMV file if cfg names
// one. stats are the engine's counts.
func New(cfg *Config, stats *rules.Stats, opt Options) (*Daemon, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Log == nil {
		opt.Log = func(rules.Level, string) {}
	}
	d := &Daemon{opt: opt, stats: stats, start: opt.Now(), fired: map[string][]*notify.Alert{}, view: newView()}
	d.cfg.Store(cfg)
	if addr := d.listenAddr(cfg); addr != "" {
		srv, err := d.listen(addr)
		if err != nil {
			return nil, err
		}
		d.srv = srv
	}
	if cfg.Alerting != nil && opt.Alerts {
		d.notifier.Store(d.newNotifier(cfg.Alerting))
	}
	if cfg.MMV != "" && !opt.Replay {
		d.mmv = newMMVExport(d, cfg.MMV)
	}
	stats.AfterEval(d.afterEval)
	return d, nil
}

// newNotifier starts alerting.
func (d *Daemon) newNotifier(cfg *notify.Config) *notify.Notifier {
	return notify.New(cfg, notify.Options{Replay: d.opt.Replay,
		Log: func(msg string) { d.opt.Log(rules.Error, msg) }})
}

// listenAddr is the HTTP endpoint's address: the command line's, else
// the file's.
func (d *Daemon) listenAddr(cfg *Config) string {
	if d.opt.Listen != "" {
		return d.opt.Listen
	}
	return cfg.Listen
}

// Addr is the HTTP endpoint's address, or "" if there is none.
func (d *Daemon) Addr() string {
	d.srvMu.Lock()
	defer d.srvMu.Unlock()
	if d.srv == nil {
		return ""
	}
	return d.srv.ln.Addr().String()
}

// SetFiles records which file each rule (by key) came from, for the API.
func (d *Daemon) SetFiles(files map[string]string) { d.view.setFiles(files) }

// SetReloader gives the HTTP endpoint's POST /-/reload its reloader.
func (d *Daemon) SetReloader(r *rules.Reloader) { d.reloader.Store(r) }

// Observe has the engine configured by cfg tell the Daemon of its
// evaluations and of rules removed by reloads.
func (d *Daemon) Observe(cfg *rules.Config) {
	prev := cfg.Evaluated
	cfg.Evaluated = func(now float64, rs []*eval.Rule) {
		if prev != nil {
			prev(now, rs)
		}
		d.evaluated(now, rs)
	}
	cfg.Removed = d.removed
}

// Fired is given each action the rules run (actions.Runner.Notify), as
// it runs: the alert for it is made at once, while the rule's values are
// current, and routed when the rule's evaluation is complete.
func (d *Daemon) Fired(ev *actions.Event) {
	n := d.notifier.Load()
	if n == nil {
		return
	}
	d.fired[ev.Rule] = append(d.fired[ev.Rule], n.AlertFor(ev))
}

// timeOf converts seconds since the epoch to a time.Time.
func timeOf(sec float64) time.Time {
	s, f := math.Modf(sec)
	return time.Unix(int64(s), int64(math.Round(f*1e6))*1e3).UTC()
}

// evaluated follows an evaluation of a group of rules.
func (d *Daemon) evaluated(now float64, rs []*eval.Rule) {
	d.ready.Store(true)
	t := timeOf(now)
	n := d.notifier.Load()
	watched := d.Addr() != ""
	for _, r := range rs {
		if watched {
			d.view.record(r, t)
		}
		if n == nil || !r.HasActions() {
			continue
		}
		fired := d.fired[r.Name]
		if fired != nil {
			delete(d.fired, r.Name)
		}
		n.Evaluated(&notify.Evaluation{Key: r.Key, Rule: r.Name, Time: t, Truth: truthOf(r.Truth()),
			Bindings: func() []notify.Binding { return bindingsOf(r) }, Fired: fired})
	}
}

// truthOf is an evaluation's truth for notify.
func truthOf(t eval.Truth) notify.Truth {
	switch t {
	case eval.True:
		return notify.True
	case eval.False:
		return notify.False
	}
	return notify.Unknown
}

// bindingsOf gives r's bindings for notify.
func bindingsOf(r *eval.Rule) []notify.Binding {
	bs := r.Bindings()
	out := make([]notify.Binding, len(bs))
	for i, b := range bs {
		out[i] = notify.Binding{Host: b.Host, Inst: b.Inst, Value: b.Value}
	}
	return out
}

// removed follows the rules a reload removed.
func (d *Daemon) removed(rs []*eval.Rule, now float64) {
	keys := make([]string, len(rs))
	for i, r := range rs {
		keys[i] = r.Key
	}
	d.view.remove(keys)
	if n := d.notifier.Load(); n != nil {
		n.Removed(keys, timeOf(now))
	}
}

// Prepared is a configuration made ready to be put in force by a reload:
// what could fail (taking the HTTP endpoint's new address) is done.
type Prepared struct {
	cfg   *Config
	srv   *server // a new HTTP endpoint, when its address changes
	files map[string]string
}

// Prepare gets cfg ready to replace the configuration in force; files
// says which file each rule (by key) came from, for the API. The result
// must be given to Apply or Discard.
func (d *Daemon) Prepare(cfg *Config, files map[string]string) (*Prepared, error) {
	p := &Prepared{cfg: cfg, files: files}
	if addr := d.listenAddr(cfg); addr != "" && (addr != d.listenAddr(d.cfg.Load()) || d.Addr() == "") {
		srv, err := d.listen(addr)
		if err != nil {
			return nil, err
		}
		p.srv = srv
	}
	return p, nil
}

// Discard releases what Prepare took, for a configuration not put in
// force.
func (d *Daemon) Discard(p *Prepared) {
	if p.srv != nil {
		p.srv.close(context.Background())
	}
}

// Apply puts a prepared configuration in force (on the engine's
// goroutine, as the rules switch).
func (d *Daemon) Apply(p *Prepared) {
	old := d.cfg.Load()
	cfg := p.cfg
	d.cfg.Store(cfg)
	d.view.setFiles(p.files)
	if p.srv != nil || d.listenAddr(cfg) == "" {
		d.srvMu.Lock()
		prev := d.srv
		d.srv = p.srv
		d.srvMu.Unlock()
		if prev != nil {
			d.bg.Add(1)
			go func() {
				defer d.bg.Done()
				prev.close(context.Background())
			}()
		}
	}
	n := d.notifier.Load()
	switch {
	case cfg.Alerting != nil && !d.opt.Alerts:
	case cfg.Alerting != nil && n != nil:
		n.Apply(cfg.Alerting)
	case cfg.Alerting != nil:
		d.notifier.Store(d.newNotifier(cfg.Alerting))
	case n != nil:
		d.notifier.Store(nil)
		d.bg.Add(1)
		go func() {
			defer d.bg.Done()
			if err := n.Close(context.Background()); err != nil {
				d.opt.Log(rules.Error, err.Error())
			}
		}()
	}
	if cfg.MMV != old.MMV && !d.opt.Replay {
		if d.mmv != nil {
			d.mmv.close()
			d.mmv = nil
		}
		if cfg.MMV != "" {
			d.mmv = newMMVExport(d, cfg.MMV)
		}
	}
}

// Close stops the HTTP endpoint, removes the MMV file, and has alerting
// send what it holds (within its shutdown_timeout); it reports alerts
// lost.
func (d *Daemon) Close(ctx context.Context) error {
	d.srvMu.Lock()
	srv := d.srv
	d.srv = nil
	d.srvMu.Unlock()
	if srv != nil {
		srv.close(ctx)
	}
	var err error
	if n := d.notifier.Load(); n != nil {
		err = n.Close(ctx)
	}
	d.bg.Wait()
	if d.mmv != nil {
		d.mmv.close()
	}
	return err
}

// afterEval brings the MMV file up to date.
func (d *Daemon) afterEval() {
	if d.mmv != nil {
		d.mmv.update(false)
	}
}

// server is a running HTTP endpoint.
type server struct {
	ln   net.Listener
	http *http.Server
	done chan struct{}
}

// listen starts the HTTP endpoint on addr.
func (d *Daemon) listen(addr string) (*server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--web.listen-address: %v", err)
	}
	s := &server{ln: ln, done: make(chan struct{}),
		http: &http.Server{Handler: d.handler(), ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout: 30 * time.Second, WriteTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute}}
	go func() {
		defer close(s.done)
		s.http.Serve(ln)
	}()
	return s, nil
}

// close stops the endpoint, letting requests in progress finish until
// ctx is done.
func (s *server) close(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if s.http.Shutdown(ctx) != nil {
		s.http.Close()
	}
	<-s.done
}
