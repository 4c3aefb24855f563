package daemon

import (
	"context"
	"errors"
	"math"
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
	// Alerts says whether alerts are sent (not when archives are read,
	// unless --replay-alerts).
	Alerts bool
	// Replay says evaluation follows archives' clock.
	Replay bool
	// MMVDir is where the MMV file goes; "" is $PCP_TMP_DIR/mmv.
	MMVDir string
	// Now is the real clock; nil is time.Now.
	Now func() time.Time
	// StartAlerter starts pmie-notify on a configuration (file contents
	// yaml) with alerting or the HTTP endpoint (whose address, listen,
	// the command line may give).
	StartAlerter func(s *wire.Settings, yaml []byte) Alerter
	// Listen is the HTTP endpoint's address from the command line
	// (--web.listen-address): it starts pmie-notify without alerting.
	Listen string
}

// Alerter is pmie-notify as the Daemon drives it: alerting and the HTTP
// endpoint run there, a process of its own (see rules/doc.go for why).
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
// configuration or an HTTP endpoint: it feeds pmie-notify (an Alerter)
// from the engine's evaluations, keeps the state of the rules that the
// HTTP endpoint shows (Snapshot), and pmie's own metrics as an MMV file.
// It is configured again at each reload (Prepare, then Apply as the rules
// switch).
type Daemon struct {
	opt   Options
	stats Counter
	start time.Time

	cfg      atomic.Pointer[wire.Settings]
	alerter  atomic.Pointer[alerterBox]
	reloader atomic.Pointer[rules.Reloader]
	ready    atomic.Bool

	main  *Observer // the engine's (a fleet's members have their own)
	view  *view
	fleet atomic.Pointer[wire.FleetCounts]

	mmv *mmvExport
	bg  sync.WaitGroup // pmie-notify retired at a reload, still sending
}

// Counter is the engine's counts: a rules.Stats, or a fleet's
// rules.StatsGroup.
type Counter interface {
	Totals() rules.Totals
	Rules() []rules.RuleCounts
	Hosts() []rules.HostCounts
	AfterEval(f func())
	TimeEvaluations(clock func() time.Time)
}

// alerterBox holds an Alerter for atomic access.
type alerterBox struct{ Alerter }

