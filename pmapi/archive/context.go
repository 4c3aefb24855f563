package archive

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// Context is a PMAPI context over one archive or a set of archives of
// the same host, as pmNewContext(PM_CONTEXT_ARCHIVE, ...) makes one. It
// implements pmapi.Context and pmapi.Seeker.
//
// Metadata queries answer as libpcp does for an archive, instance
// domains and labels as of the context's current time. Fetch follows
// the mode set by SetMode: ModeInterp interpolates values at the current
// time exactly as libpcp does, then steps by the delta; ModeForw and
// ModeBack return the next record's values at or after (before) the
// current time.
//
// A Context is not safe for concurrent use.
type Context struct {
	name     string
	archives []*Archive // sorted by start time
	meta     *meta
	s        *stream
	opts     Options

	mode   pmapi.Mode
	origin pmapi.Time // the current time
	// osec and onsec are the current time as libpcp keeps it (c_origin):
	// stepping can leave onsec at 1e9 rather than carry it into osec,
	// and that changes the sums and comparisons done with it.
	osec, onsec int64
	delta       time.Duration
	direction   int // sign of delta

	serial   bool // reading can carry on from saved (libpcp's ac_serial)
	saved    pos  // libpcp's ac_offset and ac_vol
	cur      pos  // libpcp's file position
	markMade int  // direction of the <mark> just made up (ac_mark_done)

	interp *interpState
	prof   pmapi.Profile
	closed bool

	openA int      // the archive whose files may be open
	strs  interner // strings of values in results

	archSets []pmapi.ValueSet // FetchArchive's record, decoded
	archVals []pmapi.Value
}

var (
	_ pmapi.Context = (*Context)(nil)
	_ pmapi.Seeker  = (*Context)(nil)
)

// Options adjust a Context the way environment variables adjust libpcp.
type Options struct {
	// CounterWrap interpolates counters that go backwards as if they had
	// wrapped, as libpcp does when $PCP_COUNTER_WRAP is set.
	CounterWrap bool
	// IgnoreMarks makes interpolation pass over <mark> records, as
	// libpcp does when $PCP_IGNORE_MARK_RECORDS is set: all of them if
	// IgnoreMarkGap is zero (the variable set but empty), else those
	// between records at most IgnoreMarkGap apart (the variable's
	// interval).
	IgnoreMarks   bool
	IgnoreMarkGap time.Duration
	// Warn, if not nil, is told of damage that reading passes over as
	// libpcp passes over it, silently: a data volume (other than the
	// first) that cannot be opened is skipped. The error is a
	// *FormatError or an error from opening the file.
	Warn func(error)
	// NoFeatureCheck opens archives whose labels have feature bits this
	// package does not know, as libpcp does with
	// PM_CTXFLAG_NO_FEATURE_CHECK (pmdumplog retries with it).
	NoFeatureCheck bool
}

// Open opens an archive context. name is what pmie -a and pminfo -a
// accept: an archive's base name or the name of any of its files, a
// directory (every archive in it), or a comma-separated list of these.
// All the archives must be of the same host and must not overlap in
// time.
func Open(name string, opts ...Options) (*Context, error) {
	if name == "" {
		return nil, pmapi.ErrLogFile
	}
	var opened []*Archive
	names := expandArchiveList(name)
	var err error
	for _, n := range names {
		var a *Archive
		if a, err = OpenArchive(n, opts...); err != nil {
			break
		}
		if len(names) > 1 {
			// Of many archives, keep none open until read.
			a.Close()
		}
		opened = append(opened, a)
	}
	var c *Context
	if err == nil {
		c, err = newContext(name, opened, opts...)
	}
	if err != nil {
		for _, a := range opened {
			a.Close()
		}
		return nil, err
	}
	return c, nil
}

