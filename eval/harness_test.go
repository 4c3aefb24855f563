package eval

import (
	"sort"
	"strings"
	"testing"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// fakeMetric is one metric of a fakeSource.
type fakeMetric struct {
	desc  pmapi.Desc
	insts []pmapi.Instance
}

// fakeSource is an in-memory Source for one host.
type fakeSource struct {
	host    string
	metrics map[string]fakeMetric
}

func (s *fakeSource) Host() string { return s.host }

func (s *fakeSource) LookupName(name string) (pmapi.PMID, error) {
	if m, ok := s.metrics[name]; ok {
		return m.desc.PMID, nil
	}
	return 0, pmapi.ErrName
}

func (s *fakeSource) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	for _, m := range s.metrics {
		if m.desc.PMID == id {
			return m.desc, nil
		}
	}
	return pmapi.Desc{}, pmapi.ErrPMID
}

func (s *fakeSource) InDom(indom pmapi.InDom) ([]pmapi.Instance, error) {
	for _, m := range s.metrics {
		if m.desc.InDom == indom {
			return m.insts, nil
		}
	}
	return nil, pmapi.ErrInDom
}

// world is a test harness: sources by connection, a builder and a program,
// and a record of the actions that fired.
type world struct {
	t       *testing.T
	sources map[string]*fakeSource
	rt      *Runtime
	b       *Builder
	prog    Program
	fired   []string
	diags   []string
	now     float64
}

func newWorld(t *testing.T) *world {
	w := &world{t: t, sources: map[string]*fakeSource{}}
	w.rt = &Runtime{Clock: NewClock()}
	w.rt.Act = func(f *Firing) Truth {
		w.fired = append(w.fired, f.Kind.String()+": "+f.Message())
		return True
	}
	env := &Env{Archive: true, DefaultConn: "h0", Runtime: w.rt,
		ArchiveOf: func(host string) (string, bool) {
			for c, s := range w.sources {
				if s.host == host {
					return c, true
				}
			}
			return "", false
		},
		Source: func(conn string) (Source, error) {
			if s, ok := w.sources[conn]; ok {
				return s, nil
			}
			return nil, pmapi.ErrNoContext
		}}
	w.b = &Builder{Env: env, Report: func(d *lang.Diagnostic) { w.diags = append(w.diags, d.Msg) }}
	return w
}

var nextItem uint32

// metric adds a metric to the source for conn (creating it with host name
// host if needed).
func (w *world) metric(conn, host, name string, sem pmapi.Sem, typ pmapi.Type, u pmapi.Units, insts ...string) {
	s := w.sources[conn]
	if s == nil {
		s = &fakeSource{host: host, metrics: map[string]fakeMetric{}}
		w.sources[conn] = s
	}
	nextItem++
	d := pmapi.Desc{PMID: pmapi.NewPMID(60, 0, nextItem), Type: typ, Sem: sem, Units: u, InDom: pmapi.InDomNull}
	var in []pmapi.Instance
	if len(insts) > 0 {
		d.InDom = pmapi.NewInDom(60, nextItem)
		for i, n := range insts {
			in = append(in, pmapi.Instance{ID: int32(i), Name: n})
		}
	}
	s.metrics[name] = fakeMetric{desc: d, insts: in}
}

// add finishes a statement and returns its rule.
func (w *world) add(name string, x *Node) *Rule {
	w.t.Helper()
	r := w.b.Statement(&w.prog, name, x, 10)
	if r == nil {
		w.t.Fatalf("statement %q not accepted: %v", name, w.diags)
	}
	w.b.Begin()
	return r
}

// step delivers values (metric name on conn -> instance name -> value) at
// time now, and evaluates every rule.
func (w *world) step(now float64, vals map[string]map[string]float64) {
	w.now = now
	w.rt.Clock.Reflect(now, 10, nil)
	for _, r := range w.prog.Rules {
		for _, m := range r.Metrics {
			key := m.Conn + "/" + m.Name
			m.Drop()
			vs, ok := vals[key]
			if !ok {
				vs, ok = vals[m.Name]
			}
			if !ok || m.state != metricReady {
				continue
			}
			m.Deliver(w.valueSet(m, vs, ""), nil, now)
		}
	}
	for _, r := range w.prog.Rules {
		r.Eval(w.rt)
	}
}

// valueSet makes the value set of metric m with values vals by instance
// name, sorted by instance as pmie sorts them; a string metric's values
// are all str.
func (w *world) valueSet(m *Metric, vals map[string]float64, str string) *pmapi.ValueSet {
	fm := w.sources[m.Conn].metrics[m.Name]
	set := &pmapi.ValueSet{PMID: fm.desc.PMID}
	for in, v := range vals {
		id := pmapi.InNull
		for _, i := range fm.insts {
			if i.Name == in {
				id = i.ID
			}
		}
		a := atomOf(fm.desc.Type, v)
		if fm.desc.Type == pmapi.TypeString {
			a = pmapi.String(str)
		}
		set.Values = append(set.Values, pmapi.Value{Inst: id, Atom: a})
	}
	sort.Slice(set.Values, func(i, j int) bool { return set.Values[i].Inst < set.Values[j].Inst })
	return set
}

func atomOf(t pmapi.Type, v float64) pmapi.Atom {
	switch t {
	case pmapi.TypeU64:
		return pmapi.U64(uint64(v))
	case pmapi.TypeU32:
		return pmapi.U32(uint32(v))
	case pmapi.Type32:
		return pmapi.I32(int32(v))
	}
	return pmapi.F64(v)
}

// show renders rule r as -v, -V and -W print it.
func show(r *Rule, mode int) string {
	switch mode {
	case 1:
		return string(r.Root.AppendValue(nil))
	case 2:
		return string(r.Root.AppendAnnotated(nil))
	}
	return string(r.Root.AppendSatisfying(nil))
}

// takeFiredList returns and clears the actions fired so far.
func (w *world) takeFiredList() []string {
	f := w.fired
	w.fired = nil
	return f
}

// takeFired returns and clears the actions fired so far.
func (w *world) takeFired() string {
	s := strings.Join(w.fired, "\n")
	w.fired = nil
	return s
}

var (
	noUnits    = pmapi.Units{}
	countUnits = pmapi.Units{DimCount: 1}
	kbyteUnits = pmapi.Units{DimSpace: 1, ScaleSpace: pmapi.SpaceKByte}
	msecUnits  = pmapi.Units{DimTime: 1, ScaleTime: pmapi.TimeMSec}
	perSec     = pmapi.Units{DimTime: -1, DimCount: 1, ScaleTime: pmapi.TimeSec}
)
