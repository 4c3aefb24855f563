package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gopcp/pmie/actions"
	pmiedaemon "github.com/gopcp/pmie/daemon"
	"github.com/gopcp/pmie/daemon/fleet"
	"github.com/gopcp/pmie/daemon/wire"
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
	"github.com/gopcp/pmie/pmapi/source"
	"github.com/gopcp/pmie/rules"
)

// A fleet (the daemon configuration's fleet section) is many hosts in
// one pmie, each evaluated as PCP's farm evaluates it with one pmie a
// host (pmie -h HOST -l LOG -c FILE): each member has its own compiled
// rules, with the member's host as the default host, its own engine
// (running on a goroutine of its own, so a slow or lost host holds up
// only its own rules), its own output and log, and its own counts. What
// they share is bounded: connections being made and fetches in flight
// (rules.Limits), and the wait before trying a host that cannot be
// reached again (rules.Backoff). Of the members the configuration names,
// this pmie evaluates those its shard owns (--shard, else fleet.shard).
// A reload is one transaction over every member: members whose files and
// settings are unchanged carry on untouched, changed ones get their new
// rules between two evaluations, new ones start, and those gone stop
// (their alerts resolve).

// fleetRun runs a fleet's members.
type fleetRun struct {
	p       *session
	shard   fleet.Shard
	named   int // members the configuration names, every shard's
	limits  *rules.Limits
	backoff rules.Backoff
	group   *rules.StatsGroup
	d       *pmiedaemon.Daemon
	ctx     context.Context
	window  span
	parsed  parseCache

	helpers helperSet
	state   *stateKeeper // nil without a state file

	mu      sync.Mutex
	members map[string]*memberRun // by fleet.Member.ID
	wg      sync.WaitGroup
}

// memberRun is one member: its rules, engine and output.
type memberRun struct {
	m       fleet.Member
	sig     [sha256.Size]byte // of the member's settings and files: unchanged, it carries on
	b       *eval.Builder
	prog    *eval.Program
	delta   float64
	out     *memberOut
	log     *logger
	meta    *memberMeta
	keys    map[string]string // rule key -> its file
	eng     *rules.Engine
	cfg     rules.Config
	obs     *pmiedaemon.Observer
	stop    context.CancelFunc
	stopped chan struct{}
	sleeper *sleeper // the engine's sleep between evaluations waits on it
}

// sleep is the member's engine's wait until t: on a sleeper of its own,
// kept while it runs (not a timer descriptor made and closed at every
// evaluation of thousands of hosts); the main goroutine handles pmie's
// signals.
func (mr *memberRun) sleep(ctx context.Context, t time.Time) error {
	return (*signals)(nil).sleepOn(ctx, mr.sleeper, t)
}

// runFleet evaluates the fleet of the daemon configuration, returning
// pmie's exit status.
func (p *session) runFleet(ctx context.Context) int {
	fc := p.dcfg.Fleet
	shard, err := p.fleetShard(fc)
	if err != nil {
		fmt.Fprintf(p.stderr, "%s: %v\n", prog, err)
		return 1
	}
	for _, w := range fc.Warnings {
		fmt.Fprintf(p.stderr, "%s: %s\n", prog, w)
	}
	f := &fleetRun{p: p, shard: shard, named: len(fc.Members), ctx: ctx,
		limits:  rules.NewLimits(fc.Connections, fc.Fetches),
		backoff: rules.Backoff{Min: fc.BackoffMin, Max: fc.BackoffMax},
		group:   rules.NewStatsGroup(), members: map[string]*memberRun{}, parsed: parseCache{}}
	if f.window, err = p.src.window(p.s, p.now, p.loc); err != nil {
		fmt.Fprint(p.stderr, err)
		return 1
	}
	owned := fc.Owned(shard)
	if !p.s.quiet && !p.s.check {
		fmt.Fprintf(p.stderr, "%s: fleet of %d hosts%s: %d evaluated here\n", prog, len(fc.Members), shardText(shard), len(owned))
	}
	built, err := f.build(owned, nil)
	if err != nil {
		fmt.Fprintln(p.stderr, err)
		return 1
	}
	if p.s.check {
		return 0
	}
	if err := f.startDaemon(); err != nil {
		fmt.Fprintf(p.stderr, "%s: %v\n", prog, err)
		return 1
	}
	defer func() {
		if err := f.d.Close(context.Background()); err != nil {
			p.log.notify(rules.Error, err.Error())
		}
	}()
	if file := p.dcfg.StateFile; file != "" {
		f.state = loadState(file, p.log.notify)
		var all []*eval.Rule
		for _, mr := range built {
			all = append(all, mr.prog.Rules...)
		}
		f.helpers.resume(f.state, all)
		f.state.start(f.helpers.firing)
		defer f.state.close()
	}
	for _, mr := range built {
		f.start(mr)
	}
	stopReload := f.startReloads()
	defer stopReload()
	// the main goroutine waits, turning pmie's own log over on SIGHUP
	for ctx.Err() == nil {
		p.sig.sleep(ctx, time.Now().Add(time.Hour))
	}
	f.stopAll()
	if sig, ok := p.sig.stopped(); ok {
		return exitStatus(sig)
	}
	return 0
}

