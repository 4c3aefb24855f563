package archive

import (
	"slices"
	"strings"
	"sync"

	"github.com/gopcp/pmie/pmapi"
)

// pmns is the namespace built from an archive's metric names. It keeps
// libpcp's order: a node's children are listed newest first (each new
// child goes at the front), and pmNameAll lists a metric's names in the
// reverse of a depth-first walk in that order.
//
// In a context of several archives libpcp loads each archive's names into
// one tree, but parent nodes first made for a later archive stay hidden
// (libpcp marks them as trimmed and never unmarks them): names below them
// cannot be looked up or listed, though pmNameAll still gives them.
type pmns struct {
	root    *pmnsNode
	mu      sync.Mutex              // guards byPMID and changed once loaded (reopen.go)
	byPMID  map[pmapi.PMID][]string // pmNameAll order; built on demand
	changed bool
	late    bool // adding the names of an archive after the first
}

type pmnsNode struct {
	name     string
	pmid     pmapi.PMID // PMIDNull for a node made only as a parent
	hidden   bool
	kids     []*pmnsNode
	kidIndex map[string]*pmnsNode
}

func newPMNS() *pmns {
	return &pmns{root: &pmnsNode{pmid: pmapi.PMIDNull}}
}

func (n *pmnsNode) child(name string) *pmnsNode {
	if n.kidIndex != nil {
		return n.kidIndex[name]
	}
	for _, k := range n.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

func (n *pmnsNode) addChild(k *pmnsNode) {
	n.kids = append(n.kids, k)
	if n.kidIndex == nil && len(n.kids) > 8 {
		n.kidIndex = make(map[string]*pmnsNode, len(n.kids))
		for _, c := range n.kids {
			n.kidIndex[c.name] = c
		}
	} else if n.kidIndex != nil {
		n.kidIndex[k.name] = k
	}
}

// children lists the visible children of n, newest first.
func (n *pmnsNode) children() []*pmnsNode {
	out := make([]*pmnsNode, 0, len(n.kids))
	for i := len(n.kids) - 1; i >= 0; i-- {
		if !n.kids[i].hidden {
			out = append(out, n.kids[i])
		}
	}
	return out
}

// add enters name for id. As in libpcp, a name already in the namespace
// (for another metric, or as the parent of other names) is left alone.
// Unlike libpcp, a name with an empty component ("a..b", ".a", "") is
// left out: no PCP tool writes one, and a namespace walked by name
// cannot hold one.
func (t *pmns) add(name string, id pmapi.PMID) {
	if name == "" || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, "..") {
		return
	}
	n := t.root
	created := false
	for comp := range strings.SplitSeq(name, ".") {
		k := n.child(comp)
		created = k == nil
		if created {
			k = &pmnsNode{name: comp, pmid: pmapi.PMIDNull, hidden: t.late}
			n.addChild(k)
		}
		n = k
	}
	if created {
		n.pmid = id
		n.hidden = false
		t.changed = true
	}
}

// locate finds the node for a full name; "" is the root.
func (t *pmns) locate(name string) *pmnsNode {
	n := t.root
	if name == "" {
		return n
	}
	for comp := range strings.SplitSeq(name, ".") {
		if n = n.child(comp); n == nil || n.hidden {
			return nil
		}
	}
	return n
}

// names returns every name of id, in pmNameAll order.
func (t *pmns) names(id pmapi.PMID) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.changed || t.byPMID == nil {
		t.byPMID = make(map[pmapi.PMID][]string)
		var walk func(n *pmnsNode, prefix string)
		walk = func(n *pmnsNode, prefix string) {
			for i := len(n.kids) - 1; i >= 0; i-- {
				k := n.kids[i]
				full := k.name
				if prefix != "" {
					full = prefix + "." + k.name
				}
				if k.pmid != pmapi.PMIDNull {
					t.byPMID[k.pmid] = append(t.byPMID[k.pmid], full)
				}
				walk(k, full)
			}
		}
		walk(t.root, "")
		for _, l := range t.byPMID {
			slices.Reverse(l)
		}
		t.changed = false
	}
	return t.byPMID[id]
}
