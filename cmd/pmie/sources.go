package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"github.com/gopcp/pmie/derive"
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
	"github.com/gopcp/pmie/pmapi/source"
	"github.com/gopcp/pmie/rules"
)

// archiveInfo is what pmie learns about each archive (set) given with -a.
type archiveInfo struct {
	name        string
	host        string
	tz          string
	first, last float64
	ctx         pmapi.Context // opened, until openSources puts it in use
}

// sources is where metrics come from: archives (one per host), or live
// hosts through pmcd, or the embedded collector, each opened by opener.
type sources struct {
	opener      *source.Opener
	archive     bool
	archives    []archiveInfo
	dflt        string // connection of the default host
	embedded    bool   // the default host is read by the embedded collector
	first, last float64
	log         *logger

	mu     sync.Mutex
	meta   map[string]*metaSource
	handed map[string]bool  // metadata context given to a task already
	failed map[string]error // hosts not reached while rules are bound
	opened []pmapi.Context
	raws   map[pmapi.Context]pmapi.Context // the raw context under each opened (see rewrap)
	record map[string]*metaCache           // forks: the metadata contexts' lookups, by connection
	loaded *derive.Registry                // PCP's global derived metrics (loadDerived)
	reg    *derive.Registry                // the derived metrics in use, once first needed (useDerived)
	ns     *pmapi.Namespace                // -n: names are resolved there

	derivedOnce sync.Once
	fatal       error // an archive that cannot be opened: pmie stops there
}

// newSources makes the sources of pmie's metrics, none opened yet.
func newSources(log *logger) *sources {
	src := &sources{opener: &source.Opener{}, meta: map[string]*metaSource{}, handed: map[string]bool{},
		log: log, first: -1}
	// libpcp's warnings while connecting go where pmie's messages go
	// (and its diagnostic of a bad host specification: see diagnose)
	src.opener.PMCD.Warn = func(msg string) { log.write("Warning", msg) }
	return src
}

// openArchive opens an archive as pmie does when it reads it among its
// options: its label and end are read, PCP's derived metrics loaded
// (their errors said), and a second archive of the same host refused.
// The context is put in use, under the -n namespace, by openSources.
func (src *sources) openArchive(name string) error {
	if !src.archive {
		src.archive = true
		// every context of the archives warns of damage passed over;
		// each is said once
		src.opener.Archive = &source.ArchiveOptions{Warn: warnOnce(src.log)}
	}
	c, err := src.opener.Open(source.Archive(name))
	if err != nil {
		return fmt.Errorf("%s: cannot open archive %s\npmNewContext failed: %s\n%s", prog, name, errText(err), damageDetail(err))
	}
	info := c.Source()
	var start, end pmapi.Time
	if sk, ok := c.(pmapi.Seeker); ok {
		start, end = sk.Bounds()
	}
	if e, ok := c.(ender); ok {
		if _, err := e.End(); err != nil {
			c.Close()
			return fmt.Errorf("%s: archive %s is corrupted\npmGetArchiveEnd failed: %s\n%s", prog, name, errText(err), damageDetail(err))
		}
	}
	src.loadDerived()
	a := archiveInfo{name: name, host: info.Host, tz: info.TZ, first: secondsOf(start), last: secondsOf(end), ctx: c}
	for _, b := range src.archives {
		if b.host == a.host {
			c.Close()
			return fmt.Errorf("%s: Error: archive %s not legal - archive %s is already open for host %s\n", prog, a.name, b.name, b.host)
		}
	}
	src.archives = append(src.archives, a)
	if src.first == -1 || a.first < src.first {
		src.first = a.first
	}
	if a.last > src.last {
		src.last = a.last
	}
	return nil
}

