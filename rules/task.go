package rules

import (
	"cmp"
	"slices"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/pmapi"
)

// task is the rules sharing one sample interval, declared one after
// another, with the fetches they need, as pmie groups them.
type task struct {
	nth   int
	delta float64     // seconds
	group *eval.Group // its rules, sharing their common sub-expressions
	rules []*eval.Rule
	stats []*RuleStats // each rule's counts
	hosts []*hostFetch

	epoch float64 // when the regular schedule started
	tick  int     // intervals since epoch
	when  float64 // next evaluation
	retry float64 // interval before retrying unavailable hosts and metrics
	from  float64 // where the contexts of hosts joining the task start
}

// hostFetch is one task's fetch from one host: the metrics it delivers
// to and the context it reads them from.
type hostFetch struct {
	key     string // hostKey of its metrics
	conn    string
	ids     []pmapi.PMID
	metrics []*eval.Metric // every metric of this host in the task
	waiting []*eval.Metric // metrics whose metadata is not yet known
	ctx     pmapi.Context
	result  pmapi.Result
	err     error // of the last fetch
	down    bool
	opened  bool
	live    *liveHost
	counts  *hostCounters              // archives: where fetches are counted, if they are (Stats.TimeEvaluations)
	limits  map[pmapi.PMID]pmapi.InDom // metrics of which prof leaves instances out (profile.go); nil: none
	prof    *pmapi.Profile             // pmie's fetch's profile, where ctx keeps none and it leaves some out
	seen    instSeen                   // archives: the instances the fetcher last delivered (pipeline.go)
	route   [][]*eval.Metric           // the ready metrics of each of ids, nil when to be made again (deliver)

	task      *task // the task whose rules h's metrics are of
	profDirty bool  // ctx's instance profile is to be made (profile)

	// from is where an archive's context starts reading: the start
	// time when the host joined its task (pmie positions each context
	// as it makes it, and then only reads on)
	from float64
}

// hostKey is what tells apart the hosts of a task's metrics, as pmie
// tells them apart: the name the host reports once it has been reached
// (pmie renames a metric's host to it at the metric's first connection),
// else its connection. So two pmcds that report one name, two on one
// machine, are one host of the task, fetched through the connection of
// the first metric added: pmie fetches the other's metrics from it too.
func hostKey(m *eval.Metric) string {
	if m.Host != "" {
		return m.Host
	}
	return m.Conn
}

// hostFor finds or adds the fetch for m's host: the fetch of its name
// (hostKey), or of its connection (the name of a host that could not be
// reached when the fetch was made, known now: a rule a reload adds).
func (t *task) hostFor(m *eval.Metric) *hostFetch {
	key := hostKey(m)
	for _, h := range t.hosts {
		if h.key == key || h.conn == m.Conn {
			return h
		}
	}
	h := &hostFetch{key: key, conn: m.Conn, task: t, from: t.from}
	t.hosts = append(t.hosts, h)
	return h
}

// add puts a rule, its counts and its metrics into the task. A metric
// that rules share is delivered to once.
func (t *task) add(r *eval.Rule, st *RuleStats) {
	t.rules = append(t.rules, r)
	t.stats = append(t.stats, st)
	for _, m := range r.Metrics {
		h := t.hostFor(m)
		if slices.Contains(h.metrics, m) {
			continue
		}
		h.metrics = append(h.metrics, m)
		h.route = nil
		if m.Ready() {
			h.addID(m.Desc.PMID)
		} else if m.Waiting() {
			h.waiting = append(h.waiting, m)
		}
	}
}

// owns is the set of h's metrics.
func (h *hostFetch) owns() map[*eval.Metric]bool {
	set := make(map[*eval.Metric]bool, len(h.metrics))
	for _, m := range h.metrics {
		set[m] = true
	}
	return set
}

// addID adds a metric to the fetch list unless it is there already.
func (h *hostFetch) addID(id pmapi.PMID) {
	h.route = nil // a metric is ready, if not a new one
	for _, x := range h.ids {
		if x == id {
			return
		}
	}
	h.ids = append(h.ids, id)
}