// fleetShard is the shard to evaluate: --shard, else the configuration's,
// else the whole fleet.
func (p *session) fleetShard(fc *fleet.Config) (fleet.Shard, error) {
	spec := p.s.shard
	if spec == "" {
		spec = fc.Shard
	}
	if spec == "" {
		return fleet.Shard{}, nil
	}
	s, err := fleet.ParseShard(spec)
	if err != nil {
		return s, fmt.Errorf("--shard: %v", err)
	}
	return s, nil
}

func shardText(s fleet.Shard) string {
	if s.Count == 0 {
		return ""
	}
	return " (shard " + s.String() + ")"
}

// build compiles the members ms, at most fleet.connections at once
// (each first connects to its host); running members whose settings and
// files are unchanged are not compiled again (nil in the result). Every
// problem is returned, each naming its member.
func (f *fleetRun) build(ms []fleet.Member, running map[string]*memberRun) ([]*memberRun, error) {
	out := make([]*memberRun, len(ms))
	errs := make([]error, len(ms))
	derived := f.p.derivedSum
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(len(ms), f.p.dcfg.Fleet.Connections) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				sig := memberSig(ms[i], derived)
				if old := running[ms[i].ID()]; old != nil && old.sig == sig {
					continue
				}
				out[i], errs[i] = f.compile(ms[i], sig)
			}
		}()
	}
	for i := range ms {
		work <- i
	}
	close(work)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, mr := range out {
			if mr != nil {
				mr.meta.close()
			}
		}
		return nil, err
	}
	return out, nil
}

// memberSig sums what a member's rules depend on: its settings, its
// rule files' contents and the derived metrics'.
func memberSig(m fleet.Member, derived []byte) [sha256.Size]byte {
	h := sha256.New()
	b, _ := json.Marshal(m)
	h.Write(b)
	h.Write(readFiles(m.RuleFiles))
	h.Write(derived)
	var sum [sha256.Size]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

// parseCache parses each rule file once for all members.
type parseCache struct {
	mu    sync.Mutex
	files map[string]*parsed
}

type parsed struct {
	once sync.Once
	f    *lang.File
	err  error
}

// parse parses the rule file path (once for every member naming it with
// the same contents).
func (c *parseCache) parse(path string) (*lang.File, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	key := path + "\x00" + string(text)
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]*parsed{}
	}
	e := c.files[key]
	if e == nil {
		e = &parsed{}
		c.files[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.f = lang.ParsePmie(path, string(text)) })
	return e.f, e.err
}