// openSources puts the archives in use, opening those not opened as the
// options were read (the environment's), or chooses the live default
// host: -h, else the local pmcd if one answers, else (or with -L) the
// embedded collector. src is nil, or holds the archives opened so far.
func openSources(s settings, src *sources, log *logger) (*sources, error) {
	if src == nil {
		src = newSources(log)
	}
	src.ns = s.namespace
	if len(s.archives) == 0 {
		return src, src.chooseLive(s)
	}
	for _, name := range s.archives[len(src.archives):] {
		if err := src.openArchive(name); err != nil {
			return nil, err
		}
	}
	for i := range src.archives {
		a := &src.archives[i]
		src.adopt(a.name, a.ctx)
		a.ctx = nil
	}
	src.dflt = src.archives[0].name
	return src, nil
}

// chooseLive picks the default live host, saying on stderr which source
// the default is when the choice was pmie's to make.
func (src *sources) chooseLive(s settings) error {
	switch {
	case s.hostGiven:
		src.dflt = s.host
		return nil
	case s.local:
		src.dflt, src.embedded = "local:", true
		return nil
	}
	src.dflt = "local:"
	c, embedded, err := src.opener.LocalDefault()
	if err == nil {
		src.adopt("local:", c)
	}
	src.embedded = embedded
	switch {
	case s.check:
	case !embedded:
		fmt.Fprintf(src.log.w, "%s: metrics from pmcd on the local host\n", prog)
	default:
		fmt.Fprintf(src.log.w, "%s: pmcd is not answering, metrics from the embedded collector\n", prog)
	}
	return nil
}

// hostOf is the host name of the context for conn, if one is open.
func (src *sources) hostOf(conn string) string {
	src.mu.Lock()
	m := src.meta[conn]
	src.mu.Unlock()
	if m == nil {
		return ""
	}
	return m.Host()
}

// adopt keeps a context opened while choosing sources, for the metadata
// of conn and then for the first task that fetches from it.
func (src *sources) adopt(conn string, raw pmapi.Context) {
	ctx, derived := src.wrap(raw)
	src.keep(ctx, raw)
	src.meta[conn] = &metaSource{ctx: ctx, raw: raw, derived: derived, src: src}
}

// keep records a context opened (ctx, over raw), to be closed by close.
func (src *sources) keep(ctx, raw pmapi.Context) {
	src.mu.Lock()
	defer src.mu.Unlock()
	src.opened = append(src.opened, ctx)
	if src.raws == nil {
		src.raws = map[pmapi.Context]pmapi.Context{}
	}
	src.raws[ctx] = raw
}

// replace puts wrapped, a new context over the same raw one, in place
// of ctx among those opened.
func (src *sources) replace(ctx, wrapped pmapi.Context) {
	src.mu.Lock()
	defer src.mu.Unlock()
	for i, c := range src.opened {
		if c == ctx {
			src.opened[i] = wrapped
		}
	}
	if raw, ok := src.raws[ctx]; ok {
		delete(src.raws, ctx)
		src.raws[wrapped] = raw
	}
}

// release gives up ctx, one of the contexts opened, returning the raw
// context under it (which src no longer closes), or nil if src did not
// open it.
func (src *sources) release(ctx pmapi.Context) pmapi.Context {
	src.mu.Lock()
	defer src.mu.Unlock()
	raw, ok := src.raws[ctx]
	if !ok {
		return nil
	}
	delete(src.raws, ctx)
	for i, c := range src.opened {
		if c == ctx {
			src.opened = append(src.opened[:i], src.opened[i+1:]...)
			break
		}
	}
	return raw
}

// wrap layers the -n namespace and PCP's global derived metrics, once
// they have been loaded, over a context; derived says whether they have.
func (src *sources) wrap(c pmapi.Context) (ctx pmapi.Context, derived bool) {
	if src.ns != nil {
		c = pmapi.WithNamespace(c, src.ns)
	}
	src.mu.Lock()
	reg := src.reg
	src.mu.Unlock()
	if reg == nil {
		return c, false
	}
	// pmie does not list the derived metrics' problems, so it does not
	// ask for them: Layer finds them only when asked, where Wrap would
	// check again, against this context, every global derived metric
	// lacking an operand here. libpcp reports a derived metric's errors
	// when a lookup binds it, which for pmie is at every lookup (each in
	// a context of its own)
	ctx = derive.Layer(c, reg)
	if d, ok := derive.Derived(ctx); ok {
		d.OnBind(func(ds []derive.Diagnostic) { io.WriteString(src.log.w, derive.PCPReport(ds)) })
		d.BindEachLookup()
	}
	return ctx, true
}

