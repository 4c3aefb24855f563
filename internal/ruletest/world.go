package ruletest

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gopcp/pmie/derive"
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/source"
	"github.com/gopcp/pmie/pmapi/synth"
	"github.com/gopcp/pmie/rules"
)

// world is what one test runs in: its sources of metrics, one for each
// host (pmie's -a archives, in order, the default host's first), the
// derived metrics over them, and the rules compiled against them.
type world struct {
	opener source.Opener // real archives given as input
	f      *File
	t      *Test
	loc    *time.Location
	hosts  []*hostSource
	opened []pmapi.Context
	reg    *derive.Registry
	rt     *eval.Runtime
	b      *eval.Builder
	prog   *eval.Program
	where  map[string]string // rule name: file:line of its statement
	msgs   bytes.Buffer      // pmie's messages
	base   time.Time         // what expectations' times count from
	start  float64           // first evaluation, seconds since the epoch
	stop   float64           // no evaluation after this
}

// hostSource is one host's source: a synthetic archive, or a real one.
type hostSource struct {
	conn  string // what pmie calls it (the archive's name)
	host  string
	synth *synth.Archive
	path  string // a real archive
	meta  *metaSource
}

// newWorld makes the sources of a test.
func newWorld(f *File, t *Test) (*world, error) {
	w := &world{f: f, t: t, loc: pmapi.LoadTZ(t.Timezone), where: map[string]string{}}
	var err error
	if t.Archives != nil {
		err = w.openArchives()
	} else {
		err = w.makeSynthetic()
	}
	if err != nil {
		return nil, err
	}
	if len(f.DerivedFiles) > 0 {
		w.reg = derive.NewRegistry()
		_, diags, err := w.reg.LoadConfig(strings.Join(f.DerivedFiles, ":"))
		w.msgs.WriteString(derive.PCPReport(diags))
		if err != nil {
			return nil, fmt.Errorf("derived_files: %v", err)
		}
	}
	first, last := math.Inf(1), math.Inf(-1)
	for _, h := range w.hosts {
		ctx, raw, err := w.open(h)
		if err != nil {
			return nil, err
		}
		h.meta = &metaSource{ctx: ctx, raw: raw}
		s, e := raw.(pmapi.Seeker).Bounds()
		first, last = math.Min(first, seconds(s)), math.Max(last, seconds(e))
	}
	// evaluation runs over the span of the archives, as pmie -a does
	// (from the given start, with archives as input)
	w.base, w.start, w.stop = t.Start, first, last
	if t.Archives != nil {
		if t.StartSet {
			w.start = seconds(pmapi.FromStd(t.Start))
		} else {
			w.base = time.Unix(0, int64(first*1e6)*1000).UTC()
		}
	}
	return w, nil
}

// seconds is a time as pmie holds it: whole microseconds, in seconds.
func seconds(t pmapi.Time) float64 { return float64(int64(t)/1000) / 1e6 }

// makeSynthetic builds a synthetic archive for each host of the input,
// the test's own host first, then the others as they first appear.
func (w *world) makeSynthetic() error {
	t := w.t
	byHost := map[string]*hostSource{}
	host := func(name string) (*hostSource, error) {
		if h := byHost[name]; h != nil {
			return h, nil
		}
		a, err := synth.New(name, t.Timezone, pmapi.FromStd(t.Start), w.f.Interval)
		if err != nil {
			return nil, err
		}
		h := &hostSource{conn: name, host: name, synth: a}
		byHost[name] = h
		w.hosts = append(w.hosts, h)
		return h, nil
	}
	if _, err := host(t.Host); err != nil {
		return err
	}
	for _, s := range t.Input {
		name := s.Host
		if name == "" {
			name = t.Host
		}
		h, err := host(name)
		if err != nil {
			return err
		}
		m := h.synth.Metric(s.Metric)
		if m == nil {
			if m, err = h.synth.AddMetric(s.Metric, s.Type, s.Sem, s.Units, s.Instance == ""); err != nil {
				return fmt.Errorf("%s: %v", spanText(w.f.Src, s.Span), err)
			}
		}
		if err := m.AddSeries(s.Instance, s.Values); err != nil {
			return fmt.Errorf("%s: %v", spanText(w.f.Src, s.Span), err)
		}
	}
	return nil
}

// spanText is file:line:col.
func spanText(src *lang.Source, sp lang.Span) string {
	return src.Name + ":" + sp.Start.String()
}

// openArchives uses real archives as the test's input.
func (w *world) openArchives() error {
	for _, path := range w.t.Archives {
		c, err := w.opener.Open(source.Archive(path))
		if err != nil {
			return fmt.Errorf("archive %s: %v", path, err)
		}
		h := &hostSource{conn: path, host: c.Source().Host, path: path}
		c.Close()
		for _, o := range w.hosts {
			if o.host == h.host {
				return fmt.Errorf("archive %s: archive %s is already open for host %s", path, o.path, o.host)
			}
		}
		w.hosts = append(w.hosts, h)
	}
	return nil
}

