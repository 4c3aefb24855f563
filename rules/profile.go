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
// calls are made on the contexts that keep a profile.

// profileOf is the instances that pmie's fetch for conn in a task's rules
// asks for, for a context that keeps no profile of its own: for each
// instance domain limited to some instances, those; nil if none is.
func profileOf(rules []*eval.Rule, conn string) map[pmapi.InDom][]int32 {
	type domain struct {
		all     bool    // pmie has asked for all of its instances
		limited bool    // libpcp's profile includes only list
		list    []int32 // ...these
	}
	doms := map[pmapi.InDom]*domain{}
	for _, r := range rules {
		for _, m := range r.Metrics {
			if m.Conn != conn || !m.Ready() {
				continue
			}
			in := m.Desc.InDom
			d := doms[in]
			if d == nil {
				d = &domain{}
				doms[in] = d
			}
			ids, named := m.Named()
			switch {
			case d.all:
			case !named && in == pmapi.InDomNull:
				// every domain's profile forgotten
				for _, o := range doms {
					o.limited, o.list = false, nil
				}
				d.all = true
			case !named:
				d.all, d.limited, d.list = true, false, nil
			case d.limited:
				for _, id := range ids {
					if !slices.Contains(d.list, id) {
						d.list = append(d.list, id)
					}
				}
			case d.list == nil && !d.limited:
				// a domain without a profile: only these
				d.limited, d.list = true, slices.Clone(ids)
			}
		}
	}
	var out map[pmapi.InDom][]int32
	for in, d := range doms {
		if d.limited {
			if out == nil {
				out = map[pmapi.InDom][]int32{}
			}
			out[in] = d.list
		}
	}
	return out
}

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
// collector), h drops the values that profile would leave out (limit).
// It is called before a fetch, by whoever fetches.
func (h *hostFetch) profile() {
	if !h.profDirty || h.ctx == nil {
		return
	}
	h.profDirty = false
	h.limits = nil
	if replayProfile(h.ctx, h.task.rules, h.conn) {
		return
	}
	prof := profileOf(h.task.rules, h.conn)
	if prof == nil {
		return
	}
	for _, m := range h.metrics {
		if ids, ok := prof[m.Desc.InDom]; ok && m.Ready() {
			if h.limits == nil {
				h.limits = map[pmapi.PMID][]int32{}
			}
			h.limits[m.Desc.PMID] = ids
		}
	}
}

// replayProfile makes on ctx, from a profile of every instance, the calls
// pmie makes (findProfile) as it adds the metrics of rules that conn
// serves to its fetch, in order, and reports whether ctx keeps a profile.
func replayProfile(ctx pmapi.Context, rules []*eval.Rule, conn string) bool {
	if !pmapi.KeepsProfile(ctx) {
		return false
	}
	pmapi.AddProfile(ctx, pmapi.InDomNull)
	all := map[pmapi.InDom]bool{} // pmie has asked for every instance
	for _, r := range rules {
		for _, m := range r.Metrics {
			in := m.Desc.InDom
			if m.Conn != conn || !m.Ready() || all[in] {
				continue
			}
			if ids, named := m.Named(); named {
				pmapi.AddProfile(ctx, in, ids...)
				continue
			}
			pmapi.DelProfile(ctx, in)
			pmapi.AddProfile(ctx, in)
			all[in] = true
		}
	}
	return true
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
		ids, ok := h.limits[vs.PMID]
		if !ok {
			continue
		}
		vs.Values = slices.DeleteFunc(vs.Values, func(v pmapi.Value) bool { return !slices.Contains(ids, v.Inst) })
	}
}
