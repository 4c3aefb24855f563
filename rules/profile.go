package rules

import (
	"slices"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/pmapi"
)

// pmie fetches a host's metrics for a task in one fetch, whose context's
// instance profile it sets as it adds each metric (its bundle and
// findProfile, in the order of the rules and, within a rule, of its
// metrics): the first time it meets an instance domain, a metric whose
// rule names instances adds them (pmAddProfile), and one that wants every
// instance resets the domain to all of them, after which nothing changes
// it. A singular metric does that with PM_INDOM_NULL, which for libpcp's
// pmDelProfile and pmAddProfile means every instance domain: the profile
// of each domain is then forgotten (all instances again), and the next
// metric naming instances of a domain starts it afresh with those alone.
// So a rule naming an instance of a domain, then a singular metric, then
// a rule naming another instance of the same domain, and the first rule's
// instance is not fetched at all: its values stay unknown. pmie 6.0.3
// does this; ours follows it. Archives' interpolation depends on the
// profile too (what a fetch at a time between records gives for an
// instance depends on which other instances it looks for), so the same
// calls are made on the contexts that keep a profile, and on a profile of
// its own for a context that keeps none.

// setProfile has the instance profile of each of t's fetches made again
// before its next fetch (profile): t's rules, or the metrics ready among
// them, have changed.
func (t *task) setProfile() {
	for _, h := range t.hosts {
		h.profDirty = true
	}
}

// profile makes h's context's instance profile the one pmie's fetch would
// have, if it has changed (setProfile) or h's context is new: it replays
// pmie's calls on a context that keeps a profile, as pmie does once, as
// it adds the metrics to its fetch; on one that does not (the embedded
// collector), it replays them on a profile of h's own, and h drops the
// values that profile leaves out (limit). It is called before a fetch,
// by whoever fetches.
func (h *hostFetch) profile() {
	if !h.profDirty || h.ctx == nil {
		return
	}
	h.profDirty = false
	h.limits, h.prof = nil, nil
	if pmapi.KeepsProfile(h.ctx) {
		findProfile(h.task.rules, h.owns(), ctxProfile{h.ctx})
		return
	}
	prof := &pmapi.Profile{}
	findProfile(h.task.rules, h.owns(), prof)
	for _, m := range h.metrics {
		in := m.Desc.InDom
		if all, ok := prof.Uniform(in); m.Ready() && !(ok && all) {
			if h.limits == nil {
				h.limits = map[pmapi.PMID]pmapi.InDom{}
			}
			h.limits[m.Desc.PMID] = in
		}
	}
	if h.limits != nil {
		h.prof = prof
	}
}

// profiler is what findProfile makes its calls on: a context's profile
// (ctxProfile), or a profile of its own (pmapi.Profile).
type profiler interface {
	Add(indom pmapi.InDom, insts []int32)
	Del(indom pmapi.InDom, insts []int32)
}

// ctxProfile makes a profiler's calls on a context that keeps a profile.
type ctxProfile struct{ ctx pmapi.Context }

func (p ctxProfile) Add(indom pmapi.InDom, insts []int32) { pmapi.AddProfile(p.ctx, indom, insts...) }
func (p ctxProfile) Del(indom pmapi.InDom, insts []int32) { pmapi.DelProfile(p.ctx, indom, insts...) }

// findProfile makes on p, from a profile of every instance, the calls
// pmie makes (findProfile) as it adds the metrics of rules that a fetch
// owns to it, in order.
func findProfile(rules []*eval.Rule, owns map[*eval.Metric]bool, p profiler) {
	p.Add(pmapi.InDomNull, nil)
	all := map[pmapi.InDom]bool{} // pmie has asked for every instance
	for _, r := range rules {
		for _, m := range r.Metrics {
			in := m.Desc.InDom
			if !owns[m] || !m.Ready() || all[in] {
				continue
			}
			if ids, named := m.Named(); named {
				p.Add(in, ids)
				continue
			}
			p.Del(in, nil)
			p.Add(in, nil)
			all[in] = true
		}
	}
}

// limit drops from r, h's fetch, the values of instances that the
// profile of pmie's fetch leaves out, where h's context keeps no profile
// (profile).
func (h *hostFetch) limit(r *pmapi.Result) {
	if h.limits == nil {
		return
	}
	for i := range r.Sets {
		vs := &r.Sets[i]
		in, ok := h.limits[vs.PMID]
		if !ok {
			continue
		}
		vs.Values = slices.DeleteFunc(vs.Values, func(v pmapi.Value) bool { return !h.prof.Contains(in, v.Inst) })
	}
}