// loadDerived loads PCP's global derived metrics (PCP_DERIVED_CONFIG, or
// $PCP_VAR_DIR/config/derived) once, saying in pmie's log what is wrong
// with their configuration, as libpcp does when pmie's first context is
// made: at start with archives, at the first metric looked up live.
func (src *sources) loadDerived() {
	src.derivedOnce.Do(func() {
		reg, diags := derive.Load()
		if text := derive.PCPReport(diags); text != "" {
			fmt.Fprint(src.log.w, text)
		}
		src.mu.Lock()
		src.loaded = reg
		src.mu.Unlock()
	})
}

// useDerived has the contexts opened from now on wrapped with the derived
// metrics loaded. This is done the first time a rule names a metric its
// source does not have: a real metric hides a derived one of the same
// name, so until then they make no difference.
func (src *sources) useDerived() {
	src.loadDerived()
	src.mu.Lock()
	if src.reg == nil {
		src.reg = src.loaded
	}
	src.mu.Unlock()
}

// secondsOf is a timestamp as pmie holds one: microseconds, in seconds.
func secondsOf(t pmapi.Time) float64 {
	us := int64(t) / 1000
	return float64(us) / 1e6
}

// errText is the PCP wording of err (pmErrStr of its code).
func errText(err error) string { return pmapi.Code(err).Error() }

// open makes a context for conn, for a task's fetches. Archives are large
// in memory, so the first task to read one gets the context opened to read
// its metadata.
func (src *sources) open(conn string) (pmapi.Context, error) {
	src.mu.Lock()
	if m, ok := src.meta[conn]; ok && src.archive && !src.handed[conn] {
		src.handed[conn] = true
		src.mu.Unlock()
		return m.ctx, nil
	}
	src.mu.Unlock()
	ctx, _, _, err := src.openNew(conn)
	return ctx, err
}

// openNew opens a new context for conn, wrapped as wrap does, and the raw
// context under it.
func (src *sources) openNew(conn string) (ctx, raw pmapi.Context, derived bool, err error) {
	ctx, raw, derived, err = src.openNewWith(conn, nil)
	src.diagnose(err)
	return ctx, raw, derived, err
}

// openNewWith is openNew with under, if not nil, layered over the raw
// context first.
func (src *sources) openNewWith(conn string, under func(pmapi.Context) pmapi.Context) (ctx, raw pmapi.Context, derived bool, err error) {
	var like pmapi.Context
	if src.archive {
		// another context of an archive shares the metadata the first
		// one read
		src.mu.Lock()
		if m := src.meta[conn]; m != nil {
			like = m.raw
		}
		src.mu.Unlock()
	}
	if raw, err = src.opener.OpenLike(src.spec(conn), like); err != nil {
		return nil, nil, false, err
	}
	base := raw
	if under != nil {
		base = under(raw)
	}
	ctx, derived = src.wrap(base)
	src.keep(ctx, raw)
	return ctx, raw, derived, nil
}

// spec is what conn names: an archive (archive mode), the embedded
// collector (the default host, when it reads that), or a pmcd host.
func (src *sources) spec(conn string) source.Spec {
	switch {
	case src.archive:
		return source.Archive(conn)
	case src.embedded && conn == src.dflt:
		return source.Embedded()
	}
	return source.Host(conn)
}

// close closes every context opened.
func (src *sources) close() {
	src.mu.Lock()
	defer src.mu.Unlock()
	for _, c := range src.opened {
		c.Close()
	}
	src.opened = nil
	// archives opened among the options but never put in use (pmie
	// stopped before openSources)
	for i := range src.archives {
		if a := &src.archives[i]; a.ctx != nil {
			a.ctx.Close()
			a.ctx = nil
		}
	}
}

