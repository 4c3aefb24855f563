package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/pmie/actions"
	pmiedaemon "github.com/gopcp/pmie/daemon"
	"github.com/gopcp/pmie/daemon/wire"
	"github.com/gopcp/pmie/derive"
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/rules"
)

// pmie as a daemon: with --yaml-config FILE it reads the daemon's
// configuration (package daemon), which may give the rule files, the
// derived metric files and the sources that the command line leaves out,
// and alerting, the HTTP endpoint and the MMV file. Live, the rules
// reload as a transaction (rules.Reloader) on SIGUSR1, on POST /-/reload
// and, with a daemon configuration, when one of its files changes.

// readDaemonConfig has pmie-notify read and check the --yaml-config
// file, and takes from it what the command line does not say.
func (p *session) readDaemonConfig() error {
	cfg, yaml, err := readSettings(p.s.yamlFile)
	if err != nil {
		return err
	}
	p.dcfg, p.dyaml = cfg, yaml
	s := &p.s
	if s.configFile == "" && len(s.files) == 0 && len(cfg.RuleFiles) > 0 {
		s.files, p.yamlRules = cfg.RuleFiles, true
	}
	if !s.hostGiven && !s.local && len(s.archives) == 0 {
		s.host, s.local = cfg.Host, cfg.Local
		s.hostGiven = s.host != ""
	}
	if s.interval == "" {
		s.interval = cfg.Interval
	}
	return nil
}

// readSettings reads the daemon configuration file and has pmie-notify
// check it; it returns the settings and the file's contents.
func readSettings(file string) (*wire.Settings, []byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read the daemon configuration: %w", err)
	}
	cfg, err := checkDaemonConfig(file, data)
	if err != nil {
		return nil, nil, err
	}
	return cfg, data, nil
}

// loadDerivedFiles loads PCP's derived metrics and those of the daemon
// configuration's derived files, for the rules to use; any error in
// them is returned, each with its place.
func loadDerivedFiles(files []string) (*derive.Registry, error) {
	reg, _ := derive.Load()
	var errs []string
	for _, f := range files {
		_, diags, err := reg.LoadConfig(f)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", f, err))
		}
		for _, d := range diags {
			if d.Diagnostic != nil && d.Severity == lang.Error {
				errs = append(errs, d.Error())
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	return reg, nil
}

// readFiles reads files, as a checksum of what the derived metrics were
// loaded from.
func readFiles(files []string) []byte {
	var b bytes.Buffer
	for _, f := range files {
		data, _ := os.ReadFile(f)
		b.WriteString(f)
		b.WriteByte(0)
		b.Write(data)
		b.WriteByte(0)
	}
	return b.Bytes()
}

// startDaemon starts the daemon's part for the engine cfg configures:
// alerting on the actions runner runs, the HTTP endpoint, the MMV file.
func (p *session) startDaemon(runner *actions.Runner, cfg *rules.Config) (*pmiedaemon.Daemon, error) {
	dcfg := p.dcfg
	if dcfg == nil {
		dcfg = &wire.Settings{} // --web.listen-address alone
	}
	log := &logger{w: p.msgs, pid: p.log.pid, pm: p.log.pm}
	var startErr error
	var helpers []*helper
	var made *pmiedaemon.Daemon // for pmie-notify started by reloads
	start := func(s *wire.Settings, yaml []byte) pmiedaemon.Alerter {
		h, err := startHelper(s.File, yaml, p.src.archive, p.s.listen,
			func(msg string) { log.notify(rules.Error, msg) }, func(msg string) { log.notify(rules.Info, msg) })
		if err != nil {
			startErr = err
			return nil
		}
		helpers = append(helpers, h)
		p.helpers.add(h)
		if made != nil {
			h.host.Store(made)
		}
		return h
	}
	d, err := pmiedaemon.New(dcfg, p.dyaml, cfg.Stats, pmiedaemon.Options{Log: log.notify, Listen: p.s.listen,
		Alerts: !p.src.archive || p.s.replayAlerts, Replay: p.src.archive, StartAlerter: start})
	if startErr != nil {
		err = startErr
	}
	if err != nil {
		return nil, err
	}
	made = d
	for _, h := range helpers {
		h.host.Store(d)
	}
	if err != nil {
		return nil, err
	}
	d.SetFiles(p.keyFiles)
	d.Observe(cfg)
	runner.Notify = d.Fired
	return d, nil
}

// startReloads has the rules reload on SIGUSR1, on POST /-/reload and,
// with a daemon configuration that says watch (the default), when one of
// its files changes. stop ends that.
func (p *session) startReloads(ctx context.Context, eng *rules.Engine, d *pmiedaemon.Daemon) (stop func()) {
	rl := rules.NewReloader(eng, p.loadCandidate(d), p.loadedFiles(), p.bgLog(), time.Now)
	if d != nil {
		d.SetReloader(rl)
	}
	return p.reloadTriggers(ctx, rl)
}

// reloadTriggers has rl reload on SIGUSR1 and, with a daemon
// configuration that says watch, when one of its files changes. stop
// ends that.
func (p *session) reloadTriggers(ctx context.Context, rl *rules.Reloader) (stop func()) {
	files := rl.Files()
	log := p.bgLog()
	var wg sync.WaitGroup
	done := make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-sig:
				rl.Reload("SIGUSR1")
			}
		}
	}()
	var w *rules.Watcher
	if p.dcfg != nil && p.dcfg.Watch {
		var err error
		w, err = rules.Watch(files, 0, func(reason string) { rl.Changed(reason) },
			func(err error) { log(rules.Error, "watching files: "+err.Error()) })
		if err != nil {
			log(rules.Error, "cannot watch the configuration's files: "+err.Error())
		} else {
			rl.Watch = func(files []string) {
				if err := w.Set(files); err != nil {
					log(rules.Error, "cannot watch the configuration's files: "+err.Error())
				}
			}
		}
	}
	return func() {
		signal.Stop(sig)
		close(done)
		if w != nil {
			w.Close()
		}
		wg.Wait()
	}
}