// compile compiles member m's rule files with its host as the default
// host, as pmie -h HOST would, and makes its engine (not started).
func (f *fleetRun) compile(m fleet.Member, sig [sha256.Size]byte) (*memberRun, error) {
	p := f.p
	delta := p.delta
	if m.Interval != "" {
		d, err := pmapi.ParseInterval(m.Interval)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("%s: host %s: -t %s is not a sample interval", m.From, m.Host, m.Interval)
		}
		delta = float64(d.Round(time.Microsecond)/time.Microsecond) / 1e6
	}
	out := &memberOut{file: m.Log, shared: p.msgs}
	log := &logger{w: out.logWriter(), pid: p.log.pid}
	rt := &eval.Runtime{Clock: eval.NewClock()}
	now := float64(time.Now().UnixNano()) / 1e9
	rt.Clock.Reflect(now, delta, calendar(p.loc))
	hosts := rules.NewHosts(log.notify, m.Quiet)
	meta := &memberMeta{f: f, m: m, hosts: hosts}
	b := &eval.Builder{Env: &eval.Env{DefaultConn: m.Host, Runtime: rt, Source: meta.source}, Prepare: p.s.prepare()}
	prog := &eval.Program{}
	comp := &eval.Compiler{B: b, Prog: prog, Delta: delta, Clock: rt.Clock}
	keys := map[string]string{}
	var errs []string
	for _, path := range m.RuleFiles {
		file, err := f.parsed.parse(path)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		meta.warm(file.Stmts)
		var problems lang.Diagnostics
		n := len(prog.Rules)
		rules.CompileParsed(comp, file, rules.Loading{Diag: func(d *lang.Diagnostic) {
			if d.Severity == lang.Error {
				problems = append(problems, d)
			}
		}})
		comp.B.Report = nil
		if err := problems.Err(); err != nil {
			errs = append(errs, err.Error())
		}
		markDerived(prog.Rules[n:], p.src.registry(), p.derivedSum)
		for _, r := range prog.Rules[n:] {
			r.Key = rules.MemberKey(r.Key, m.ID())
			keys[r.Key] = path
		}
	}
	meta.cool()
	if len(errs) > 0 {
		meta.close()
		return nil, fmt.Errorf("%s: host %s: %s", m.From, m.Host, strings.Join(errs, "\n"))
	}
	mr := &memberRun{m: m, sig: sig, b: b, prog: prog, delta: delta, out: out, log: log, meta: meta, keys: keys}
	rt.Act = rules.Actor(f.runner(mr))
	return mr, nil
}

// runner makes a member's action runner: its print actions go to its
// output.
func (f *fleetRun) runner(mr *memberRun) *actions.Runner {
	ctime := newCtime(f.p.loc)
	return &actions.Runner{Out: mr.out, Ctime: ctime,
		Log:    func(msg string) { mr.log.notify(rules.Error, msg) },
		Syslog: (&actions.SystemLog{}).Send}
}

// startDaemon starts the daemon's part (alerting, HTTP, MMV) over the
// members' counts.
func (f *fleetRun) startDaemon() error {
	p := f.p
	log := &logger{w: p.msgs, pid: p.log.pid, pm: p.log.pm}
	var made *pmiedaemon.Daemon
	var startErr error
	start := func(s *wire.Settings, yaml []byte) pmiedaemon.Alerter {
		h, err := startHelper(s.File, yaml, false, p.s.listen,
			func(msg string) { log.notify(rules.Error, msg) }, func(msg string) { log.notify(rules.Info, msg) })
		if err != nil {
			startErr = err
			return nil
		}
		if made != nil {
			h.host.Store(made)
		}
		f.helpers.add(h)
		return h
	}
	d, err := pmiedaemon.New(p.dcfg, p.dyaml, f.group, pmiedaemon.Options{Log: log.notify, Listen: p.s.listen,
		Alerts: true, StartAlerter: start})
	if startErr != nil {
		err = startErr
	}
	if err != nil {
		return err
	}
	made = d
	for _, h := range f.helpers.all() {
		h.host.Store(d)
	}
	f.d = d
	f.counts()
	return nil
}

// counts tells the daemon the fleet's counts.
func (f *fleetRun) counts() {
	f.mu.Lock()
	n := len(f.members)
	f.mu.Unlock()
	f.d.SetFleet(&wire.FleetCounts{Members: n, Named: f.named, Shard: f.shard.Index, Shards: f.shard.Count})
}