// newContext makes a context of archives opened in the order given.
func newContext(name string, opened []*Archive, opts ...Options) (*Context, error) {
	c := &Context{name: name, mode: pmapi.ModeForw}
	if len(opts) > 0 {
		c.opts = opts[0]
	}
	for _, a := range opened {
		if err := c.insert(a); err != nil {
			return nil, err
		}
	}
	if len(c.archives) == 0 {
		return nil, pmapi.ErrLogFile
	}
	if err := c.loadMeta(opened); err != nil {
		return nil, err
	}
	c.s = newStream(c.archives)
	c.setOrigin(c.archives[0].label.Start)
	// Reading starts at the first record, as libpcp's position does
	// before any pmSetMode.
	c.cur = c.s.start(0)
	c.saved = c.cur
	c.interp = newInterpState()
	return c, nil
}

// loadMeta builds the context's metadata tables. libpcp loads each
// archive's metadata into one set of tables as it opens them, then the
// first archive's again as it switches to it. For one archive that is
// what the archive has loaded already; for more, their metadata files
// are read again.
func (c *Context) loadMeta(opened []*Archive) error {
	if len(opened) == 1 {
		c.meta = opened[0].meta
		return nil
	}
	c.meta = newMeta()
	order := opened
	if len(c.archives) > 1 {
		order = append(order, c.archives[0])
	}
	for _, a := range order {
		if err := a.loadMeta(c.meta); err != nil {
			return err
		}
		c.meta.dedupLabels()
	}
	return nil
}

// insert adds a to the context's archives in order of start time.
func (c *Context) insert(a *Archive) error {
	if len(c.archives) > 0 && a.label.Host != c.archives[0].label.Host {
		return pmapi.ErrLogHost
	}
	i := 0
	for ; i < len(c.archives); i++ {
		o := c.archives[i]
		if a.label.Start < o.label.Start {
			break
		}
		if a.label.Start == o.label.Start {
			if a.base == o.base {
				return nil
			}
			return pmapi.ErrLogOverlap
		}
	}
	c.archives = append(c.archives, nil)
	copy(c.archives[i+1:], c.archives[i:])
	c.archives[i] = a
	return nil
}

// expandArchiveList splits a comma-separated list of archive names and
// replaces each directory by the archives in it, in the order the
// directory lists them (as readdir does for libpcp: which archive comes
// first decides which names are visible). As in libpcp, empty names are
// passed over ("a," is a), and slashes ending a name that has no
// archive file suffix are dropped ("a/" is a).
func expandArchiveList(names string) []string {
	var out []string
	for n := range strings.SplitSeq(names, ",") {
		if t := strings.TrimRight(n, "/"); t != "" && t != n {
			if _, suf := baseName(t); suf == "" {
				n = t
			}
		}
		if n == "" {
			continue
		}
		d, err := os.Open(n)
		if err != nil {
			out = append(out, n)
			continue
		}
		ents, err := d.Readdirnames(-1)
		d.Close()
		if err != nil {
			out = append(out, n)
			continue
		}
		for _, e := range ents {
			if b, suf := baseName(e); suf == "meta" {
				out = append(out, filepath.Join(n, b))
			}
		}
	}
	return out
}

// Archives are the context's archives, in time order.
func (c *Context) Archives() []*Archive { return c.archives }

// Source describes the context: its archives' host and timezone.
func (c *Context) Source() pmapi.Source {
	l := c.archives[0].label
	return pmapi.Source{Kind: pmapi.SourceArchive, Host: l.Host, Name: c.name, TZ: l.TZ}
}

// Bounds is the time span of the archives: the start in the first
// archive's label and the time of the last record of the last archive.
func (c *Context) Bounds() (start, end pmapi.Time) {
	start = c.archives[0].label.Start
	end, err := c.archives[len(c.archives)-1].End()
	if err != nil {
		end = start
	}
	return start, end
}

// Now is the context's current time: where the next Fetch answers.
func (c *Context) Now() pmapi.Time { return c.origin }

// Close releases the context and closes its files.
func (c *Context) Close() error {
	c.closed = true
	for _, a := range c.archives {
		a.Close()
	}
	return nil
}