// loadedFiles are the files of the configuration running: the daemon's
// file, the rule files, the derived files.
func (p *session) loadedFiles() []string {
	var files []string
	if p.dcfg != nil {
		files = append(files, p.dcfg.Files()...)
		files = files[:1] // its rule files may have been replaced by the command line's
	}
	for _, f := range p.ruleFiles() {
		if path, err := findConfig(f); err == nil {
			files = append(files, path)
		}
	}
	if p.dcfg != nil {
		files = append(files, p.dcfg.DerivedFiles...)
	}
	return files
}

// ruleFiles are the rule files named, by the command line or the
// daemon's file.
func (p *session) ruleFiles() []string {
	if p.s.configFile != "" {
		return []string{p.s.configFile}
	}
	return p.s.files
}

// loadCandidate is the reload's load function: it reads the daemon's
// file again (if any), its derived files and the rule files, and checks
// them all, changing nothing; the candidate's Apply puts them in force.
func (p *session) loadCandidate(d *pmiedaemon.Daemon) rules.LoadFunc {
	return func() (*rules.Candidate, error) {
		r := &reload{p: p, cfg: p.dcfg, yaml: p.dyaml}
		if p.s.yamlFile != "" {
			var err error
			if r.cfg, r.yaml, err = readSettings(p.s.yamlFile); err != nil {
				return nil, err
			}
		}
		if err := r.derive(); err != nil {
			return nil, err
		}
		if err := r.compile(); err != nil {
			return nil, err
		}
		return r.candidate(d)
	}
}

// reload is a reload being checked: the daemon's configuration read
// again, the sources its rules bind to and the program they make.
type reload struct {
	p    *session
	cfg  *wire.Settings // the daemon's configuration, if any
	yaml []byte         // its contents

	src       *sources
	reconnect bool     // src is new, for changed derived metrics
	derived   []string // the derived metric files
	sum       []byte   // their contents

	b        *eval.Builder
	prog     *eval.Program
	keyFiles map[string]string // the file of each rule, by key
	files    []string          // the files read, for the candidate
}

// derive reads the derived metric files: when they have changed, the
// rules bind to new sources with their metrics, which are reconnected.
func (r *reload) derive() error {
	r.src = r.p.cur.Load()
	if r.cfg != nil {
		r.derived = r.cfg.DerivedFiles
	}
	r.sum = readFiles(r.derived)
	if !bytes.Equal(r.sum, r.p.derivedSum) {
		reg, err := loadDerivedFiles(r.derived)
		if err != nil {
			return err
		}
		r.src, r.reconnect = r.src.fork(reg), true
	}
	return nil
}