// New starts a Daemon on cfg (the daemon configuration's settings, and
// yaml its file's contents): pmie-notify if cfg has alerting (and
// opt.Alerts) or an HTTP endpoint, the MMV file if cfg names one. stats
// are the engine's counts.
func New(cfg *wire.Settings, yaml []byte, stats Counter, opt Options) (*Daemon, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Log == nil {
		opt.Log = func(rules.Level, string) {}
	}
	d := &Daemon{opt: opt, stats: stats, start: opt.Now(), view: newView()}
	d.main = d.NewObserver()
	stats.TimeEvaluations(opt.Now) // for the rules API's evaluationTime and the per-rule times
	d.cfg.Store(cfg)
	if d.wantsHelper(cfg) {
		a := opt.StartAlerter(cfg, yaml)
		if a == nil {
			return nil, errors.New("cannot start pmie-notify")
		}
		d.alerter.Store(&alerterBox{a})
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

// wantsHelper says whether cfg needs pmie-notify: for alerting, or for
// the HTTP endpoint.
func (d *Daemon) wantsHelper(cfg *wire.Settings) bool {
	return d.opt.StartAlerter != nil && ((cfg.Alerting && d.opt.Alerts) || d.listening(cfg))
}

// listening says whether cfg has an HTTP endpoint.
func (d *Daemon) listening(cfg *wire.Settings) bool { return d.opt.Listen != "" || cfg.Listen != "" }

// SetFiles records which file each rule (by key) came from, for the API.
func (d *Daemon) SetFiles(files map[string]string) { d.view.setFiles(files) }

// AddFiles records which file each of more rules (by key) came from.
func (d *Daemon) AddFiles(files map[string]string) { d.view.addFiles(files) }

// SetReloader gives the HTTP endpoint's POST /-/reload its reloader.
func (d *Daemon) SetReloader(r *rules.Reloader) { d.reloader.Store(r) }

// Observe has the engine configured by cfg tell the Daemon of its
// evaluations and of rules removed by reloads.
func (d *Daemon) Observe(cfg *rules.Config) { d.main.Observe(cfg) }

// Fired is given each action the rules run (actions.Runner.Notify), as
// it runs: the alert for it is made at once, while the rule's values are
// current, and routed when the rule's evaluation is complete.
func (d *Daemon) Fired(ev *actions.Event) { d.main.Fired(ev) }

// Observer follows one engine for the Daemon: a fleet runs an engine for
// each member, each on its own goroutine, each with an Observer.
type Observer struct {
	d     *Daemon
	fired map[string][]*alert.Alert // by rule, until its group is evaluated: its engine's goroutine only
}

// NewObserver makes an Observer for another engine.
func (d *Daemon) NewObserver() *Observer {
	return &Observer{d: d, fired: map[string][]*alert.Alert{}}
}

// Observe has the engine configured by cfg tell the Daemon of its
// evaluations and of rules removed by reloads.
func (o *Observer) Observe(cfg *rules.Config) {
	prev := cfg.Evaluated
	cfg.Evaluated = func(now float64, rs []*eval.Rule) {
		if prev != nil {
			prev(now, rs)
		}
		o.evaluated(now, rs)
	}
	cfg.Removed = o.d.removed
}

// Fired is given each action the engine's rules run (see Daemon.Fired).
func (o *Observer) Fired(ev *actions.Event) {
	if o.d.alerting() == nil {
		return
	}
	o.fired[ev.Rule] = append(o.fired[ev.Rule], alert.FromEvent(ev, nil))
}

// SetFleet records a fleet's counts, for the metrics.
func (d *Daemon) SetFleet(f *wire.FleetCounts) { d.fleet.Store(f) }

// timeOf converts seconds since the epoch to a time.Time.
func timeOf(sec float64) time.Time {
	s, f := math.Modf(sec)
	return time.Unix(int64(s), int64(math.Round(f*1e6))*1e3).UTC()
}

// evaluated follows an evaluation of a group of rules.
func (o *Observer) evaluated(now float64, rs []*eval.Rule) {
	d := o.d
	d.ready.Store(true)
	t := timeOf(now)
	a := d.alerting()
	watched := d.listening(d.cfg.Load())
	var states []wire.Rule
	for _, r := range rs {
		if watched {
			d.view.record(r, t)
		}
		if a == nil || !r.HasActions() || !d.cfg.Load().Alerting || !d.opt.Alerts {
			continue
		}
		st := wire.Rule{Key: r.Key, Name: r.Name, Truth: truthOf(r.Truth()), Fired: o.fired[r.Name]}
		if st.Fired != nil {
			delete(o.fired, r.Name)
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

// Prepared is a configuration ready to be put in force by a reload.
type Prepared struct {
	cfg   *wire.Settings
	yaml  []byte
	files map[string]string
}

// Prepare gets cfg (and its file's contents, yaml) ready to replace the
// configuration in force; files says which file each rule (by key) came
// from, for the API. The result must be given to Apply or Discard.
func (d *Daemon) Prepare(cfg *wire.Settings, yaml []byte, files map[string]string) (*Prepared, error) {
	return &Prepared{cfg: cfg, yaml: yaml, files: files}, nil
}

// Discard releases what Prepare took, for a configuration not put in
// force.
func (d *Daemon) Discard(p *Prepared) {}

// Apply puts a prepared configuration in force (on the engine's
// goroutine, as the rules switch).
func (d *Daemon) Apply(p *Prepared) {
	old := d.cfg.Load()
	cfg := p.cfg
	d.cfg.Store(cfg)
	d.view.setFiles(p.files)
	a := d.alerting()
	want := d.wantsHelper(cfg)
	switch {
	case want && a != nil:
		a.Configure(cfg, p.yaml)
	case want:
		if a = d.opt.StartAlerter(cfg, p.yaml); a != nil {
			d.alerter.Store(&alerterBox{a})
		}
	case a != nil:
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

// Close removes the MMV file and stops pmie-notify, which first sends
// the alerts it holds (within the shutdown_timeout); it reports alerts
// lost.
func (d *Daemon) Close(ctx context.Context) error {
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

// Snapshot is pmie's state for the HTTP endpoint and the MMV file; with
// views, each rule's state at its last evaluation too.
func (d *Daemon) Snapshot(views bool) *wire.Snapshot {
	t := d.stats.Totals()
	s := &wire.Snapshot{Start: d.start, Ready: d.ready.Load(),
		Totals: wire.Totals{NumRules: t.NumRules, Counts: wire.Counts{Evaluations: t.Evaluations,
			True: t.True, False: t.False, Unknown: t.Unknown, Actions: t.Actions},
			Lag: t.Lag.Seconds(), MaxLag: t.MaxLag.Seconds()}}
	rs := d.stats.Rules()
	if views {
		s.Rules = d.view.snapshot(rs)
	} else {
		for _, c := range rs {
			s.Rules = append(s.Rules, wire.RuleView{Key: c.Key, Name: c.Name, Delta: c.Delta, Counts: countsOf(&c)})
		}
	}
	for _, h := range d.stats.Hosts() {
		s.Hosts = append(s.Hosts, wire.HostCounts{Conn: h.Conn, Fetches: h.Fetches, Errors: h.Errors,
			Seconds: h.Time.Seconds(), LastSec: h.Last.Seconds(), Down: h.Down})
	}
	if f := d.fleet.Load(); f != nil {
		c := *f
		c.Down = 0
		for _, h := range s.Hosts {
			if h.Down {
				c.Down++
			}
		}
		s.Fleet = &c
	}
	if rl := d.reloader.Load(); rl != nil {
		s.Reloads.OK, s.Reloads.Failed = rl.Counts()
		if last := rl.Last(); last != nil {
			s.Reloads.Last = last.Time
			if last.Err != nil {
				s.Reloads.LastError = last.Err.Error()
			}
		}
	}
	if a := d.alerting(); a != nil {
		s.Receivers = a.Stats()
	}
	return s
}

// countsOf is a rule's counts as the HTTP endpoint and MMV file show them.
func countsOf(c *rules.RuleCounts) wire.Counts {
	return wire.Counts{Evaluations: c.Evaluations, True: c.True, False: c.False, Unknown: c.Unknown, Actions: c.Actions,
		EvalSeconds: c.EvalTime.Seconds(), LastEvalSeconds: c.LastEval.Seconds()}
}

// Reload reloads, as the HTTP endpoint asks.
func (d *Daemon) Reload(reason string) error {
	rl := d.reloader.Load()
	if rl == nil {
		return errors.New("pmie is not running rules it can reload (archives, or rules on standard input)")
	}
	return rl.Reload(reason)
}

// afterEval brings the MMV file up to date.
func (d *Daemon) afterEval() {
	if d.mmv != nil {
		d.mmv.update(false)
	}
}
