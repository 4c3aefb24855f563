package main

import (
	"sort"
	"sync"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// metricRefs calls fn with each metric a statement names, and the hosts
// it names it on (none for the default host).
func metricRefs(x lang.Expr, fn func(name string, hosts []string)) {
	switch x := x.(type) {
	case *lang.Metric:
		var hosts []string
		for _, h := range x.Hosts {
			hosts = append(hosts, h.Value)
		}
		fn(x.Name, hosts)
	case *lang.Paren:
		metricRefs(x.X, fn)
	case *lang.Unary:
		metricRefs(x.X, fn)
	case *lang.Binary:
		metricRefs(x.X, fn)
		metricRefs(x.Y, fn)
	case *lang.MatchInst:
		metricRefs(x.X, fn)
	case *lang.Quant:
		metricRefs(x.X, fn)
	case *lang.Aggr:
		metricRefs(x.X, fn)
	case *lang.Var:
		if x.Value != nil {
			metricRefs(x.Value, fn)
		}
	case *lang.Rule:
		metricRefs(x.Cond, fn)
		metricRefs(x.Action, fn)
	case *lang.Ruleset:
		for _, r := range x.Rules {
			metricRefs(r, fn)
		}
		if x.Unknown != nil {
			metricRefs(x.Unknown, fn)
		}
		if x.Otherwise != nil {
			metricRefs(x.Otherwise, fn)
		}
	}
}

// warmCache holds metadata looked up ahead of binding, so that binding
// rules over many live hosts does not wait for each host in turn.
type warmCache struct {
	names  map[string]nameAnswer
	descs  map[pmapi.PMID]descAnswer
	indoms map[pmapi.InDom]indomAnswer
}

type nameAnswer struct {
	id  pmapi.PMID
	err error
}

type descAnswer struct {
	desc pmapi.Desc
	err  error
}

type indomAnswer struct {
	insts []pmapi.Instance
	err   error
}

// prefetch looks up, for each live host at once, the metadata of the
// metrics the statements name there. Archives need no such help.
func (src *sources) prefetch(stmts []*lang.Stmt) {
	if src.archive {
		return
	}
	src.mu.Lock()
	src.failed = map[string]error{}
	src.mu.Unlock()
	want := map[string]map[string]bool{}
	for _, st := range stmts {
		metricRefs(st.X, func(name string, hosts []string) {
			if len(hosts) == 0 {
				hosts = []string{src.dflt}
			}
			for _, h := range hosts {
				if want[h] == nil {
					want[h] = map[string]bool{}
				}
				want[h][name] = true
			}
		})
	}
	var wg sync.WaitGroup
	for conn, names := range want {
		wg.Add(1)
		go func(conn string, names map[string]bool) {
			defer wg.Done()
			s, err := src.metadataOf(conn)
			if err != nil {
				return
			}
			s.(*metaSource).warmUp(names)
		}(conn, names)
	}
	wg.Wait()
}

// warmUp looks up names and their descriptors and instance domains: in
// one request each for all the names and all the descriptors where the
// context can (pmcd), the instance domains one by one.
func (m *metaSource) warmUp(names map[string]bool) {
	w := &warmCache{names: map[string]nameAnswer{}, descs: map[pmapi.PMID]descAnswer{},
		indoms: map[pmapi.InDom]indomAnswer{}}
	sorted := make([]string, 0, len(names))
	for name := range names {
		sorted = append(sorted, name)
	}
	sort.Strings(sorted)
	ids := m.lookupNames(sorted)
	var found []pmapi.PMID
	for i, name := range sorted {
		id := ids[i]
		if id == pmapi.PMIDNull {
			// Not there, or a derived metric: left to the binding of the
			// rule that names it, in the order of the rules. Looking it
			// up loads PCP's derived metrics and checks the one named,
			// and what is wrong with them is said then, among what is
			// said of the rules, as pmie says it.
			continue
		}
		w.names[name] = nameAnswer{id, nil}
		found = append(found, id)
	}
	descs := m.lookupDescs(found)
	for i, id := range found {
		d, err := descs[i], error(nil)
		if d.PMID == pmapi.PMIDNull {
			d, err = m.ctx.LookupDesc(id)
		}
		w.descs[id] = descAnswer{d, err}
		if err != nil || d.InDom == pmapi.InDomNull {
			continue
		}
		if _, ok := w.indoms[d.InDom]; !ok {
			in, err := m.ctx.InDom(d.InDom)
			w.indoms[d.InDom] = indomAnswer{in, err}
		}
	}
	m.warm = w
}

// lookupNames looks names up in one request if the context (with no
// derived metrics or namespace over it) can; a name not found, or not
// looked up, is PMIDNull.
func (m *metaSource) lookupNames(names []string) []pmapi.PMID {
	ids := make([]pmapi.PMID, len(names))
	for i := range ids {
		ids[i] = pmapi.PMIDNull
	}
	if b, ok := m.ctx.(interface {
		LookupNames([]string) ([]pmapi.PMID, error)
	}); ok && len(names) > 1 {
		if got, err := b.LookupNames(names); err == nil {
			copy(ids, got)
		}
	}
	return ids
}

// lookupDescs looks the descriptors of ids up in one request if the
// context can; one not found, or not looked up, has PMID PMIDNull.
func (m *metaSource) lookupDescs(ids []pmapi.PMID) []pmapi.Desc {
	out := make([]pmapi.Desc, len(ids))
	for i := range out {
		out[i].PMID = pmapi.PMIDNull
	}
	if b, ok := m.ctx.(interface {
		LookupDescs([]pmapi.PMID) ([]pmapi.Desc, error)
	}); ok && len(ids) > 1 {
		if got, err := b.LookupDescs(ids); err == nil {
			copy(out, got)
		}
	}
	return out
}

// cool forgets the metadata looked up ahead, and the hosts that could not
// be reached, once the rules are bound: later lookups (retries of metrics
// that were missing) must ask again.
func (src *sources) cool() {
	src.mu.Lock()
	defer src.mu.Unlock()
	src.failed = nil
	for _, m := range src.meta {
		m.warm = nil
	}
}