// LookupName is pmLookupName for one name.
func (c *Context) LookupName(name string) (pmapi.PMID, error) {
	n := c.meta.pmns.locate(name)
	if n == nil || name == "" {
		return pmapi.PMIDNull, pmapi.ErrName
	}
	if len(n.kids) > 0 {
		return pmapi.PMIDNull, pmapi.ErrNonLeaf
	}
	return n.pmid, nil
}

// NameAll is pmNameAll: every name of id, in libpcp's order.
func (c *Context) NameAll(id pmapi.PMID) ([]string, error) {
	names := c.meta.pmns.names(id)
	if len(names) == 0 {
		return nil, pmapi.ErrPMID
	}
	return append([]string(nil), names...), nil
}

// Children lists the names one level below name, newest first as libpcp
// builds an archive's namespace.
func (c *Context) Children(name string) ([]pmapi.Child, error) {
	n := c.meta.pmns.locate(name)
	if n == nil {
		return nil, pmapi.ErrName
	}
	kids := n.children()
	out := make([]pmapi.Child, len(kids))
	for i, k := range kids {
		out[i] = pmapi.Child{Name: k.name, Leaf: len(k.kids) == 0}
	}
	return out, nil
}

// LookupDesc is pmLookupDesc.
func (c *Context) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	d, ok := c.meta.descs[id]
	if !ok {
		return pmapi.Desc{PMID: id}, pmapi.ErrPMIDLog
	}
	return d, nil
}

// InDom is pmGetInDom for an archive: the instances of indom as of the
// context's current time, in instance identifier order.
func (c *Context) InDom(indom pmapi.InDom) ([]pmapi.Instance, error) {
	return c.inDomWhere(indom, c.atOrBefore)
}

// InDomAt is InDom as of time t instead of the current time.
func (c *Context) InDomAt(indom pmapi.InDom, t pmapi.Time) ([]pmapi.Instance, error) {
	return c.inDomWhere(indom, func(x pmapi.Time) bool {
		return x.Sec() < t.Sec() || (x.Sec() == t.Sec() && x.Nsec() <= t.Nsec())
	})
}

// inDomWhere is the last instance domain record of indom whose time is
// before(time).
func (c *Context) inDomWhere(indom pmapi.InDom, before func(pmapi.Time) bool) ([]pmapi.Instance, error) {
	if indom == pmapi.InDomNull {
		return nil, pmapi.ErrInDom
	}
	h := c.meta.indoms[indom]
	if h == nil {
		return nil, pmapi.ErrInDomLog
	}
	s := h.atFunc(before)
	if s == nil {
		return nil, pmapi.ErrInDomLog
	}
	return append([]pmapi.Instance(nil), s.insts...), nil
}

// InDomArchive is pmGetInDomArchive: every instance the archives ever
// hold for indom, newest observation first.
func (c *Context) InDomArchive(indom pmapi.InDom) ([]pmapi.Instance, error) {
	if indom == pmapi.InDomNull {
		return nil, pmapi.ErrInDom
	}
	h := c.meta.indoms[indom]
	if h == nil {
		return nil, pmapi.ErrInDomLog
	}
	h.sort()
	seen := make(map[int32]bool)
	var out []pmapi.Instance
	for i := len(h.snaps) - 1; i >= 0; i-- {
		for _, in := range h.snaps[i].insts {
			if !seen[in.ID] {
				seen[in.ID] = true
				out = append(out, in)
			}
		}
	}
	return out, nil
}

// Text is pmLookupText / pmLookupInDomText.
func (c *Context) Text(id uint32, kind pmapi.TextKind) (string, error) {
	return c.meta.text(id, uint32(kind))
}

