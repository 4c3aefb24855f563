package derive

import (
	"sync"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// DomainDerived is the PMID domain of derived metrics (libpcp's
// DYNAMIC_PMID).
const DomainDerived = pmapi.DomainDerived

// localFlag is the top bit of a PMID, which libpcp sets in the PMIDs of
// per-context derived metrics.
const localFlag pmapi.PMID = 1 << 31

// IsDerived reports whether id is in the range of derived metrics' PMIDs
// (libpcp's IS_DERIVED): domain 511, an item other than 0, and not one of
// the dynamic PMNS roots (cluster bit 11).
func IsDerived(id pmapi.PMID) bool { return id.IsDerived() }

// def is one registered derived metric.
type def struct {
	name string
	pmid pmapi.PMID
	text string         // the expression as registered
	expr *lang.Accepted // its syntax, with positions in expr.Source()
	// anon marks libpcp's anonymous metrics, anon(PM_TYPE_anonType)
	anon     bool
	anonType pmapi.Type

	oneline, help       string
	hasOneline, hasHelp bool
}

// Registry holds global derived metrics, like libpcp's registered list:
// every context wrapped with it (see Wrap) has them, including those
// registered after it was wrapped. A Registry is safe for concurrent use.
//
// A new Registry holds libpcp's two anonymous metrics, event.flags and
// event.missed, PMIDs 511.0.1 and 511.0.2; the metrics registered next are
// numbered from 511.0.3, as libpcp numbers them.
type Registry struct {
	mu     sync.Mutex
	defs   []*def
	byName map[string]*def
	parser lang.DerivedParser // libpcp's parser state carries across registrations
	last   pmapi.PMID
}

// NewRegistry returns a Registry with only libpcp's anonymous metrics.
func NewRegistry() *Registry {
	r := &Registry{byName: map[string]*def{}}
	r.parser.Check = parseCheck
	r.registerAnon("event.flags", pmapi.TypeU32, "Flags for event records",
		"An anonymous derived metric that is used to encode the event flags\n"+
			"associated with event records.   See pmUnpackEventRecords(3).")
	r.registerAnon("event.missed", pmapi.TypeU32, "Count of missed event records",
		"An anonymous derived metric that is used to encode the number of\n"+
			"event records missed because either the PMDA could not keep up\n"+
			"or the PMAPI client did not collect the event records fast\n"+
			"enough.  See pmUnpackEventRecords(3).")
	return r
}

func (r *Registry) registerAnon(name string, typ pmapi.Type, oneline, help string) {
	text := "anon(PM_TYPE_" + typ.String() + ")"
	x, _ := r.parser.Accept(text)
	d := &def{name: name, text: text, expr: x, anon: true, anonType: typ,
		oneline: oneline, help: help, hasOneline: true, hasHelp: true}
	r.add(d)
}

// nextPMID is the PMID of the next global derived metric: items 1 to 1023
// of cluster 0, then of cluster 1, and so on.
func (r *Registry) nextPMID() pmapi.PMID {
	if r.last == 0 {
		return pmapi.NewPMID(DomainDerived, 0, 1)
	}
	if r.last.Item() < 1023 {
		return pmapi.NewPMID(DomainDerived, r.last.Cluster(), r.last.Item()+1)
	}
	return pmapi.NewPMID(DomainDerived, r.last.Cluster()+1, 1)
}

func (r *Registry) add(d *def) {
	d.pmid = r.nextPMID()
	r.last = d.pmid
	r.defs = append(r.defs, d)
	r.byName[d.name] = d
}

// Register is pmRegisterDerived(3): it defines the global derived metric
// name as expr. Only the syntax is checked here; the semantics are checked
// by each context (see Wrap). The error, when there is one, is a
// Diagnostic: a syntax error, or a duplicate name.
func (r *Registry) Register(name, expr string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byName[name] != nil {
		return registerError(lang.NewSource("<expr>", expr), name, expr, reasonDuplicateGlobal)
	}
	x, d := r.parser.Accept(expr)
	if d != nil {
		return syntaxError(d, name, expr)
	}
	r.add(&def{name: name, text: expr, expr: x})
	return nil
}

// SetText sets the one-line (attr "oneline") or long ("helptext") help
// text of global derived metric name, as the name(attr) = value lines of
// a configuration file do. It reports libpcp's reason when it cannot.
func (r *Registry) SetText(name, attr, value string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := r.byName[name]
	if d == nil {
		return "cannot set attribute, derived metric (" + name + ") not defined"
	}
	switch attr {
	case "oneline":
		if d.hasOneline {
			return "duplicate value for attribute (" + attr + ") of metric (" + name + ")"
		}
		d.oneline, d.hasOneline = value, true
	case "helptext":
		if d.hasHelp {
			return "duplicate value for attribute (" + attr + ") of metric (" + name + ")"
		}
		d.help, d.hasHelp = value, true
	default:
		return "attribute (" + attr + ") is unknown for metric (" + name + ")"
	}
	return ""
}

// Names lists the global derived metrics, anonymous ones included, in the
// order they were registered.
func (r *Registry) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.defs))
	for i, d := range r.defs {
		out[i] = d.name
	}
	return out
}

// snapshot returns the definitions from the i-th on.
func (r *Registry) snapshot(i int) []*def {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i >= len(r.defs) {
		return nil
	}
	return append([]*def(nil), r.defs[i:]...)
}

// count is the number of definitions.
func (r *Registry) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.defs)
}

// parse parses a per-context definition with the registry's parser, whose
// state libpcp shares between global and per-context definitions.
func (r *Registry) parse(expr string) (*lang.Accepted, *lang.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.parser.Accept(expr)
}

// text is the help text of a global derived metric (libpcp has none for
// per-context ones): kind TextOneLine gives the one-line text, TextHelp
// the long text or, failing that, the one-line text.
func (r *Registry) text(id pmapi.PMID, kind pmapi.TextKind) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.defs {
		if d.pmid != id {
			continue
		}
		switch {
		case kind&pmapi.TextOneLine != 0 && d.hasOneline:
			return d.oneline, nil
		case kind&pmapi.TextOneLine != 0:
			return "", pmapi.ErrText
		case d.hasHelp:
			return d.help, nil
		case d.hasOneline:
			return d.oneline, nil
		}
		return "", pmapi.ErrText
	}
	return "", pmapi.ErrPMID
}