// env is how rules find their metrics' metadata. Live hosts that cannot
// be reached are reported to hosts, if not nil, as pmie reports them when
// it first needs them.
func (src *sources) env(rt *eval.Runtime, hosts *rules.Hosts) *eval.Env {
	source := src.metadata
	if hosts != nil && !src.archive {
		source = func(conn string) (eval.Source, error) {
			s, err := src.metadata(conn)
			if err != nil {
				hosts.Unreachable(conn, err)
			}
			return s, err
		}
	}
	return &eval.Env{
		Archive:     src.archive,
		DefaultConn: src.dflt,
		Runtime:     rt,
		ArchiveOf: func(host string) (string, bool) {
			for _, a := range src.archives {
				if a.host == host {
					return a.name, true
				}
			}
			return "", false
		},
		Source: source,
	}
}

// recorder, for sources that record their metadata lookups (a reload's
// fork), layers the recording of conn's over a context; else nil.
func (src *sources) recorder(conn string) func(pmapi.Context) pmapi.Context {
	src.mu.Lock()
	defer src.mu.Unlock()
	if src.record == nil {
		return nil
	}
	c := src.record[conn]
	if c == nil {
		c = newMetaCache()
		src.record[conn] = c
	}
	return func(raw pmapi.Context) pmapi.Context { return &recording{Context: raw, c: c} }
}

// recorded is what the metadata context of conn has been told, if src
// records it.
func (src *sources) recorded(conn string) *metaCache {
	src.mu.Lock()
	defer src.mu.Unlock()
	return src.record[conn]
}

// metadata returns the metadata source for conn, opening it if need be.
// While rules are bound, a live host is tried once: its failure is
// remembered.
func (src *sources) metadata(conn string) (eval.Source, error) {
	s, err := src.metadataOf(conn)
	src.diagnose(err)
	return s, err
}

// metadataOf is metadata without the diagnostic of a host specification
// that does not parse, for the prefetch: pmie looks names up, and says
// so, in the order of the rules.
func (src *sources) metadataOf(conn string) (eval.Source, error) {
	src.mu.Lock()
	m, ok := src.meta[conn]
	err := src.failed[conn]
	src.mu.Unlock()
	switch {
	case ok:
		return m, nil
	case err != nil:
		return nil, err
	}
	ctx, raw, derived, err := src.openNewWith(conn, src.recorder(conn))
	if err != nil {
		if src.archive && src.fatal == nil {
			src.fatal = fmt.Errorf("%s: cannot open archive %s\npmNewContext: %s\n", prog, conn, errText(err))
		}
		src.mu.Lock()
		if src.failed != nil {
			src.failed[conn] = err
		}
		src.mu.Unlock()
		return nil, err
	}
	m = &metaSource{ctx: ctx, raw: raw, derived: derived, src: src}
	src.mu.Lock()
	src.meta[conn] = m
	src.mu.Unlock()
	return m, nil
}

// diagnose prints libpcp's diagnostic of a host specification that does
// not parse, when err is one. pmie tries a host that failed again at
// each lookup and each evaluation, and pmNewContext says each time what
// is wrong: so does ours, trying a specification again being no use.
func (src *sources) diagnose(err error) {
	var se *pmcd.SpecError
	if errors.As(err, &se) && !src.archive {
		fmt.Fprintf(src.log.w, "pmNewContext: bad host specification\n%s", se.Diag)
	}
}

// metaSource answers metadata questions from a context: for archives,
// instance domains are every instance the archive ever has.
type metaSource struct {
	ctx     pmapi.Context // with the -n namespace, and derived metrics once they are loaded
	raw     pmapi.Context // without either
	derived bool          // ctx has the derived metrics
	src     *sources
	cache   map[pmapi.InDom][]pmapi.Instance
	warm    *warmCache // looked up ahead of binding (live)
}

func (m *metaSource) Host() string { return m.ctx.Source().Host }

