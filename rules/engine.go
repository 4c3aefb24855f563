package rules

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/pmapi"
)

// Level is the severity of a message to the operator, as pmNotifyErr
// labels them.
type Level int

// The message levels. Info and Error messages are pmNotifyErr's (with
// time, process and level); Warning messages are plain lines.
const (
	Info Level = iota
	Warning
	Error
)

// OpenFunc opens a new context for a connection: an archive name, or a
// pmcd host specification.
type OpenFunc func(conn string) (pmapi.Context, error)

// NowFunc is the real-time clock.
type NowFunc func() time.Time

// SleepFunc waits until a time, or until ctx is done (returning its error).
type SleepFunc func(ctx context.Context, until time.Time) error

// NotifyFunc reports a message to the operator (pmie's log). An Engine
// calls it only from the goroutine running Run.
type NotifyFunc func(level Level, msg string)

// Config is how an Engine runs.
type Config struct {
	Archive bool    // archives: evaluate on their clock, as fast as possible
	Start   float64 // first evaluation, seconds since the epoch
	Stop    float64 // no evaluation after this

	Verbose  int  // 0 silent, 1 -v values, 2 -V annotated, 3 -W satisfying
	ShowTime bool // print each value's time (-e, and always for archives)
	Quiet    bool // no informational messages
	// Applet prints the values of each evaluation on one line, each
	// followed by a space, as -v prints them but without the rules' names
	// or times: pmie's secret applet mode (-X), for a thin client.
	Applet bool
	// Report, if set, is given the rules of each evaluation instead of
	// their values being printed: pmie's secret agent mode (-x) sends
	// them to the summary PMDA. out is where the rules' actions have
	// printed, if anything. An error stops the engine, which returns
	// it.
	Report func(rules []*eval.Rule, out Output) error

	Out        io.Writer                // values and print actions
	TimeString func(sec float64) string // ctime(3) form in the reporting zone
	Calendar   eval.Calendar

	Open   OpenFunc
	Now    NowFunc   // live mode
	Sleep  SleepFunc // live mode
	Notify NotifyFunc

	// Hosts is what has been said of live hosts so far, when something
	// else (binding rules) has tried them already; nil means nothing.
	Hosts *Hosts

	// FetchTimeout bounds how long a live evaluation waits for a host;
	// a host slower than this has unknown values for that evaluation.
	FetchTimeout time.Duration
	// Limits, if set, bounds connections being made and fetches in
	// flight (shared with other engines); Backoff spaces out attempts to
	// reach a host that cannot be reached.
	Limits  *Limits
	Backoff Backoff
	// Phase, live, spreads evaluations over time: when it is above 0,
	// each group of rules sharing an interval is first evaluated once the
	// hosts have been connected, at the first time Start + (Phase+k) x
	// its interval (k = 0, 1...), and so is a group a reload adds. A
	// fleet gives each member its own phase, so that thousands of hosts
	// are not all fetched and evaluated at the same instant (as the
	// pmie of a farm, started one by one, are not). At 0, as pmie, the
	// first evaluation is at Start, and a reload's new group at once.
	Phase float64

	// Stats receives the engine's counts of its work; nil makes new ones
	// (see Engine.Stats).
	Stats *Stats

	// Evaluated, if set, is called after each evaluation of a group of
	// rules sharing an interval, with its time, before their values are
	// printed: observers (rule unit tests, alerting) read the rules'
	// values then (their Truth and Bindings too).
	Evaluated func(now float64, rules []*eval.Rule)
	// Removed, if set, is called at a reload with the rules that are no
	// longer in force.
	Removed func(rules []*eval.Rule, now float64)
}

// Output is where an engine writes values and print actions: a writer
// it flushes after each evaluation. A Config.Out that is not one is
// given a buffer.
type Output interface {
	io.Writer
	Flush() error
}

// retryMin is pmie's first retry interval for unavailable hosts and
// metrics, in seconds; retries back off exponentially up to the delta.
const retryMin = 5