// waits reports whether any host of t is down or has metrics waiting for
// their metadata.
func (t *task) waits() bool {
	for _, h := range t.hosts {
		if h.down || len(h.waiting) > 0 {
			return true
		}
	}
	return false
}

// distribute hands the values of h's last live fetch to its metrics.
func (h *hostFetch) distribute() {
	if h.err == nil && !h.down {
		h.limit(&h.result)
		sortResult(&h.result)
	}
	h.deliver(&h.result, nil)
}

// deliver hands the values of r, h's fetch (sorted by sortResult), to
// its metrics, unless the fetch failed or the host is down; cols, if not
// nil, are the columns of r's value sets (eval.Columns), else the metrics
// make them. r and cols must stay unchanged until the metrics have been
// evaluated.
func (h *hostFetch) deliver(r *pmapi.Result, cols []eval.Columns) {
	for _, m := range h.metrics {
		m.Drop()
		// a host answering but with no metric to fetch yet (none found
		// in its namespace) is not down: its metrics have no values, and
		// a set over hosts with one of them is unknown, as in pmie
		m.SetDown(h.live != nil && (h.down || h.err != nil && (len(h.ids) > 0 || h.ctx == nil)))
	}
	if h.err != nil || h.down {
		return
	}
	stamp := realTime(r.Time)
	route := h.routes()
	for i := range r.Sets {
		vs := &r.Sets[i]
		if vs.Err != nil || len(vs.Values) == 0 {
			continue
		}
		var col *eval.Columns
		if i < len(cols) {
			col = &cols[i]
		}
		// (value sets come in the order of the fetch list)
		j := i
		if j >= len(route) || h.ids[j] != vs.PMID {
			if j = slices.Index(h.ids, vs.PMID); j < 0 {
				continue
			}
		}
		for _, m := range route[j] {
			m.Deliver(vs, col, stamp)
		}
	}
}

// routes returns, for each metric of the fetch list, the ready metrics
// that its values are delivered to (a metric becomes ready only once,
// and then adds its identifier to the list: see addID), made again after
// a change. Looking them up among all of the host's metrics at every
// evaluation was 1% of the benchmark's CPU time (perf), on the
// evaluation's processor: without it the wall time is some 3% less (61
// interleaved runs).
func (h *hostFetch) routes() [][]*eval.Metric {
	if h.route != nil && len(h.route) == len(h.ids) {
		return h.route
	}
	h.route = make([][]*eval.Metric, len(h.ids))
	for i, id := range h.ids {
		for _, m := range h.metrics {
			if m.Ready() && m.Desc.PMID == id {
				h.route[i] = append(h.route[i], m)
			}
		}
	}
	return h.route
}

// sortResult sorts each value set of r by instance, as pmie sorts them.
func sortResult(r *pmapi.Result) {
	for i := range r.Sets {
		sortByInst(r.Sets[i].Values)
	}
}

// sortByInst sorts vs by instance, keeping the order of equal ones.
func sortByInst(vs []pmapi.Value) {
	if !sortedByInst(vs) {
		slices.SortStableFunc(vs, byInst)
	}
}

// sortedByInst reports whether vs is sorted by instance (as it mostly is,
// so this is worth doing without a comparison function).
func sortedByInst(vs []pmapi.Value) bool {
	for i := 1; i < len(vs); i++ {
		if vs[i].Inst < vs[i-1].Inst {
			return false
		}
	}
	return true
}

func byInst(a, b pmapi.Value) int { return cmp.Compare(a.Inst, b.Inst) }

// requeue puts the queue's first task, whose evaluation time has just
// moved on, back in order of evaluation time, ahead of any task due at
// the same time, as pmie does. The queue keeps its storage.
func requeue(q []*task) {
	t := q[0]
	i := 1
	for ; i < len(q) && t.when > q[i].when; i++ {
		q[i-1] = q[i]
	}
	q[i-1] = t
}
