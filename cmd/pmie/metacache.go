package main

import (
	"sync"

	"github.com/gopcp/pmie/pmapi"
)

// metaCache keeps the answers a host gave to name and descriptor
// lookups on one context (recording), so that another context on the
// same host can be given them without asking again (answering): a
// reload that redefines derived metrics checks the new definitions over
// a connection of its own, as it reads the rules' metadata, and the
// fetch connections kept are then seen through the new definitions
// (derive.Layer checks them again) from these answers, while evaluation
// waits.
type metaCache struct {
	mu    sync.Mutex
	names map[string]nameAnswer
	descs map[pmapi.PMID]descAnswer
}

func newMetaCache() *metaCache {
	return &metaCache{names: map[string]nameAnswer{}, descs: map[pmapi.PMID]descAnswer{}}
}

// get finds the answer for k in m, one of c's tables.
func get[K comparable, V any](c *metaCache, m map[K]V, k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := m[k]
	return v, ok
}

// put keeps the answer for k in m, one of c's tables.
func put[K comparable, V any](c *metaCache, m map[K]V, k K, v V) {
	c.mu.Lock()
	m[k] = v
	c.mu.Unlock()
}

// recording is a context that keeps its lookups' answers in a metaCache.
type recording struct {
	pmapi.Context
	c *metaCache
}

func (r *recording) LookupName(name string) (pmapi.PMID, error) {
	id, err := r.Context.LookupName(name)
	put(r.c, r.c.names, name, nameAnswer{id, err})
	return id, err
}

func (r *recording) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	d, err := r.Context.LookupDesc(id)
	put(r.c, r.c.descs, id, descAnswer{d, err})
	return d, err
}

// answering is a context that answers lookups from a metaCache when it
// can, until stop; it asks its own connection otherwise.
type answering struct {
	pmapi.Context
	c *metaCache // nil once stopped
}

func (a *answering) LookupName(name string) (pmapi.PMID, error) {
	if a.c != nil {
		if ans, ok := get(a.c, a.c.names, name); ok {
			return ans.id, ans.err
		}
	}
	return a.Context.LookupName(name)
}

func (a *answering) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	if a.c != nil {
		if ans, ok := get(a.c, a.c.descs, id); ok {
			return ans.desc, ans.err
		}
	}
	return a.Context.LookupDesc(id)
}

// stop has a answer from its own connection from now on. The caller
// must see to it that no lookup runs meanwhile.
func (a *answering) stop() { a.c = nil }
