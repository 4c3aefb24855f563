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
	"github.com/gopcp/pmie/daemon/wire"
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/notify/alert"
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
	// StartAlerter starts alerting on a configuration (file contents
	// yaml) that has it.
	StartAlerter func(s *wire.Settings, yaml []byte) Alerter
}

// Alerter is alerting as the Daemon drives it: routing and sending run
// in pmie-notify, a process of its own (see rules/doc.go for why).
type Alerter interface {
	// Evaluated is told of an evaluation of rules with actions: their
	// truths, bindings and the alerts of the actions they fired. It
	// must not wait.
	Evaluated(t time.Time, rules []wire.Rule)
	// Removed is told of the rules a reload removed.
	Removed(keys []string, t time.Time)
	// Configure puts a new configuration in force (a reload).
	Configure(s *wire.Settings, yaml []byte)
	// Stats gives each receiver's counts, as last heard.
	Stats() map[string]wire.ReceiverStats
	// Close has what is queued sent (within the configuration's
	// shutdown_timeout) and stops alerting, reporting alerts lost.
	Close(ctx context.Context) error
}

// Daemon is what pmie runs beside its rules when it has a daemon
// configuration or an HTTP endpoint: it feeds alerting (an Alerter) from
// the engine's evaluations, serves the HTTP endpoint, keeps the
// self-metrics as Prometheus text and as an MMV file, and the state of
// the rules they show. It is configured again at each reload (Prepare,
// then Apply as the rules switch).
type Daemon struct {
	opt   Options
	stats *rules.Stats
	start time.Time

	cfg      atomic.Pointer[wire.Settings]
	alerter  atomic.Pointer[alerterBox]
	reloader atomic.Pointer[rules.Reloader]
	ready    atomic.Bool

	fired map[string][]*alert.Alert // by rule, until its group is evaluated: engine goroutine only
	view  *view

	srvMu sync.Mutex
	srv   *server
	mmv   *mmvExport
	bg    sync.WaitGroup // notifiers retired at reloads, still sending
}

// alerterBox holds an Alerter for atomic access.
type alerterBox struct{ Alerter }

// New starts a Daemon on cfg (the daemon configuration's settings, and
// yaml its file's contents): alerting if cfg has it (and opt.Alerts), the
// HTTP endpoint if an address is given, the MMV file if cfg names one.
// stats are the engine's counts.
func New(cfg *wire.Settings, yaml []byte, stats *rules.Stats, opt Options) (*Daemon, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Log == nil {
		opt.Log = func(rules.Level, string) {}
	}
	d := &Daemon{opt: opt, stats: stats, start: opt.Now(), fired: map[string][]*alert.Alert{}, view: newView()}
	d.cfg.Store(cfg)
	if addr := d.listenAddr(cfg); addr != "" {
		srv, err := d.listen(addr)
		if err != nil {
			return nil, err
		}
		d.srv = srv
	}
	if cfg.Alerting && opt.Alerts && opt.StartAlerter != nil {
		d.alerter.Store(&alerterBox{opt.StartAlerter(cfg, yaml)})
	}
	if cfg.MMV != "" && !opt.Replay {
		d.mmv = newMMVExport(d, cfg.MMV)
	}
	stats.AfterEval(d.afterEval)
	return d, nil
}

// alerting is the Alerter in force, or nil.
func (d *Daemon) alerting() Alerter {
	if b := d.alerter.Load(); b != nil {
		return b.Alerter
	}
	return nil
}

// listenAddr is the HTTP endpoint's address: the command line's, else
// the file's.
func (d *Daemon) listenAddr(cfg *wire.Settings) string {
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
	if d.alerting() == nil {
		return
	}
	d.fired[ev.Rule] = append(d.fired[ev.Rule], alert.FromEvent(ev, nil))
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
	a := d.alerting()
	watched := d.Addr() != ""
	var states []wire.Rule
	for _, r := range rs {
		if watched {
			d.view.record(r, t)
		}
		if a == nil || !r.HasActions() {
			continue
		}
		st := wire.Rule{Key: r.Key, Name: r.Name, Truth: truthOf(r.Truth()), Fired: d.fired[r.Name]}
		if st.Fired != nil {
			delete(d.fired, r.Name)
		}
		if st.Truth == wire.True {
			st.Bindings = bindingsOf(r)
		}
		states = append(states, st)
	}
	if len(states) > 0 {
		a.Evaluated(t, states)
	}
}

// truthOf is an evaluation's truth for alerting.
func truthOf(t eval.Truth) int {
	switch t {
	case eval.True:
		return wire.True
	case eval.False:
		return wire.False
	}
	return wire.Unknown
}

// bindingsOf gives r's bindings for alerting.
func bindingsOf(r *eval.Rule) []alert.Binding {
	bs := r.Bindings()
	out := make([]alert.Binding, len(bs))
	for i, b := range bs {
		out[i] = alert.Binding{Host: b.Host, Inst: b.Inst, Value: b.Value}
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
	if a := d.alerting(); a != nil {
		a.Removed(keys, timeOf(now))
	}
}

// Prepared is a configuration made ready to be put in force by a reload:
// what could fail (taking the HTTP endpoint's new address) is done.
type Prepared struct {
	cfg   *wire.Settings
	yaml  []byte
	srv   *server // a new HTTP endpoint, when its address changes
	files map[string]string
}

// Prepare gets cfg ready to replace the configuration in force; files
// says which file each rule (by key) came from, for the API. The result
// must be given to Apply or Discard.
func (d *Daemon) Prepare(cfg *wire.Settings, yaml []byte, files map[string]string) (*Prepared, error) {
	p := &Prepared{cfg: cfg, yaml: yaml, files: files}
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
	a := d.alerting()
	switch {
	case !cfg.Alerting && a == nil, !d.opt.Alerts, d.opt.StartAlerter == nil:
	case cfg.Alerting && a != nil:
		a.Configure(cfg, p.yaml)
	case cfg.Alerting:
		d.alerter.Store(&alerterBox{d.opt.StartAlerter(cfg, p.yaml)})
	default:
		d.alerter.Store(nil)
		d.bg.Add(1)
		go func() {
			defer d.bg.Done()
			if err := a.Close(context.Background()); err != nil {
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
	if a := d.alerting(); a != nil {
		err = a.Close(ctx)
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
