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
// does this; ours follows it.

// profileOf is the instances that pmie's fetch for conn in a task's rules
// asks for: for each instance domain limited to some instances, those;
// nil if none is.
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

// setProfile has h's fetches give what pmie's would with the instance
// profile that t's rules make: values of instances the profile leaves
// out are dropped.
func (t *task) setProfile() {
	for _, h := range t.hosts {
		h.limits = nil
		prof := profileOf(t.rules, h.conn)
		if prof == nil {
			continue
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
}

// limit drops from r, h's fetch, the values of instances that the
// profile of pmie's fetch leaves out (setProfile).
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
