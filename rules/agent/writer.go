package agent

import (
	"fmt"
	"io"
	"math"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/internal/pdu"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/rules"
)

// Writer sends the descriptors and values of named expressions to the
// summary PMDA, as pmie -x writes them on its standard output.
type Writer struct {
	// Lookup finds the PMID of an expression's name, as pmLookupName
	// does in pmie's default namespace.
	Lookup func(name string) (pmapi.PMID, error)
	// Contexts gives the sender of each PDU.
	Contexts *Contexts

	ids    map[*eval.Rule]pmapi.PMID
	result pmapi.Result
	buf    []byte
}

// NameError is an expression whose name is not a metric of the namespace:
// pmie stops there.
type NameError struct {
	Name string
	Err  error
}

func (e *NameError) Error() string {
	return fmt.Sprintf("agentId: metric %s not found in namespace: %s", e.Name, pmapi.Code(e.Err).Error())
}

func (e *NameError) Unwrap() error { return e.Err }

// SendError is a result that could not be written (the PMDA has gone):
// pmie says so and exits with status 0.
type SendError struct{ Err error }

func (e *SendError) Error() string {
	return "Error: __pmSendResult to summary agent failed: " + pmapi.Code(e.Err).Error()
}

func (e *SendError) Unwrap() error { return e.Err }

// Start describes the rules of each task to out, in order, once the rules
// are loaded: task by task, it looks up the names of the task's rules,
// then sends their descriptors. A name not found stops it with a
// NameError, the tasks before described. Errors writing are not errors
// (pmie does not look): the first result will fail.
func (w *Writer) Start(tasks [][]*eval.Rule, out rules.Output) error {
	for _, rules := range tasks {
		if err := w.describe(rules, out); err != nil {
			return err
		}
	}
	out.Flush()
	return nil
}

// describe looks up the PMIDs of those of rules not known yet and sends
// their descriptors.
func (w *Writer) describe(rules []*eval.Rule, out io.Writer) error {
	if w.ids == nil {
		w.ids = map[*eval.Rule]pmapi.PMID{}
	}
	var fresh []*eval.Rule
	for _, r := range rules {
		if _, ok := w.ids[r]; ok {
			continue
		}
		id, err := w.Lookup(r.Name)
		if err != nil {
			return &NameError{Name: r.Name, Err: err}
		}
		w.ids[r] = id
		fresh = append(fresh, r)
	}
	for _, r := range fresh {
		w.buf = pdu.SetFrom(pdu.EncodeDesc(Desc(w.ids[r], r.Root)), w.Contexts.Current())
		out.Write(w.buf)
	}
	return nil
}

// Desc is the descriptor pmie sends for an expression whose root is x,
// as the metric id: a singular double, of x's semantics and units where
// they are PCP's, an instantaneous value where they are pmie's own (a
// truth, a reserved variable, a number of constants), and not supported
// where the semantics are unknown.
func Desc(id pmapi.PMID, x *eval.Node) pmapi.Desc {
	d := pmapi.Desc{PMID: id, Type: pmapi.TypeDouble, InDom: pmapi.InDomNull, Sem: pmapi.SemInstant}
	switch sem := x.Sem(); sem {
	case eval.SemCounter, eval.SemInstant, eval.SemDiscrete:
		d.Sem, d.Units = pmapi.Sem(sem), units(x.Units())
	case eval.SemNumVar, eval.SemNumConst, eval.SemBoolean:
		d.Units = units(x.Units())
	default:
		d.Type = pmapi.TypeNoSupport
	}
	return d
}

// units are u as pmie holds them: units not known are marked by a count
// dimension of -1 at a scale of 10^7 (which no metric has), over which
// rate and instant have still moved the time dimension.
func units(u eval.Units) pmapi.Units {
	if !u.Known {
		u.DimCount, u.ScaleCount = -1, 7
	}
	return u.Units
}

// Result sends the values of rs, a task's rules just evaluated, flushing
// out. It is a rules.Config's Report.
// Rules not described yet (loaded since Start, by pmie's debugger) are
// described first. A failure to write is a SendError.
func (w *Writer) Result(rs []*eval.Rule, out rules.Output) error {
	if len(rs) == 0 {
		return nil
	}
	if err := w.describe(rs, out); err != nil {
		return err
	}
	w.Contexts.Evaluate(rs[0])
	w.result.Sets = w.result.Sets[:0]
	for _, r := range rs {
		w.result.Sets = append(w.result.Sets, Value(w.ids[r], r.Root))
	}
	w.buf = pdu.SetFrom(pdu.EncodeResult(pdu.Result, &w.result), w.Contexts.Current())
	if _, err := out.Write(w.buf); err != nil {
		return &SendError{Err: err}
	}
	if err := out.Flush(); err != nil {
		return &SendError{Err: err}
	}
	return nil
}

// Value is the value set pmie sends for an expression whose root is x:
// PM_ERR_VALUE while x has no valid sample, else one value (of no
// instance) if x's number is finite, and none if it is not. A string
// metric's values, whose pointers pmie sends as a number, give none.
func Value(id pmapi.PMID, x *eval.Node) pmapi.ValueSet {
	vs := pmapi.ValueSet{PMID: id}
	if x.Valid() <= 0 {
		vs.Err = pmapi.ErrValue
		return vs
	}
	if v, ok := x.Word(); ok && !math.IsInf(v, 0) && !math.IsNaN(v) {
		vs.Values = []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.F64(v)}}
	}
	return vs
}