// start starts a member's engine on a goroutine of its own.
func (f *fleetRun) start(mr *memberRun) {
	p := f.p
	ctime := newCtime(p.loc)
	mr.sleeper = newSleeper()
	mr.cfg = rules.Config{
		Start: f.window.start, Stop: f.window.stop,
		Verbose: mr.m.Verbose, ShowTime: mr.m.ShowTime, Quiet: mr.m.Quiet,
		Out:        mr.out,
		TimeString: func(sec float64) string { return ctime(int64(sec)) },
		Calendar:   calendar(p.loc),
		Open:       mr.meta.open,
		Now:        time.Now,
		Sleep:      mr.sleep,
		Notify:     mr.log.notify,
		Hosts:      mr.meta.hosts,
		Stats:      f.group.Add(mr.m.ID()),
		Limits:     f.limits,
		Backoff:    f.backoff,
		Phase:      fleet.Phase(mr.m.ID()),
	}
	mr.obs = f.d.NewObserver()
	mr.obs.Observe(&mr.cfg)
	if f.state != nil {
		f.state.restore(mr.prog.Rules)
		f.state.observe(&mr.cfg)
	}
	mr.b.Env.Runtime.Act = rules.Actor(f.observed(mr, mr.obs))
	f.d.AddFiles(mr.keys)
	mr.eng = rules.New(mr.cfg, mr.b, mr.prog)
	ctx, cancel := context.WithCancel(f.ctx)
	mr.stop, mr.stopped = cancel, make(chan struct{})
	f.mu.Lock()
	f.members[mr.m.ID()] = mr
	f.mu.Unlock()
	f.counts()
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		defer close(mr.stopped)
		defer mr.sleeper.close()
		defer mr.out.Flush()
		if err := mr.eng.Run(ctx); err != nil {
			mr.log.notify(rules.Error, err.Error())
		}
	}()
}

// observed is a member's action runner telling the daemon of each action.
func (f *fleetRun) observed(mr *memberRun, obs *pmiedaemon.Observer) *actions.Runner {
	r := f.runner(mr)
	r.Notify = obs.Fired
	return r
}

// halt stops a member's engine and waits for it; its rules' alerts
// resolve.
func (f *fleetRun) halt(mr *memberRun) {
	mr.stop()
	<-mr.stopped
	if mr.cfg.Removed != nil && len(mr.prog.Rules) > 0 {
		mr.cfg.Removed(mr.prog.Rules, float64(time.Now().UnixNano())/1e9)
	}
	f.group.Remove(mr.m.ID())
	f.mu.Lock()
	delete(f.members, mr.m.ID())
	f.mu.Unlock()
	f.counts()
}

// stopAll waits for every member's engine to stop (pmie is ending).
func (f *fleetRun) stopAll() {
	f.wg.Wait()
}

// memberMeta is a member's metadata source for binding its rules, and
// what opens its host for its engine: the connection opened to bind the
// rules is handed to the engine as its first, so a member holds one
// connection; later metadata lookups (metrics whose metadata was not
// there at first) open another while needed.
type memberMeta struct {
	f     *fleetRun
	m     fleet.Member
	hosts *rules.Hosts

	mu     sync.Mutex
	ms     *metaSource
	err    error // of the first attempt, while binding
	bound  bool  // binding is done: errors are tried again
	handed pmapi.Context
}

// opener opens the member's host with its control file's timeouts.
func (mm *memberMeta) opener() *source.Opener {
	return &source.Opener{PMCD: pmcd.Config{ConnectTimeout: mm.m.ConnectTimeout, Timeout: mm.m.RequestTimeout}}
}

// openRaw opens conn, within the fleet's connection limit.
func (mm *memberMeta) openRaw(conn string) (ctx, raw pmapi.Context, derived bool, err error) {
	mm.f.limits.Dial(func() { raw, err = mm.opener().Open(source.Host(conn)) })
	if err != nil {
		return nil, nil, false, err
	}
	ctx, derived = mm.f.p.src.wrap(raw)
	return ctx, raw, derived, nil
}