// Labels returns the label sets of one level of the label hierarchy as
// of the context's current time. An archive without context labels
// gets one naming its host, as libpcp gives.
func (c *Context) Labels(level pmapi.LabelFlag, id uint32) ([]pmapi.LabelSet, error) {
	var ident uint32
	switch level {
	case pmapi.LabelContext:
		ident = uint32(pmapi.PMIDNull)
	case pmapi.LabelDomain:
		ident = pmapi.PMID(id).Domain()
	case pmapi.LabelCluster, pmapi.LabelItem, pmapi.LabelInDom, pmapi.LabelInstances:
		// libpcp looks a cluster's labels up by the whole PMID it is
		// given, so an archive's cluster labels (filed under item 0)
		// are found only through the cluster's item 0
		ident = id
	default:
		return nil, pmapi.Errno(-22) // EINVAL
	}
	sets, ok := c.meta.labelsAt(labelKey{level, ident}, c.atOrBefore)
	if !ok {
		if level == pmapi.LabelContext {
			host := c.archives[0].label.Host
			return []pmapi.LabelSet{{Inst: pmapi.InNull, Labels: []pmapi.Label{{Name: "hostname", Value: `"` + host + `"`, Flags: pmapi.LabelContext}}}}, nil
		}
		return nil, nil
	}
	out := make([]pmapi.LabelSet, len(sets))
	for i, s := range sets {
		out[i] = pmapi.LabelSet{Inst: s.Inst, Labels: append([]pmapi.Label(nil), s.Labels...)}
	}
	return out, nil
}

// SetMode is pmSetMode: it sets the current time to t and how Fetch
// moves on from it.
func (c *Context) SetMode(mode pmapi.Mode, t pmapi.Time, delta time.Duration) error {
	if mode != pmapi.ModeInterp && mode != pmapi.ModeForw && mode != pmapi.ModeBack {
		return pmapi.ErrMode
	}
	c.mode, c.delta = mode, delta
	c.setOrigin(t)
	switch {
	case delta < 0:
		c.direction = -1
	case delta > 0:
		c.direction = 1
	default:
		c.direction = 0
	}
	// As in libpcp, a failure here shows at the next fetch.
	serial, err := c.setTime()
	if err == nil {
		c.saved = c.cur
	}
	c.serial = serial
	c.interp.reset(c.tOrigin())
	return nil
}

// setOrigin sets the current time.
func (c *Context) setOrigin(t pmapi.Time) {
	c.origin, c.osec, c.onsec = t, t.Sec(), t.Nsec()
}

// step moves the current time on by the delta, as libpcp does.
func (c *Context) step() {
	c.osec += int64(c.delta / time.Second)
	c.onsec += int64(c.delta % time.Second)
	for c.onsec > 1e9 {
		c.osec++
		c.onsec -= 1e9
	}
	for c.onsec < 0 {
		c.osec--
		c.onsec += 1e9
	}
	c.origin = pmapi.TimeOf(c.osec, c.onsec)
}

// tOrigin is the current time in seconds after the first archive's
// start, as libpcp works it out.
func (c *Context) tOrigin() float64 {
	b := c.s.base
	return pmapi.LongDoubleSeconds(c.osec-b.Sec(), c.onsec-b.Nsec())
}

// sinceOrigin is the seconds from the current time to t, as libpcp
// works it out.
func (c *Context) sinceOrigin(t pmapi.Time) float64 {
	return pmapi.LongDoubleSeconds(t.Sec()-c.osec, t.Nsec()-c.onsec)
}

// atOrBefore reports whether t is at or before the current time,
// comparing seconds and then nanoseconds as libpcp does.
func (c *Context) atOrBefore(t pmapi.Time) bool {
	return t.Sec() < c.osec || (t.Sec() == c.osec && t.Nsec() <= c.onsec)
}

// Fetch is pmFetch: the values of ids at the context's current time,
// according to its mode.
func (c *Context) Fetch(ids []pmapi.PMID, r *pmapi.Result) error {
	if c.closed {
		return pmapi.ErrNoContext
	}
	r.Reset()
	if c.mode == pmapi.ModeInterp {
		return c.fetchInterp(ids, r)
	}
	return c.fetchRecord(ids, r)
}

// End is pmGetArchiveEnd: the time of the last record of the last
// archive (see Archive.End), or why it cannot be found.
func (c *Context) End() (pmapi.Time, error) {
	return c.archives[len(c.archives)-1].End()
}