// open makes a new context for h with the derived metrics over it, and
// the context under them.
func (w *world) open(h *hostSource) (ctx, raw pmapi.Context, err error) {
	if h.synth != nil {
		raw = h.synth.Open(h.conn)
	} else {
		c, err := w.opener.Open(source.Archive(h.path))
		if err != nil {
			return nil, nil, fmt.Errorf("archive %s: %v", h.path, err)
		}
		raw = c
	}
	ctx = raw
	if w.reg != nil {
		ctx, _ = derive.Wrap(raw, w.reg)
	}
	w.opened = append(w.opened, ctx)
	return ctx, raw, nil
}

// close closes every context opened.
func (w *world) close() {
	for _, c := range w.opened {
		c.Close()
	}
	w.opened = nil
}

// openConn opens a context for a connection (rules.OpenFunc).
func (w *world) openConn(conn string) (pmapi.Context, error) {
	for _, h := range w.hosts {
		if h.conn == conn {
			ctx, _, err := w.open(h)
			return ctx, err
		}
	}
	return nil, pmapi.ErrNoContext
}

// env is how the rules find their metrics, as pmie's archive mode finds
// them.
func (w *world) env() *eval.Env {
	return &eval.Env{
		Archive:     true,
		DefaultConn: w.hosts[0].conn,
		Runtime:     w.rt,
		ArchiveOf: func(host string) (string, bool) {
			for _, h := range w.hosts {
				if h.host == host {
					return h.conn, true
				}
			}
			return "", false
		},
		Source: func(conn string) (eval.Source, error) {
			for _, h := range w.hosts {
				if h.conn == conn {
					return h.meta, nil
				}
			}
			return nil, pmapi.ErrNoContext
		},
	}
}

// compile loads the test's rule files, as pmie -t interval would. It
// returns false if pmie would complain about them: what it would say is
// in w.msgs.
func (w *world) compile() bool {
	w.rt = &eval.Runtime{Clock: eval.NewClock()}
	delta := w.f.Interval.Seconds()
	w.rt.Clock.Reflect(w.start, delta, w.calendar())
	w.b = &eval.Builder{Env: w.env(), Prepare: rules.Prepare}
	w.prog = &eval.Program{}
	comp := &eval.Compiler{B: w.b, Prog: w.prog, Delta: delta, Clock: w.rt.Clock}
	before := w.msgs.Len()
	for _, path := range w.f.RuleFiles {
		parsed, err := w.f.ruleFile(path)
		if err != nil {
			fmt.Fprintf(&w.msgs, "pmie: cannot open config file %s\n", path)
			continue
		}
		rules.CompileParsed(comp, parsed, rules.Loading{
			Errs:   &w.msgs,
			Notify: func(msg string) { fmt.Fprintf(&w.msgs, "pmie: Error: %s\n", msg) },
			Compiled: func(st *lang.Stmt, r *eval.Rule) {
				if r != nil {
					w.where[r.Name] = fmt.Sprintf("%s:%d", path, st.Span.Start.Line)
				}
			},
		})
	}
	return w.msgs.Len() == before
}

// calendar breaks times into the fields of pmie's reserved variables in
// the test's time zone.
func (w *world) calendar() eval.Calendar {
	return func(sec int64) (int, int, int, int, int, int, int) {
		t := time.Unix(sec, 0).In(w.loc)
		return t.Second(), t.Minute(), t.Hour(), t.Day(), int(t.Month()) - 1, t.Year(), int(t.Weekday())
	}
}

// ctime formats whole seconds as ctime(3) does, in the test's zone.
func (w *world) ctime(sec int64) string { return ctime(w.loc, sec) }

// ctime formats whole seconds as ctime(3) does in loc, without the
// newline.
func ctime(loc *time.Location, sec int64) string {
	return time.Unix(sec, 0).In(loc).Format("Mon Jan _2 15:04:05 2006")
}

// metaSource answers the rules' questions about a host's metrics; for
// archives, an instance domain is every instance it ever has.
type metaSource struct {
	ctx pmapi.Context // with derived metrics
	raw pmapi.Context // without
}

func (m *metaSource) Host() string { return m.ctx.Source().Host }

func (m *metaSource) LookupName(name string) (pmapi.PMID, error) { return m.ctx.LookupName(name) }

func (m *metaSource) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) { return m.ctx.LookupDesc(id) }

func (m *metaSource) InDom(indom pmapi.InDom) ([]pmapi.Instance, error) {
	if a, ok := m.raw.(interface {
		InDomArchive(pmapi.InDom) ([]pmapi.Instance, error)
	}); ok {
		return a.InDomArchive(indom)
	}
	return m.ctx.InDom(indom)
}