// ruleFiles are the rule files to read: the daemon configuration's, if
// the rules are its, else those named at start.
func (r *reload) ruleFiles() []string {
	if r.p.yamlRules {
		return r.cfg.RuleFiles
	}
	return r.p.ruleFiles()
}

// compile builds the rules of every rule file into a new program,
// warnings going to the log; the error says what is wrong in each file.
func (r *reload) compile() error {
	p := r.p
	log := p.bgLog()
	rulesFrom := r.ruleFiles()
	r.b = p.builder(r.src, nil)
	r.prog = &eval.Program{}
	comp := &eval.Compiler{B: r.b, Prog: r.prog, Delta: p.delta, Clock: p.rt.Clock}
	r.keyFiles = map[string]string{}
	r.files = []string{}
	if p.s.yamlFile != "" {
		r.files = append(r.files, r.cfg.File)
	}
	var errs []string
	for _, f := range rulesFrom {
		if err := r.compileFile(comp, f, log); err != nil {
			errs = append(errs, err.Error())
		}
	}
	r.files = append(r.files, r.derived...)
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}

// compileFile finds the rule file f and builds its rules with comp,
// noting each one's file and whether it uses the derived metrics.
func (r *reload) compileFile(comp *eval.Compiler, f string, log rules.NotifyFunc) error {
	path, err := findConfig(f)
	if err != nil {
		return errors.New(strings.TrimSpace(err.Error()))
	}
	r.files = append(r.files, path)
	text, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	n := len(r.prog.Rules)
	err, warns := rules.CheckText(comp, path, string(text))
	if err == nil {
		for _, w := range warns {
			log(rules.Warning, "pmie: warning - "+w)
		}
	}
	markDerived(r.prog.Rules[n:], r.src.registry(), r.sum)
	for _, rule := range r.prog.Rules[n:] {
		r.keyFiles[rule.Key] = path
	}
	return err
}

// candidate is the reload checked, with the daemon's new configuration
// prepared: its Apply puts the rules, sources and configuration in force,
// and its Discard drops what was prepared.
func (r *reload) candidate(d *pmiedaemon.Daemon) (*rules.Candidate, error) {
	p := r.p
	c := &rules.Candidate{Builder: r.b, Program: r.prog, Reconnect: r.reconnect, Files: r.files}
	if r.reconnect {
		c.Rewrap = func(conn string, old pmapi.Context) pmapi.Context { return p.rewrap(r.src, conn, old) }
	}
	var prepared *pmiedaemon.Prepared
	if d != nil && r.cfg != nil {
		var err error
		if prepared, err = d.Prepare(r.cfg, r.yaml, r.keyFiles); err != nil {
			return nil, err
		}
	}
	c.Apply = func() {
		if r.reconnect {
			p.cur.Store(r.src)
			p.derivedSum = r.sum
			p.forks = append(p.forks, r.src)
		}
		p.dcfg, p.dyaml = r.cfg, r.yaml
		if prepared != nil {
			d.Apply(prepared)
		}
	}
	c.Discard = func() {
		if prepared != nil {
			d.Discard(prepared)
		}
	}
	return c, nil
}

// rewrap gives the connection under old, a context the engine fetches
// from conn with, to to (the sources of a reload's new derived metrics):
// the same connection seen through them, or nil if old was not opened by
// pmie's sources. The new definitions are checked against the host's
// metrics from the answers conn gave to's metadata context (metaCache),
// without asking again while evaluation waits. It runs on the engine's
// goroutine as the rules switch (to is not yet in force), possibly for
// several contexts at once.
func (p *session) rewrap(to *sources, conn string, old pmapi.Context) pmapi.Context {
	for _, from := range append([]*sources{p.src}, p.forks...) {
		raw := from.release(old)
		if raw == nil {
			continue
		}
		base := pmapi.Context(raw)
		var ans *answering
		if c := to.recorded(conn); c != nil {
			ans = &answering{Context: raw, c: c}
			base = ans
		}
		ctx, _ := to.wrap(base)
		if ans != nil {
			ans.stop()
		}
		to.keep(ctx, raw)
		return ctx
	}
	return nil
}

