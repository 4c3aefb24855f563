package derive

import (
	"fmt"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// Identity describes what the global derived metric id computes: its
// PMID, name and expression, and those of the global derived metrics its
// expression names, to any depth. Two registries giving the same identity
// for a PMID give it the same definition, so that what was bound to it
// under one (a pmie rule reloaded with new derived metrics) may carry on
// under the other. ok is false if id is not one of r's metrics.
func (r *Registry) Identity(id pmapi.PMID) (identity string, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var d *def
	for _, x := range r.defs {
		if x.pmid == id {
			d = x
			break
		}
	}
	if d == nil {
		return "", false
	}
	var b strings.Builder
	seen := map[*def]bool{}
	var visit func(d *def)
	visit = func(d *def) {
		if seen[d] {
			return
		}
		seen[d] = true
		fmt.Fprintf(&b, "%v %s = %s\n", d.pmid, d.name, d.text)
		for _, o := range d.expr.Operands() {
			if o := r.byName[o.Name]; o != nil {
				visit(o)
			}
		}
	}
	visit(d)
	return b.String(), true
}