// source is the member's eval.Env.Source.
func (mm *memberMeta) source(conn string) (eval.Source, error) {
	if conn != mm.m.Host {
		return mm.f.p.src.metadata(conn) // a rule naming another host
	}
	mm.mu.Lock()
	defer mm.mu.Unlock()
	if mm.ms != nil {
		return mm.ms, nil
	}
	if mm.err != nil && !mm.bound {
		return nil, mm.err
	}
	ctx, raw, derived, err := mm.openRaw(conn)
	if err != nil {
		if mm.err == nil {
			mm.hosts.Unreachable(conn, err)
		}
		mm.err = err
		return nil, err
	}
	mm.err = nil
	mm.ms = &metaSource{ctx: ctx, raw: raw, derived: derived, src: mm.f.p.src}
	return mm.ms, nil
}

// warm looks up the metadata of the statements' metrics on the member's
// host ahead of binding them.
func (mm *memberMeta) warm(stmts []*lang.Stmt) {
	names := map[string]bool{}
	for _, st := range stmts {
		metricRefs(st.X, func(name string, hosts []string) {
			if len(hosts) == 0 {
				names[name] = true
			}
		})
	}
	if len(names) == 0 {
		return
	}
	if s, err := mm.source(mm.m.Host); err == nil {
		s.(*metaSource).warmUp(names)
	}
}

// cool ends binding: the metadata looked up ahead is forgotten, and the
// connection is kept for the engine.
func (mm *memberMeta) cool() {
	mm.mu.Lock()
	defer mm.mu.Unlock()
	mm.bound = true
	if mm.ms != nil {
		mm.ms.warm = nil
		mm.handed, mm.ms = mm.ms.ctx, nil
	}
}

// open is the member's engine's rules.OpenFunc: the connection binding
// used, the first time, then new ones.
func (mm *memberMeta) open(conn string) (pmapi.Context, error) {
	mm.mu.Lock()
	if c := mm.handed; c != nil && conn == mm.m.Host {
		mm.handed = nil
		mm.mu.Unlock()
		return c, nil
	}
	mm.mu.Unlock()
	ctx, _, _, err := mm.openRaw(conn)
	return ctx, err
}

// close closes what the member holds that its engine does not (a
// member never started).
func (mm *memberMeta) close() {
	mm.mu.Lock()
	defer mm.mu.Unlock()
	if mm.handed != nil {
		mm.handed.Close()
		mm.handed = nil
	}
	if mm.ms != nil {
		mm.ms.ctx.Close()
		mm.ms = nil
	}
}

// memberOut is a member's output: what its engine writes (values, print
// actions), held until the engine flushes after each evaluation, then
// appended to the member's log (opened for each flush, so thousands of
// members hold no open files and rotating a log needs nothing) or, with
// none, written to pmie's own output in one piece.
type memberOut struct {
	file   string
	shared io.Writer
	mu     sync.Mutex
	buf    []byte
}

func (o *memberOut) Write(b []byte) (int, error) {
	o.mu.Lock()
	o.buf = append(o.buf, b...)
	o.mu.Unlock()
	return len(b), nil
}

// Flush writes out what is held.
func (o *memberOut) Flush() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.buf) == 0 {
		return nil
	}
	err := o.emit(o.buf)
	o.buf = o.buf[:0]
	if cap(o.buf) > 4096 {
		o.buf = nil // a burst of output is not kept for ever
	}
	return err
}