// LookupName looks name up, loading the global derived metrics if the
// source does not have it.
func (m *metaSource) LookupName(name string) (pmapi.PMID, error) {
	m.src.loadDerived()
	if w := m.warm; w != nil {
		if a, ok := w.names[name]; ok {
			return a.id, a.err
		}
	}
	id, err := m.ctx.LookupName(name)
	if err == nil || m.derived {
		return id, err
	}
	m.src.useDerived()
	wrapped, _ := m.src.wrap(m.raw)
	m.derived = true
	m.src.replace(m.ctx, wrapped)
	m.ctx = wrapped
	return m.ctx.LookupName(name)
}

func (m *metaSource) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	if w := m.warm; w != nil {
		if a, ok := w.descs[id]; ok {
			return a.desc, a.err
		}
	}
	return m.ctx.LookupDesc(id)
}

func (m *metaSource) InDom(indom pmapi.InDom) ([]pmapi.Instance, error) {
	if in, ok := m.cache[indom]; ok {
		return in, nil
	}
	if w := m.warm; w != nil {
		if a, ok := w.indoms[indom]; ok {
			return a.insts, a.err
		}
	}
	var in []pmapi.Instance
	var err error
	if a, ok := m.raw.(interface {
		InDomArchive(pmapi.InDom) ([]pmapi.Instance, error)
	}); ok {
		in, err = a.InDomArchive(indom)
	} else {
		in, err = m.ctx.InDom(indom)
	}
	if err != nil {
		return nil, err
	}
	if m.raw.Source().Kind == pmapi.SourceArchive {
		if m.cache == nil {
			m.cache = map[pmapi.InDom][]pmapi.Instance{}
		}
		m.cache[indom] = in
	}
	return in, nil
}

// zone works out the reporting time zone: -Z, -z (the default source's),
// or $TZ.
func (src *sources) zone(s settings, out io.Writer) (*time.Location, error) {
	switch {
	case s.timezone != "":
		return pmapi.NewZone(s.timezone), nil
	case s.hostzone:
		tz := ""
		if src.archive {
			tz = src.archives[0].tz
		} else if m, err := src.metadata(src.dflt); err == nil {
			src.loadDerived() // pmie's first context is made for the zone
			tz = m.(*metaSource).ctx.Source().TZ
			if tz == "" {
				// pmcd gave no pmcd.timezone (no pmcd PMDA, or no value):
				// libpcp's pmNewContextZone fails, and pmie goes on as above
				fmt.Fprintf(src.log.w, "%s: cannot set timezone from %s\npmNewContextZone failed: %s\n", prog, src.dflt, errText(pmapi.ErrValue))
				return localZone(), nil
			}
		} else {
			// pmie says so and goes on in the local zone, trying the
			// host again as it evaluates
			fmt.Fprintf(src.log.w, "%s: cannot set timezone from %s\npmNewContext failed: %s\n", prog, src.dflt, errText(err))
			return localZone(), nil
		}
		fmt.Fprintf(out, "%s: timezone set to local timezone from %s\n", prog, src.dflt)
		return pmapi.NewZone(tz), nil
	}
	return localZone(), nil
}

// localZone is the zone of $TZ, else the local one.
func localZone() *time.Location {
	if tz, ok := os.LookupEnv("TZ"); ok {
		return pmapi.LoadTZ(tz)
	}
	return time.Local
}

// span is the evaluation window in seconds.
type span struct{ start, stop float64 }

// window interprets -S, -T, -A and -O over the source's span (from now,
// for live sources): evaluation runs from the origin to the end.
func (src *sources) window(s settings, now float64, loc *time.Location) (span, error) {
	usec := func(sec float64) pmapi.Time { return pmapi.Time(math.Round(sec*1e6)) * 1000 }
	first, last := usec(now), pmapi.Forever
	if src.archive {
		last = usec(src.last)
	}
	// A warning (an alignment that could not be applied) pmie ignores:
	// it checks only for failure.
	w, ok, err := pmapi.ParseTimeWindow(s.window, first, last, loc)
	if !ok {
		return span{}, err
	}
	sec := func(t pmapi.Time) float64 {
		if t == pmapi.Forever {
			return math.Inf(1)
		}
		return float64(int64(t)/1000) / 1e6
	}
	return span{start: sec(w.Origin), stop: sec(w.End)}, nil
}
