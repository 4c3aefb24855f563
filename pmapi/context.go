package pmapi

import (
	"strings"
	"time"
)

// Context is one source of metrics, as a PMAPI context is: its namespace,
// metadata and values. Archives (pmapi/archive), pmcd (pmapi/pmcd), the
// embedded collector (pmapi/local) and derived metrics over any of these
// (derive) all implement it, and pminfo, derive and the pmie engine are
// written against it alone.
//
// Errors are Errno values (possibly wrapped) wherever PCP would return a
// PM_ERR_* code, so callers can print them as PCP does.
//
// A Context is not safe for concurrent use.
type Context interface {
	// Source describes where the metrics come from.
	Source() Source

	// LookupName is pmLookupName for one name.
	LookupName(name string) (PMID, error)
	// NameAll is pmNameAll: every name of id in the namespace.
	NameAll(id PMID) ([]string, error)
	// Children is pmGetChildrenStatus: the names one level below the
	// node name ("" is the root), in namespace order. A leaf has no
	// children: it gives an empty list and a nil error. An unknown name
	// gives ErrName.
	Children(name string) ([]Child, error)

	// LookupDesc is pmLookupDesc.
	LookupDesc(id PMID) (Desc, error)
	// InDom is pmGetInDom: the instances of indom. For archives it is the
	// instance domain as of the context's current time.
	InDom(indom InDom) ([]Instance, error)

	// Text is pmLookupText/pmLookupInDomText: kind is TextOneLine or
	// TextHelp, or'd with TextPMID (id is a PMID) or TextInDom (id is an
	// InDom).
	Text(id uint32, kind TextKind) (string, error)
	// Labels returns the label sets of one level of the label hierarchy:
	// for LabelContext id is ignored; for LabelDomain, LabelCluster and
	// LabelItem id is a PMID; for LabelInDom and LabelInstances an InDom.
	// LabelInstances gives one set per instance.
	Labels(level LabelFlag, id uint32) ([]LabelSet, error)

	// Fetch is pmFetch: it fills r with one value set per id, in order,
	// reusing r's storage. Values in r stay valid until the next Fetch into
	// the same Result.
	Fetch(ids []PMID, r *Result) error

	// Close releases the context.
	Close() error
}

// Child is one entry of Context.Children.
type Child struct {
	Name string // the last component only
	Leaf bool
}

// SourceKind says what sort of source a context reads.
type SourceKind int

// The sources of metrics.
const (
	SourceHost    SourceKind = 1 // a pmcd, local or remote (PM_CONTEXT_HOST)
	SourceArchive SourceKind = 2 // one or more archives (PM_CONTEXT_ARCHIVE)
	SourceLocal   SourceKind = 3 // the embedded /proc collector
)

// Source describes a context's source of metrics.
type Source struct {
	Kind SourceKind
	// Host is the host name the context reports (pmGetContextHostName):
	// the archive label's host, or pmcd's idea of its own name.
	Host string
	// Name is how the source was named when it was opened: the host spec
	// or archive name(s) as given.
	Name string
	// TZ is the source's timezone in $TZ form, as archive labels and pmcd
	// carry it (for pmie -z).
	TZ string
}

// Mode says how an archive context moves through time on each Fetch
// (pmSetMode).
type Mode int

// The archive fetch modes.
const (
	ModeInterp Mode = 1 // values interpolated at the current time, then step by delta
	ModeForw   Mode = 2 // next record at or after the current time
	ModeBack   Mode = 3 // next record at or before the current time
)

// Seeker is implemented by contexts that can be positioned in time
// (archives). After SetMode, each Fetch answers for the context's current
// time and then moves it according to mode (by delta in ModeInterp).
type Seeker interface {
	SetMode(mode Mode, t Time, delta time.Duration) error
	// Bounds is the time span of the source: the first and last
	// timestamps of its records.
	Bounds() (start, end Time)
}

// InDomAt is pmGetInDom as of time t rather than the context's current
// time, for contexts whose instance domains change with time (archives:
// libpcp's derived metrics look instance names up so, at the time of the
// fetch they evaluate). Other contexts give InDom's answer.
func InDomAt(ctx Context, indom InDom, t Time) ([]Instance, error) {
	if a, ok := ctx.(interface {
		InDomAt(InDom, Time) ([]Instance, error)
	}); ok {
		return a.InDomAt(indom, t)
	}
	return ctx.InDom(indom)
}

// LookupInDom is pmLookupInDom: the instance of indom called name. A
// context that answers it itself (pmcd's asks the PMDA, which decides
// what a name matches) does; others are searched as libpcp searches an
// archive's instance domain: a whole name first, then an instance whose
// name up to its first space is a prefix of name.
func LookupInDom(ctx Context, indom InDom, name string) (int32, error) {
	if l, ok := ctx.(interface {
		LookupInDom(InDom, string) (int32, error)
	}); ok {
		return l.LookupInDom(indom, name)
	}
	insts, err := ctx.InDom(indom)
	if err != nil {
		return InNull, err
	}
	for _, in := range insts {
		if in.Name == name {
			return in.ID, nil
		}
	}
	for _, in := range insts {
		if word, _, ok := strings.Cut(in.Name, " "); ok && strings.HasPrefix(name, word) {
			return in.ID, nil
		}
	}
	if ctx.Source().Kind == SourceArchive {
		return InNull, ErrInstLog
	}
	return InNull, ErrInst
}

// TextKind selects help text (PM_TEXT_*).
type TextKind int

// The help text kinds.
const (
	TextOneLine TextKind = 1
	TextHelp    TextKind = 2
	TextPMID    TextKind = 4
	TextInDom   TextKind = 8
)
