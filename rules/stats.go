package rules

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopcp/pmie/eval"
)

// Stats is the engine's count of its own work: per rule, and for the
// process. It holds what pmie keeps for pmcd's pmcd.pmie metrics (rules,
// evaluations expected and made, their truth, actions run) and what
// per-rule metrics (Prometheus, MMV) want.
//
// A rule's counts belong to its identity (eval.Rule.Key), not to the
// compiled rule: a reloaded program's rules with the same keys carry on
// with them, new rules start at zero, and the counts of rules gone go
// with them. The process totals only ever grow.
//
// Counts are updated by the engine's goroutine and may be read from any
// goroutine at any time.
type Stats struct {
	mu       sync.Mutex
	rules    []*RuleStats
	numRules int
	expected float32
	after    hooks
	clock    func() time.Time // times evaluations, if set (TimeEvaluations)

	total counters
	lag   lags

	hostsMu   sync.Mutex
	hostTable hostTable
}

// NewStats makes an empty Stats.
func NewStats() *Stats { return &Stats{} }

// counters are counts updated as rules are evaluated.
type counters struct {
	evaluations, tru, fals, unknown, actions atomic.Uint64
}

func (c *counters) snapshot() Counts {
	return Counts{Evaluations: c.evaluations.Load(), True: c.tru.Load(), False: c.fals.Load(),
		Unknown: c.unknown.Load(), Actions: c.actions.Load()}
}

// Counts are counts of evaluations and their outcomes.
type Counts struct {
	// Evaluations counts evaluations of rules and expressions (each
	// statement scheduled counts once each time its task runs).
	Evaluations uint64
	// True, False and Unknown count the outcomes of rules (cond ->
	// action): for a ruleset, each of its rules tried.
	True, False, Unknown uint64
	// Actions counts actions run (not those held off).
	Actions uint64
}

// Totals are the process's counts, as pmcd.pmie shows them.
type Totals struct {
	Counts
	// NumRules is pmcd.pmie.numrules: rules (cond -> action) in the
	// program loaded, counting a ruleset's rules and its unknown and
	// otherwise clauses.
	NumRules int
	// Expected is pmcd.pmie.eval.expected, evaluations expected per
	// second: the sum of 1/delta over the statements scheduled, added up
	// in single precision as pmie does.
	Expected float32
	// Lag is how long after it was due the last live evaluation had
	// finished (fetching and evaluating), MaxLag the longest so far; for
	// many engines, the longest of theirs.
	Lag, MaxLag time.Duration
}

// RuleCounts is one rule's counts.
type RuleCounts struct {
	Name  string
	Key   string  // the rule's identity across reloads
	Delta float64 // its interval, seconds
	Counts
	// LastEval and EvalTime are how long its last evaluation took and
	// all of them together (its actions run included), if evaluations
	// are timed (Stats.TimeEvaluations); else zero.
	LastEval, EvalTime time.Duration
}

// RuleStats is one rule's counts as the engine updates them. It is the
// eval.Tally of its rule.
type RuleStats struct {
	name  string
	key   string
	delta float64
	c     counters
	total *counters

	last, spent atomic.Int64 // nanoseconds: the last evaluation, all of them
}

// Outcome counts a rule's outcome (eval.Tally).
func (r *RuleStats) Outcome(t eval.Truth) {
	switch t {
	case eval.True:
		r.c.tru.Add(1)
		r.total.tru.Add(1)
	case eval.False:
		r.c.fals.Add(1)
		r.total.fals.Add(1)
	default:
		r.c.unknown.Add(1)
		r.total.unknown.Add(1)
	}
}

// Fired counts an action run (eval.Tally).
func (r *RuleStats) Fired(eval.Op) {
	r.c.actions.Add(1)
	r.total.actions.Add(1)
}

// evaluated counts an evaluation of the rule.
func (r *RuleStats) evaluated() {
	r.c.evaluations.Add(1)
	r.total.evaluations.Add(1)
}

// took records how long an evaluation of the rule took.
func (r *RuleStats) took(d time.Duration) {
	r.last.Store(int64(d))
	r.spent.Add(int64(d))
}

