package synth

import (
	"sort"
	"strings"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// Context reads an Archive as a PMAPI archive context does. It implements
// pmapi.Context and pmapi.Seeker. The archive must not be changed while
// contexts over it are open.
type Context struct {
	a           *Archive
	name        string
	first, last pmapi.Time
	mode        pmapi.Mode
	origin      pmapi.Time
	delta       time.Duration
}

// Open makes a context over a, positioned at its first record in
// ModeInterp with no step. name is what the context says it was opened
// with (pmapi.Source.Name).
func (a *Archive) Open(name string) *Context {
	first, last := a.Bounds()
	return &Context{a: a, name: name, first: first, last: last, mode: pmapi.ModeInterp, origin: first}
}

// Source says the context reads an archive of the host.
func (c *Context) Source() pmapi.Source {
	return pmapi.Source{Kind: pmapi.SourceArchive, Host: c.a.host, Name: c.name, TZ: c.a.tz}
}

// LookupName is pmLookupName.
func (c *Context) LookupName(name string) (pmapi.PMID, error) {
	if m := c.a.byName[name]; m != nil {
		return m.Desc.PMID, nil
	}
	return pmapi.PMIDNull, pmapi.ErrName
}

// NameAll is pmNameAll: a metric has one name.
func (c *Context) NameAll(id pmapi.PMID) ([]string, error) {
	if m := c.a.byID[id]; m != nil {
		return []string{m.Name}, nil
	}
	return nil, pmapi.ErrPMID
}

// Children lists the names one level below name, in alphabetical order.
func (c *Context) Children(name string) ([]pmapi.Child, error) {
	prefix := name + "."
	if name == "" {
		prefix = ""
	}
	seen := map[string]bool{}
	var out []pmapi.Child
	found := name == ""
	for _, m := range c.a.metrics {
		if m.Name == name {
			return nil, nil // a leaf
		}
		rest, ok := strings.CutPrefix(m.Name, prefix)
		if !ok {
			continue
		}
		found = true
		kid, _, more := strings.Cut(rest, ".")
		if !seen[kid] {
			seen[kid] = true
			out = append(out, pmapi.Child{Name: kid, Leaf: !more})
		}
	}
	if !found {
		return nil, pmapi.ErrName
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// LookupDesc is pmLookupDesc.
func (c *Context) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	if m := c.a.byID[id]; m != nil {
		return m.Desc, nil
	}
	return pmapi.Desc{PMID: id}, pmapi.ErrPMIDLog
}

// InDom is pmGetInDom: every instance of the metric whose domain indom
// is, in identifier order (they exist for the whole archive).
func (c *Context) InDom(indom pmapi.InDom) ([]pmapi.Instance, error) {
	m := c.a.byInDom[indom]
	if m == nil {
		return nil, pmapi.ErrInDomLog
	}
	return append([]pmapi.Instance(nil), m.insts...), nil
}

// InDomArchive is pmGetInDomArchive: every instance the archive has, which
// for a synthetic archive is what InDom gives.
func (c *Context) InDomArchive(indom pmapi.InDom) ([]pmapi.Instance, error) { return c.InDom(indom) }

// Text is pmLookupText: a synthetic archive has no help text.
func (c *Context) Text(id uint32, kind pmapi.TextKind) (string, error) { return "", pmapi.ErrText }

// Labels gives the context label naming the host, as an archive without
// labels of its own does, and no others.
func (c *Context) Labels(level pmapi.LabelFlag, id uint32) ([]pmapi.LabelSet, error) {
	if level != pmapi.LabelContext {
		return nil, nil
	}
	return []pmapi.LabelSet{{Inst: pmapi.InNull, Labels: []pmapi.Label{{Name: "hostname", Value: `"` + c.a.host + `"`, Flags: pmapi.LabelContext}}}}, nil
}

// SetMode is pmSetMode.
func (c *Context) SetMode(mode pmapi.Mode, t pmapi.Time, delta time.Duration) error {
	if mode != pmapi.ModeInterp && mode != pmapi.ModeForw && mode != pmapi.ModeBack {
		return pmapi.ErrMode
	}
	c.mode, c.origin, c.delta = mode, t, delta
	return nil
}

// Bounds is the time span of the archive's records.
func (c *Context) Bounds() (start, end pmapi.Time) { return c.first, c.last }

// Close releases nothing.
func (c *Context) Close() error { return nil }

// Fetch is pmFetch: the values at the current time (ModeInterp), or of
// the next record in the direction of the mode, then moves the current
// time on.
func (c *Context) Fetch(ids []pmapi.PMID, r *pmapi.Result) error {
	r.Reset()
	if c.mode == pmapi.ModeInterp {
		t := c.origin
		c.origin = c.origin.Add(c.delta)
		if t < c.first || t > c.last {
			return pmapi.ErrEOL
		}
		r.Time = t
		c.fill(ids, r, func(m *Metric, s []float64) (pmapi.Atom, bool) { return m.interp(s, c.a, t) })
		return nil
	}
	k, ok := c.nextRecord()
	if !ok {
		return pmapi.ErrEOL
	}
	t := c.a.SampleTime(k)
	r.Time = t
	c.fill(ids, r, func(m *Metric, s []float64) (pmapi.Atom, bool) { return m.sampleAt(s, k) })
	if c.mode == pmapi.ModeForw {
		c.origin = t + 1
	} else {
		c.origin = t - 1
	}
	return nil
}

// fill puts in r a value set for each of ids, with the values value gives
// for each instance.
func (c *Context) fill(ids []pmapi.PMID, r *pmapi.Result, value func(m *Metric, s []float64) (pmapi.Atom, bool)) {
	if cap(r.Sets) < len(ids) {
		r.Sets = append(r.Sets[:cap(r.Sets)], make([]pmapi.ValueSet, len(ids)-cap(r.Sets))...)
	}
	r.Sets = r.Sets[:len(ids)]
	for j, id := range ids {
		vs := &r.Sets[j]
		*vs = pmapi.ValueSet{PMID: id, Values: vs.Values[:0]}
		m := c.a.byID[id]
		if m == nil {
			vs.Err = pmapi.ErrPMID
			continue
		}
		for i, in := range m.insts {
			if v, ok := value(m, m.series[i]); ok {
				vs.Values = append(vs.Values, pmapi.Value{Inst: in.ID, Atom: v})
			}
		}
	}
}

// nextRecord finds the sample of the record at or after (ModeForw) or at
// or before (ModeBack) the current time.
func (c *Context) nextRecord() (int, bool) {
	a := c.a
	n := a.Samples()
	k := int((c.origin - a.start) / pmapi.Time(a.step))
	if c.mode == pmapi.ModeForw {
		if c.origin < a.start {
			k = 0
		} else if a.SampleTime(k) < c.origin {
			k++
		}
		for ; k < n; k++ {
			if a.Recorded(k) {
				return k, true
			}
		}
		return 0, false
	}
	if c.origin < a.start {
		return 0, false
	}
	for k = min(k, n-1); k >= 0; k-- {
		if a.Recorded(k) {
			return k, true
		}
	}
	return 0, false
}