func (o *memberOut) emit(b []byte) error {
	if o.file == "" {
		_, err := o.shared.Write(b)
		return err
	}
	fd, err := os.OpenFile(o.file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fd.Write(b)
	if cerr := fd.Close(); err == nil {
		err = cerr
	}
	return err
}

// logWriter is where the member's messages go: its log, or pmie's.
func (o *memberOut) logWriter() io.Writer {
	return writerFunc(func(b []byte) (int, error) {
		o.Flush() // values first, as pmie's line buffering would
		o.mu.Lock()
		defer o.mu.Unlock()
		return len(b), o.emit(b)
	})
}

type writerFunc func([]byte) (int, error)

func (w writerFunc) Write(b []byte) (int, error) { return w(b) }

// Reload puts a fleet candidate in force (rules.Reloadable): its Parts
// are the members to start or to reload, by ID; members it does not
// name stop, those named with no candidate carry on.
func (f *fleetRun) Reload(c *rules.Candidate) <-chan rules.Switched {
	done := make(chan rules.Switched, 1)
	go func() {
		defer close(done)
		var sw rules.Switched
		f.mu.Lock()
		running := make(map[string]*memberRun, len(f.members))
		for id, mr := range f.members {
			running[id] = mr
		}
		f.mu.Unlock()
		for id, mr := range running {
			if _, kept := c.Parts[id]; !kept {
				sw.Removed += len(mr.prog.Rules)
				f.halt(mr)
			}
		}
		for id, part := range c.Parts {
			mr := running[id]
			switch {
			case part == nil && mr != nil:
				sw.Kept += len(mr.prog.Rules)
			case mr == nil:
				nm := part.Apply // see fleetCandidate: starts the new member
				nm()
				sw.Added += len(part.Program.Rules)
			default:
				if s, ok := <-mr.eng.Reload(part); ok {
					sw.Kept, sw.Added, sw.Removed = sw.Kept+s.Kept, sw.Added+s.Added, sw.Removed+s.Removed
				}
			}
		}
		if c.Apply != nil {
			c.Apply()
		}
		done <- sw
	}()
	return done
}

// startReloads reloads the fleet on SIGUSR1, POST /-/reload and file
// changes, as startReloads does for one engine.
func (f *fleetRun) startReloads() (stop func()) {
	p := f.p
	rl := rules.NewReloader(f, f.loadCandidate, p.dcfg.Files(), p.bgLog(), time.Now)
	f.d.SetReloader(rl)
	return p.reloadTriggers(f.ctx, rl)
}

// loadCandidate reads the daemon configuration again, finds this shard's
// members and compiles those that changed.
func (f *fleetRun) loadCandidate() (*rules.Candidate, error) {
	p := f.p
	cfg, yaml, err := readSettings(p.s.yamlFile)
	if err != nil {
		return nil, err
	}
	if cfg.Fleet == nil {
		return nil, errors.New("the daemon configuration no longer has a fleet: restart pmie to run without one")
	}
	derived := readFiles(cfg.DerivedFiles)
	if string(derived) != string(p.derivedSum) {
		return nil, errors.New("the derived metric files have changed: restart pmie to use them in a fleet")
	}
	shard, err := p.fleetShard(cfg.Fleet)
	if err != nil {
		return nil, err
	}
	owned := cfg.Fleet.Owned(shard)
	f.mu.Lock()
	running := make(map[string]*memberRun, len(f.members))
	for id, mr := range f.members {
		running[id] = mr
	}
	f.mu.Unlock()
	built, err := f.build(owned, running)
	if err != nil {
		return nil, err
	}
	c := &rules.Candidate{Parts: map[string]*rules.Candidate{}, Files: cfg.Files()}
	var fresh []*memberRun
	for i, m := range owned {
		mr := built[i]
		switch {
		case mr == nil:
			c.Parts[m.ID()] = nil
		case running[m.ID()] == nil:
			c.Parts[m.ID()] = &rules.Candidate{Program: mr.prog, Apply: func() { f.start(mr) }}
			fresh = append(fresh, mr)
		default:
			// the running engine carries on with its output, observer and
			// connection: only the rules change
			old := running[m.ID()]
			mr.b.Env.Runtime.Act = rules.Actor(f.observed(old, old.obs))
			c.Parts[m.ID()] = &rules.Candidate{Builder: mr.b, Program: mr.prog, Apply: func() {
				f.d.AddFiles(mr.keys)
				old.sig, old.prog, old.keys, old.b = mr.sig, mr.prog, mr.keys, mr.b
				mr.meta.close()
			}}
			fresh = append(fresh, mr)
		}
	}
	prepared, err := f.d.Prepare(cfg, yaml, nil)
	if err != nil {
		return nil, err
	}
	c.Apply = func() {
		p.dcfg, p.dyaml = cfg, yaml
		f.named = len(cfg.Fleet.Members)
		f.d.Apply(prepared)
		f.counts()
	}
	c.Discard = func() {
		f.d.Discard(prepared)
		for _, mr := range fresh {
			mr.meta.close()
		}
	}
	return c, nil
}

// fleetMembers lists the members running, by ID, for tests.
func (f *fleetRun) fleetMembers() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, 0, len(f.members))
	for id := range f.members {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