// TimeEvaluations has the engine time each rule's evaluations by clock
// (a monotonic one, such as time.Now, safe to call from several
// goroutines), for RuleCounts' LastEval and EvalTime, and count and time
// the fetches from archives as it does those from live hosts (Hosts).
// Untimed, evaluation and archive fetches read no clock. It must be
// called before the engine runs.
func (s *Stats) TimeEvaluations(clock func() time.Time) {
	s.mu.Lock()
	s.clock = clock
	s.mu.Unlock()
}

// timer is the clock evaluations are timed by, or nil.
func (s *Stats) timer() func() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clock
}

// Totals returns the process's counts.
func (s *Stats) Totals() Totals {
	s.mu.Lock()
	t := Totals{NumRules: s.numRules, Expected: s.expected}
	s.mu.Unlock()
	t.Counts = s.total.snapshot()
	t.Lag, t.MaxLag = time.Duration(s.lag.last.Load()), time.Duration(s.lag.max.Load())
	return t
}

// lags are how late live evaluations finished: the last, the most.
type lags struct{ last, max atomic.Int64 }

// lagged records that a live evaluation finished d after the time it was
// due.
func (s *Stats) lagged(d time.Duration) {
	s.lag.last.Store(int64(d))
	for {
		m := s.lag.max.Load()
		if int64(d) <= m || s.lag.max.CompareAndSwap(m, int64(d)) {
			return
		}
	}
}

// Rules returns each rule's counts, in the order the rules were loaded.
func (s *Stats) Rules() []RuleCounts {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]RuleCounts, len(s.rules))
	for i, r := range s.rules {
		out[i] = RuleCounts{Name: r.name, Key: r.key, Delta: r.delta, Counts: r.c.snapshot(),
			LastEval: time.Duration(r.last.Load()), EvalTime: time.Duration(r.spent.Load())}
	}
	return out
}

// AfterEval has f called, on the engine's goroutine, after each
// evaluation of a task's rules and after a program is loaded or
// reloaded (so that something kept beside the counts, such as pmie's
// stats file, can follow them). f must not wait.
func (s *Stats) AfterEval(f func()) { s.after.add(f) }

// changed calls the AfterEval functions.
func (s *Stats) changed() { s.after.call() }

// hooks are functions to call after something happens.
type hooks struct {
	mu sync.Mutex
	fs []func()
}

func (h *hooks) add(f func()) {
	h.mu.Lock()
	h.fs = append(h.fs, f)
	h.mu.Unlock()
}

func (h *hooks) call() {
	h.mu.Lock()
	fs := h.fs
	h.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// add adds the counts of o.
func (c *Counts) add(o Counts) {
	c.Evaluations += o.Evaluations
	c.True += o.True
	c.False += o.False
	c.Unknown += o.Unknown
	c.Actions += o.Actions
}

// load makes the counts follow a newly loaded program: numRules rules
// (eval.Builder.Rules) and prog's statements. Rules whose keys were
// loaded before keep their counts. It returns each statement's counts.
func (s *Stats) load(prog *eval.Program, numRules int) []*RuleStats {
	s.mu.Lock()
	old := map[string]*RuleStats{}
	for _, r := range s.rules {
		old[r.key] = r
	}
	var expected float32
	rs := make([]*RuleStats, len(prog.Rules))
	seen := map[string]int{}
	for i, r := range prog.Rules {
		key := r.Key
		if key == "" {
			key = r.Name
		}
		// the same text may be written twice; each copy is a rule
		n := seen[key]
		seen[key]++
		if n > 0 {
			key += "\x00#" + strconv.Itoa(n)
		}
		st := old[key]
		if st == nil {
			st = &RuleStats{key: key, total: &s.total}
		}
		st.name, st.delta = r.Name, r.Delta
		rs[i] = st
		if r.Delta > 0 {
			// pmie adds 1/delta, worked out in double precision, to
			// a float
			expected = float32(float64(expected) + 1/r.Delta)
		}
	}
	s.rules, s.numRules, s.expected = rs, numRules, expected
	s.mu.Unlock()
	s.changed()
	return rs
}