// Engine evaluates a program's rules on schedule.
type Engine struct {
	cfg   Config
	b     *eval.Builder
	rt    *eval.Runtime
	tasks []*task
	out   Output
	line  []byte
	hosts *Hosts
	stats *Stats

	started []*hostFetch // live: the hosts whose fetches are awaited
	alarm   *alarm       // live: when to stop waiting for them

	mu      sync.Mutex
	pending *pending
	wake    func() // ends the wait for the next evaluation, if waiting
	stopped bool

	// live: the context sleeps are made under (see sleep), and whether
	// a reload cancelled it
	sleepParent context.Context
	sleepCtx    context.Context
	sleepCancel context.CancelFunc
	reloadWoke  bool
	wakeFn      func()
}

// New groups the rules of prog into tasks by sample interval, as pmie
// does: a rule joins the task of the rule declared before it when their
// intervals are equal. b is the builder that bound the rules; it is used
// again to retry metrics whose metadata was unavailable.
func New(cfg Config, b *eval.Builder, prog *eval.Program) *Engine {
	e := &Engine{cfg: cfg, b: b, rt: b.Env.Runtime, hosts: cfg.Hosts, stats: cfg.Stats}
	if e.hosts == nil {
		e.hosts = NewHosts(cfg.Notify, cfg.Quiet)
	}
	if e.stats == nil {
		e.stats = NewStats()
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	if w, ok := cfg.Out.(Output); ok {
		e.out = w
	} else {
		e.out = bufio.NewWriterSize(cfg.Out, 64<<10)
	}
	e.tasks = groupTasks(prog, e.stats.load(prog, b.Rules()), func(*eval.Rule) bool { return true })
	for _, t := range e.tasks {
		t.from = cfg.Start
		for _, h := range t.hosts {
			h.from = cfg.Start
		}
	}
	return e
}

// ByInterval groups rules, in order, as pmie makes tasks of them: a rule
// joins the group of the rule before it when their intervals are equal,
// else starts a new one.
func ByInterval(rules []*eval.Rule) [][]*eval.Rule {
	var groups [][]*eval.Rule
	for _, r := range rules {
		if n := len(groups); n > 0 && groups[n-1][0].Delta == r.Delta {
			groups[n-1] = append(groups[n-1], r)
			continue
		}
		groups = append(groups, []*eval.Rule{r})
	}
	return groups
}

// groupTasks puts the rules of prog, with their counts, into tasks by
// interval, and has the rules of each task share their common
// sub-expressions (eval.Regroup) where fresh says they are new.
func groupTasks(prog *eval.Program, stats []*RuleStats, fresh func(*eval.Rule) bool) []*task {
	var tasks []*task
	for _, rules := range ByInterval(prog.Rules) {
		tasks = append(tasks, &task{nth: len(tasks), delta: rules[0].Delta, group: &eval.Group{Rules: rules}})
	}
	groups := make([]*eval.Group, len(tasks))
	for i, t := range tasks {
		groups[i] = t.group
	}
	eval.Regroup(groups, fresh)
	i := 0
	for _, t := range tasks {
		for _, r := range t.group.Rules {
			t.add(r, stats[i])
			i++
		}
		t.setProfile()
	}
	return tasks
}

// Stats is the engine's count of its work.
func (e *Engine) Stats() *Stats { return e.stats }

// Tasks is the number of distinct schedules.
func (e *Engine) Tasks() int { return len(e.tasks) }

// Flush writes out buffered output.
func (e *Engine) Flush() error { return e.out.Flush() }

// openArchives opens each task's own context on each archive, positioned
// at the start and stepping by the task's interval.
func (e *Engine) openArchives() error {
	timed := e.stats.timer() != nil
	for _, t := range e.tasks {
		for _, h := range t.hosts {
			if h.opened {
				continue // read on from where it is (interactive runs)
			}
			if timed {
				h.counts = e.stats.host(h.conn)
			}
			ctx, err := e.cfg.Open(h.conn)
			if err != nil {
				return fmt.Errorf("cannot open archive %s\npmNewContext: %w", h.conn, err)
			}
			h.ctx, h.opened = ctx, true
			if s, ok := ctx.(pmapi.Seeker); ok {
				if err := s.SetMode(pmapi.ModeInterp, fromReal(h.from), interval(t.delta)); err != nil {
					return fmt.Errorf("pmSetMode failed: %w", err)
				}
			}
		}
	}
	return nil
}

// interval is the step pmie asks of an archive for a delta: whole
// milliseconds (whole seconds beyond 24 days).
func interval(delta float64) time.Duration {
	if delta > 2073600 {
		return time.Duration(int64(delta)) * time.Second
	}
	return time.Duration(int64(delta*1000)) * time.Millisecond
}

// Run evaluates the rules until the stop time, or until ctx is done (live
// mode).
func (e *Engine) Run(ctx context.Context) error {
	defer e.out.Flush()
	defer e.finish()
	if len(e.tasks) == 0 {
		return nil
	}
	if e.cfg.Archive {
		if err := e.openArchives(); err != nil {
			return err
		}
		return e.runArchive()
	}
	return e.runLive(ctx)
}

// runArchive steps each task through the archives on its own schedule,
// its fetches running ahead of its evaluations (see pipeline.go).
func (e *Engine) runArchive() error {
	p := startPipeline(e.tasks, e.cfg.Start, e.cfg.Stop, e.stats.timer())
	defer p.stop()
	for b := range p.ready {
		for i := range b.steps {
			if err := e.evalStep(&b.steps[i]); err != nil {
				return err
			}
		}
		p.done(b)
	}
	p.wg.Wait()
	if len(p.order) == len(e.tasks) {
		e.tasks = p.order // the queue as the run left it, for the next
	}
	return nil
}

// evalStep hands a step's values to its task's metrics, then evaluates
// the task.
func (e *Engine) evalStep(s *step) error {
	if s.err != nil {
		return s.err
	}
	t := s.t
	for i, h := range t.hosts {
		h.err = s.hosts[i].err
		h.deliver(&s.hosts[i].result, s.hosts[i].cols)
	}
	e.rt.Clock.Reflect(s.now, t.delta, e.cfg.Calendar)
	return e.evalTask(t, s.now)
}

// evalTask evaluates a task's rules on the values delivered to them and
// prints (or reports) their values.
func (e *Engine) evalTask(t *task, now float64) error {
	t.group.Begin()
	clock := e.stats.timer()
	var mark time.Time
	if clock != nil {
		mark = clock()
	}
	for i, r := range t.rules {
		st := t.stats[i]
		e.rt.Tally = st
		if r.Eval(e.rt) {
			st.evaluated()
		}
		if clock != nil {
			// one reading a rule: the rule's time runs from the end of
			// the one before (common sub-expressions are charged to the
			// first rule that evaluates them)
			end := clock()
			st.took(end.Sub(mark))
			mark = end
		}
	}
	e.rt.Tally = nil
	e.stats.changed()
	if e.cfg.Evaluated != nil {
		e.cfg.Evaluated(now, t.rules)
	}
	switch {
	case e.cfg.Report != nil:
		return e.cfg.Report(t.rules, e.out)
	case e.cfg.Applet:
		e.printApplet(t)
	case e.cfg.Verbose > 0:
		e.printValues(t, now)
	}
	return nil
}

// printApplet writes the rules' values on one line, as -X asks.
func (e *Engine) printApplet(t *task) {
	b := e.line[:0]
	for _, r := range t.rules {
		b = r.Root.AppendValue(b)
		b = append(b, ' ')
	}
	b = append(b, '\n')
	e.out.Write(b)
	e.line = b
}

// printValues writes each rule's value as -v, -V or -W asks.
func (e *Engine) printValues(t *task, now float64) {
	b := e.line[:0]
	stamp, timed := "", e.cfg.ShowTime && e.cfg.TimeString != nil
	if timed {
		stamp = e.cfg.TimeString(now)
	}
	for _, r := range t.rules {
		b = append(b, r.Name...)
		if timed {
			b = append(b, " ("...)
			b = append(b, stamp...)
			b = append(b, ')')
		}
		b = append(b, ": "...)
		switch e.cfg.Verbose {
		case 1:
			b = r.Root.AppendValue(b)
		case 2:
			b = r.Root.AppendAnnotated(b)
		default:
			b = r.Root.AppendSatisfying(b)
		}
		b = append(b, '\n')
	}
	b = append(b, '\n')
	e.out.Write(b)
	e.line = b
}