// markDerived makes the identity (Key) of each rule that reads derived
// metrics depend on their definitions (derive.Registry.Identity: their
// PMIDs and expressions in reg, and those of the derived metrics they
// name), or on the derived files' contents (sum) for a metric reg does
// not know: a reload that redefines derived metrics gives the rules
// reading them new state, since what they were computing has changed,
// while the others carry on.
func markDerived(rs []*eval.Rule, reg *derive.Registry, sum []byte) {
	if len(sum) == 0 {
		return
	}
	for _, r := range rs {
		var ids []string
		for _, m := range r.Metrics {
			if !m.Desc.PMID.IsDerived() {
				continue
			}
			id, ok := "", false
			if reg != nil {
				id, ok = reg.Identity(m.Desc.PMID)
			}
			if !ok {
				id = fmt.Sprintf("files %x", sum)
			}
			ids = append(ids, id)
		}
		if len(ids) > 0 {
			slices.Sort(ids)
			ids = slices.Compact(ids)
			r.Key += fmt.Sprintf("\x00derived %x", sha256.Sum256([]byte(strings.Join(ids, "\x00"))))
		}
	}
}

// registry is the derived metrics src's contexts have.
func (src *sources) registry() *derive.Registry {
	src.mu.Lock()
	defer src.mu.Unlock()
	return src.reg
}

// bgLog reports messages in pmie's log from goroutines other than the
// one evaluating.
func (p *session) bgLog() rules.NotifyFunc {
	return (&logger{w: p.msgs, pid: p.log.pid, pm: p.log.pm}).notify
}

// open opens a context for the engine from the sources in force (a
// reload that changes the derived metrics replaces them).
func (p *session) open(conn string) (pmapi.Context, error) { return p.cur.Load().open(conn) }

// useDerived loads the daemon configuration's derived metric files (with
// PCP's own) for the rules to use, before any rule is read.
func (p *session) useDerived() error {
	if p.dcfg == nil || len(p.dcfg.DerivedFiles) == 0 {
		return nil
	}
	reg, err := loadDerivedFiles(p.dcfg.DerivedFiles)
	if err != nil {
		return err
	}
	p.src.setDerived(reg)
	p.derivedSum = readFiles(p.dcfg.DerivedFiles)
	return nil
}

// markDerivedRules marks the rules loaded at start as a reload does (see
// markDerived), before the engine counts them by key.
func (p *session) markDerivedRules() {
	if p.dcfg == nil || len(p.dcfg.DerivedFiles) == 0 {
		return
	}
	old := make([]string, len(p.program.Rules))
	for i, r := range p.program.Rules {
		old[i] = r.Key
	}
	markDerived(p.program.Rules, p.src.registry(), p.derivedSum)
	for i, r := range p.program.Rules {
		if file, ok := p.keyFiles[old[i]]; ok && r.Key != old[i] {
			p.keyFiles[r.Key] = file
		}
	}
}

// setDerived has src use the derived metrics of reg from now on, instead
// of loading PCP's when a rule first names a metric its source lacks.
func (src *sources) setDerived(reg *derive.Registry) {
	src.derivedOnce.Do(func() {})
	src.mu.Lock()
	src.reg = reg
	metas := make([]*metaSource, 0, len(src.meta))
	for _, m := range src.meta {
		metas = append(metas, m)
	}
	src.mu.Unlock()
	for _, m := range metas {
		wrapped, _ := src.wrap(m.raw)
		m.derived = true
		src.replace(m.ctx, wrapped)
		m.ctx = wrapped
	}
}

// fork makes sources like src (live) with derived metrics reg and no
// context opened yet, for rules reloaded with new derived metrics.
func (src *sources) fork(reg *derive.Registry) *sources {
	f := &sources{opener: src.opener, archive: src.archive, archives: src.archives, dflt: src.dflt, embedded: src.embedded,
		first: src.first, last: src.last, log: src.log, meta: map[string]*metaSource{}, handed: map[string]bool{},
		reg: reg, ns: src.ns, record: map[string]*metaCache{}}
	f.derivedOnce.Do(func() {})
	return f
}
