package derive

import (
	"fmt"
	"strings"
	"time"

	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

// Context is a pmapi.Context with derived metrics: the global ones of a
// Registry and its own (Add), in its namespace, metadata and fetches, as
// libpcp gives every context its derived metrics.
type Context struct {
	inner pmapi.Context
	reg   *Registry
	seen  int // how many of reg's definitions this context has

	metrics []*metric // globals in registration order, then per-context ones
	byPMID  map[pmapi.PMID]*metric
	told    []*metric  // the metrics whose problems Diagnostics lists, in order
	lastLoc pmapi.PMID // the last per-context PMID given out

	onBind func([]Diagnostic)
	fresh  bool // BindEachLookup
	// sawDerived is set when operand gives a derived metric, for the
	// metric being checked (checkMetric)
	sawDerived bool

	slots slotTable
	frame frame
	secs  secondsCache
	fetch fetchPlan
	res   pmapi.Result // the inner context's answer
}

// metric is one derived metric of a context.
type metric struct {
	def    *def
	local  bool
	masked bool // a per-context metric of the same name hides it
	// checked is set once the metric has been checked; tree is then its
	// typed tree, or nil when it cannot be used.
	checked bool
	tree    *node
	diags   []Diagnostic
	// lacking is set when the metric failed for want of an operand the
	// context does not have, found without its tree: diags are then made
	// only when asked for (see metricProblems).
	lacking bool
	// bound is libpcp's DM_BIND: the context has looked at the metric's
	// metadata (which hides a failed metric from the namespace).
	bound   bool
	binding bool // its operands are being bound: a use of it now is a cycle
	// usesDerived is set when checking found a derived metric among its
	// operands: only then has binding it others to bind first
	usesDerived bool
	checking    bool     // being checked: a use of it now is a cycle
	cycle       []string // the cycle it is part of, if any
	prog        *program
}

// Wrap gives ctx the derived metrics of reg (and those registered there
// later), checking each against ctx's metrics as a new libpcp context
// does. It returns the problems found: semantic errors, and operands ctx
// does not have. Metrics with problems stay in the namespace but have no
// descriptor or values, as in libpcp.
//
// The returned context implements pmapi.Seeker when ctx does.
func Wrap(ctx pmapi.Context, reg *Registry) (pmapi.Context, []Diagnostic) {
	c, wrapped, checked := layer(ctx, reg)
	return wrapped, c.problems(checked)
}

// Layer is Wrap without the list of problems: a derived metric that fails
// for want of an operand is then never parsed (its problems are found
// only if Diagnostics asks for them), which saves most of a command's
// start-up when the context lacks what PCP's global derived metrics use.
func Layer(ctx pmapi.Context, reg *Registry) pmapi.Context {
	_, wrapped, _ := layer(ctx, reg)
	return wrapped
}

// layer makes the derived-metric layer over ctx, as a Context and as the
// context Wrap returns, and checks its metrics, returning those checked.
func layer(ctx pmapi.Context, reg *Registry) (*Context, pmapi.Context, []*metric) {
	c := &Context{inner: ctx, reg: reg, byPMID: map[pmapi.PMID]*metric{}}
	c.frame.insts = c
	c.frame.secs = &c.secs
	c.refresh()
	checked := c.checkAll()
	if s, ok := ctx.(pmapi.Seeker); ok {
		return c, &seekContext{c, s}, checked
	}
	return c, c, checked
}

// seekContext is a Context over a context that can be positioned in time.
type seekContext struct {
	*Context
	seeker pmapi.Seeker
}

// SetMode is pmSetMode on the underlying context.
func (s *seekContext) SetMode(mode pmapi.Mode, t pmapi.Time, delta time.Duration) error {
	return s.seeker.SetMode(mode, t, delta)
}

// Bounds is the underlying context's time span.
func (s *seekContext) Bounds() (start, end pmapi.Time) { return s.seeker.Bounds() }

// InDomAt is the underlying context's.
func (s *seekContext) InDomAt(indom pmapi.InDom, t pmapi.Time) ([]pmapi.Instance, error) {
	return pmapi.InDomAt(s.inner, indom, t)
}

// Derived returns the derived-metric layer of a context made by Wrap.
func Derived(ctx pmapi.Context) (*Context, bool) {
	switch c := ctx.(type) {
	case *Context:
		return c, true
	case *seekContext:
		return c.Context, true
	}
	return nil, false
}

// refresh takes in global metrics registered since the last look.
func (c *Context) refresh() {
	if c.reg == nil || c.reg.count() == c.seen {
		return
	}
	defs := c.reg.snapshot(c.seen)
	c.seen += len(defs)
	var fresh []*metric
	for _, d := range defs {
		m := &metric{def: d}
		for _, o := range c.metrics {
			if o.local && o.def.name == d.name {
				m.masked = true
			}
		}
		fresh = append(fresh, m)
	}
	// globals come before per-context metrics, as in libpcp's list
	n := 0
	for n < len(c.metrics) && !c.metrics[n].local {
		n++
	}
	c.metrics = append(c.metrics[:n:n], append(fresh, c.metrics[n:]...)...)
	for _, m := range fresh {
		c.byPMID[m.def.pmid] = m
	}
}

// checkAll checks every metric not yet checked, returning them (those
// checked on the way, as operands of others, are not among them).
func (c *Context) checkAll() []*metric {
	var out []*metric
	for _, m := range c.metrics {
		if !m.checked && !m.masked {
			c.checkMetric(m)
			out = append(out, m)
		}
	}
	c.told = append(c.told, out...)
	return out
}

// Diagnostics returns every problem found with this context's derived
// metrics so far.
func (c *Context) Diagnostics() []Diagnostic {
	c.refresh()
	c.checkAll()
	return c.problems(c.told)
}

// problems lists the problems of ms, in order.
func (c *Context) problems(ms []*metric) []Diagnostic {
	var out []Diagnostic
	for _, m := range ms {
		out = append(out, c.metricProblems(m)...)
	}
	return out
}

// metricProblems are m's problems, once it has been checked. Those of a
// metric that lacks an operand are found by checking its tree now, with
// the context's own metrics only (no derived metric was among its
// operands when it was checked).
func (c *Context) metricProblems(m *metric) []Diagnostic {
	if m.lacking && m.diags == nil { // the check finds at least the operand lacking
		m.diags = c.checkLacking(m)
	}
	return m.diags
}

// checkLacking is the full check of metric m, which lacks an operand.
func (c *Context) checkLacking(m *metric) (diags []Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			diags = []Diagnostic{m.def.internalError(r)}
		}
	}()
	_, diags, _ = check(m.def, innerOnly{c.inner})
	return diags
}

// innerOnly binds operands to the metrics of a context, not to derived
// metrics.
type innerOnly struct{ inner pmapi.Context }

func (b innerOnly) operand(name string) (pmapi.PMID, pmapi.Desc, *node, error) {
	id, desc, _, err := innerOperand(b.inner, name)
	return id, desc, nil, err
}

// innerOperand is operand name as a metric of ctx (not a derived one):
// found is false when ctx has no such metric, and err then says why.
func innerOperand(ctx pmapi.Context, name string) (id pmapi.PMID, desc pmapi.Desc, found bool, err error) {
	id, err = ctx.LookupName(name)
	if err != nil || IsDerived(id) {
		if err == nil {
			err = pmapi.ErrName
		}
		return pmapi.PMIDNull, pmapi.Desc{}, false, err
	}
	desc, err = ctx.LookupDesc(id)
	if err != nil {
		err = descError{id, err}
	}
	return id, desc, true, err
}

// lacks reports whether metric d fails in this context for want of an
// operand, which it can tell from the names d uses, without d's tree:
// some name that d needs (not the argument of anon or defined) is neither
// a metric of the context nor a derived metric. It says false whenever a
// derived metric is among d's operands: checking d would check that
// metric too, in the order only the full check follows.
func (c *Context) lacks(d *def) bool {
	lacking := false
	for _, o := range d.expr.Operands() {
		if o.Func == "anon" {
			continue
		}
		if id, err := c.inner.LookupName(o.Name); err == nil && !IsDerived(id) {
			continue
		}
		if c.visible(o.Name) != nil {
			return false
		}
		lacking = lacking || o.Func != "defined"
	}
	return lacking
}

// checkMetric checks m once.
func (c *Context) checkMetric(m *metric) {
	if m.checked {
		return
	}
	if !m.def.anon {
		if id, err := c.inner.LookupName(m.def.name); err == nil && !IsDerived(id) {
			m.checked = true
			m.diags = []Diagnostic{m.def.shadowedWarning(id)}
			return
		}
	}
	if c.lacks(m.def) {
		m.checked, m.lacking = true, true
		return
	}
	m.checking = true
	defer func() {
		m.checking = false
		m.checked = true
		if r := recover(); r != nil {
			m.tree, m.diags = nil, []Diagnostic{m.def.internalError(r)}
		}
	}()
	outer := c.sawDerived
	c.sawDerived = false
	m.tree, m.diags, m.cycle = check(m.def, c)
	m.usesDerived = c.sawDerived
	c.sawDerived = outer
}

// cycleErr is the error operand gives for a derived metric that is being
// checked already.
type cycleErr struct{ path []string }

func (e cycleErr) Error() string { return "cycle: " + strings.Join(e.path, " -> ") }

// operand implements binder: a metric of the inner context, else (beyond
// libpcp 6.0.3, which refuses these) another derived metric.
func (c *Context) operand(name string) (pmapi.PMID, pmapi.Desc, *node, error) {
	id, desc, found, err := innerOperand(c.inner, name)
	if found {
		return id, desc, nil, err
	}
	m := c.visible(name)
	if m == nil {
		return pmapi.PMIDNull, pmapi.Desc{}, nil, err
	}
	c.sawDerived = true
	if m.checking {
		return pmapi.PMIDNull, pmapi.Desc{}, nil, cycleErr{c.cyclePath(m)}
	}
	c.checkMetric(m)
	if m.cycle != nil {
		return pmapi.PMIDNull, pmapi.Desc{}, nil, cycleErr{m.cycle}
	}
	if m.tree == nil {
		return pmapi.PMIDNull, pmapi.Desc{}, nil, pmapi.ErrBadDerive
	}
	return m.def.pmid, m.tree.desc, m.tree, nil
}

// cyclePath names the metrics being checked, from m round to m again.
func (c *Context) cyclePath(m *metric) []string {
	var path []string
	for _, o := range c.checkStack() {
		if o == m || len(path) > 0 {
			path = append(path, o.def.name)
		}
	}
	return append(path, m.def.name)
}

// checkStack lists the metrics being checked, outermost first.
func (c *Context) checkStack() []*metric {
	var out []*metric
	for _, m := range c.metrics {
		if m.checking {
			out = append(out, m)
		}
	}
	return out
}

// visible is the derived metric called name that the context shows.
func (c *Context) visible(name string) *metric {
	for i := len(c.metrics) - 1; i >= 0; i-- {
		if m := c.metrics[i]; !m.masked && m.def.name == name {
			return m
		}
	}
	return nil
}

// bind is libpcp's __dmbind: the context looks at m's metadata, and so
// at that of the derived metrics among its operands first (bindOperands).
func (c *Context) bind(m *metric) {
	c.checkMetric(m)
	if m.bound || m.binding {
		return
	}
	m.binding = true
	c.bindOperands(m)
	m.binding = false
	if c.onBind != nil && !m.lacking && len(m.diags) > 0 {
		c.onBind(m.diags)
	}
	m.bound = true
}

// bindOperands binds the derived metrics among m's operands as libpcp
// does when it binds m: it looks up each operand's name and descriptor in
// the order they are written, and stops at the first that fails (a name
// the context lacks, unless defined's; a descriptor it cannot give; a
// derived metric that fails). A derived operand so bound is reported and,
// failing, left out of the namespace, as if it had been looked up itself:
// `b.y = a.x`, where a.x has a semantic error, prints a.x's error when b.y
// is first used, and a.x is then an unknown name.
func (c *Context) bindOperands(m *metric) {
	if !m.usesDerived {
		return
	}
	for _, o := range m.def.expr.Operands() {
		if o.Func == "anon" {
			continue
		}
		_, _, found, err := innerOperand(c.inner, o.Name)
		if found {
			if err != nil {
				return
			}
			continue
		}
		d := c.visible(o.Name)
		if d == nil {
			if o.Func == "defined" {
				continue
			}
			return
		}
		if d.binding { // a cycle, which checking d found
			return
		}
		c.bind(d)
		if d.tree == nil {
			return
		}
	}
}

// OnBind asks for fn to be told of a derived metric's problems when the
// context first uses it (looks up its descriptor or fetches it), which is
// when libpcp reports them. A metric that fails for want of an operand is
// not told of: libpcp reports nothing about it (see PCPReport), and its
// problems are found only if Diagnostics asks. Wrap's result has them all
// at once.
func (c *Context) OnBind(fn func([]Diagnostic)) { c.onBind = fn }

// BindEachLookup makes each lookup of a derived metric's descriptor bind
// it as a new context would, so that OnBind is told of its problems (and
// those of the derived metrics it uses) every time: pmie looks each metric
// up in a context made for that lookup, so libpcp reports a failing
// derived metric's errors at every lookup, and again at each retry.
func (c *Context) BindEachLookup() { c.fresh = true }

// Source is the inner context's.
func (c *Context) Source() pmapi.Source { return c.inner.Source() }

// AddProfile is pmAddProfile on the underlying context, whose fetches
// bring the derived metrics' operands too.
func (c *Context) AddProfile(indom pmapi.InDom, insts []int32) error {
	_, err := pmapi.AddProfile(c.inner, indom, insts...)
	return err
}

// DelProfile is pmDelProfile on the underlying context.
func (c *Context) DelProfile(indom pmapi.InDom, insts []int32) error {
	_, err := pmapi.DelProfile(c.inner, indom, insts...)
	return err
}

// KeepsProfile reports whether the underlying context keeps an instance
// profile.
func (c *Context) KeepsProfile() bool { return pmapi.KeepsProfile(c.inner) }

// Close closes the inner context.
func (c *Context) Close() error { return c.inner.Close() }

// InDom is the inner context's.
func (c *Context) InDom(indom pmapi.InDom) ([]pmapi.Instance, error) { return c.inner.InDom(indom) }

// Labels is the inner context's.
func (c *Context) Labels(level pmapi.LabelFlag, id uint32) ([]pmapi.LabelSet, error) {
	return c.inner.Labels(level, id)
}

// LookupName looks in the inner context, then among derived metrics.
func (c *Context) LookupName(name string) (pmapi.PMID, error) {
	id, err := c.inner.LookupName(name)
	if err == nil {
		return id, nil
	}
	c.refresh()
	if m := c.visible(name); m != nil {
		return m.def.pmid, nil
	}
	return id, err
}

// NameAll gives a derived metric's name, else asks the inner context.
func (c *Context) NameAll(id pmapi.PMID) ([]string, error) {
	c.refresh()
	if m := c.byPMID[id]; m != nil && !m.masked {
		return []string{m.def.name}, nil
	}
	return c.inner.NameAll(id)
}

// LookupDesc gives a derived metric's descriptor, with its PMID; a derived
// metric that failed its checks gives pmapi.ErrBadDerive.
func (c *Context) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	if !IsDerived(id) {
		return c.inner.LookupDesc(id)
	}
	c.refresh()
	m := c.byPMID[id]
	if m == nil || m.masked {
		return pmapi.Desc{}, pmapi.ErrPMID
	}
	if c.fresh {
		for _, o := range c.metrics {
			o.bound = false
		}
	}
	c.bind(m)
	if m.tree == nil {
		return pmapi.Desc{}, pmapi.ErrBadDerive
	}
	d := m.tree.desc
	d.PMID = id
	return d, nil
}

// Text gives the help text of global derived metrics, and asks the inner
// context about everything else.
func (c *Context) Text(id uint32, kind pmapi.TextKind) (string, error) {
	if kind&pmapi.TextInDom != 0 || !IsDerived(pmapi.PMID(id)) {
		return c.inner.Text(id, kind)
	}
	return c.reg.text(pmapi.PMID(id), kind)
}

// Children merges the derived metrics below name into the inner context's
// namespace, after its own children, as libpcp's pmGetChildrenStatus does.
// A derived metric that has failed once the context looked at its
// metadata is left out.
func (c *Context) Children(name string) ([]pmapi.Child, error) {
	kids, err := c.inner.Children(name)
	c.refresh()
	dkids, leaf, found := c.derivedChildren(name)
	switch {
	case found && leaf:
		if err != nil {
			return nil, nil
		}
		return kids, nil
	case found:
		if err != nil {
			kids = nil
		}
		kids = append([]pmapi.Child(nil), kids...) // ours to change
		for _, k := range dkids {
			switch i := childIndex(kids, k.Name); {
			case i < 0:
				kids = append(kids, k)
			case !k.Leaf:
				// Derived metrics named below one of the context's
				// leaves turn it into a non-leaf, in its place.
				kids[i].Leaf = false
			}
		}
		return kids, nil
	}
	return kids, err
}

func hasChild(kids []pmapi.Child, name string) bool { return childIndex(kids, name) >= 0 }

func childIndex(kids []pmapi.Child, name string) int {
	for i, k := range kids {
		if k.Name == name {
			return i
		}
	}
	return -1
}

// derivedChildren is libpcp's __dmchildren: the next components of the
// derived names below name; leaf when name is itself a derived metric.
func (c *Context) derivedChildren(name string) (kids []pmapi.Child, leaf, found bool) {
	for _, m := range c.metrics {
		if m.masked || (!m.def.anon && m.bound && m.tree == nil) {
			continue
		}
		full := m.def.name
		rest := full
		if name != "" {
			if !strings.HasPrefix(full, name) || (len(full) > len(name) && full[len(name)] != '.') {
				continue
			}
			if len(full) == len(name) {
				return nil, true, true
			}
			rest = full[len(name)+1:]
		}
		comp, _, more := strings.Cut(rest, ".")
		if !hasChild(kids, comp) {
			kids = append(kids, pmapi.Child{Name: comp, Leaf: !more})
		}
	}
	return kids, false, len(kids) > 0
}

// Add is pmAddDerived(3): it defines a derived metric for this context
// only, hiding any global one of the same name, and checks it at once.
// The error, if any, is a Diagnostic.
func (c *Context) Add(name, expr string) error {
	c.refresh()
	for _, m := range c.metrics {
		if m.local && m.def.name == name {
			return registerError(lang.NewSource("<expr>", expr), name, expr, reasonDuplicateLocal)
		}
	}
	x, d := c.reg.parse(expr)
	if d != nil {
		return syntaxError(d, name, expr)
	}
	for _, m := range c.metrics {
		if !m.local && m.def.name == name {
			m.masked = true
		}
	}
	id := localPMID(c.lastLoc)
	c.lastLoc = id
	m := &metric{def: &def{name: name, pmid: id, text: expr, expr: x}, local: true}
	c.metrics = append(c.metrics, m)
	c.byPMID[id] = m
	c.bind(m)
	c.told = append(c.told, m)
	if diags := c.metricProblems(m); m.tree == nil && len(diags) > 0 {
		return diags[0]
	}
	return nil
}

// localPMID is the per-context PMID after last: libpcp counts down from
// 511.2047.1023, with the top bit set.
func localPMID(last pmapi.PMID) pmapi.PMID {
	if last == 0 {
		return localFlag | pmapi.NewPMID(DomainDerived, 2047, 1023)
	}
	if last.Item() > 1 {
		return localFlag | pmapi.NewPMID(DomainDerived, last.Cluster(), last.Item()-1)
	}
	return localFlag | pmapi.NewPMID(DomainDerived, last.Cluster()-1, 1023)
}

// PCPReport renders diagnostics as libpcp reports them on standard error
// when a context binds its derived metrics: for each metric, its first
// semantic error, unless one of its operands is missing (which libpcp
// does not report).
func PCPReport(diags []Diagnostic) string {
	var b strings.Builder
	silent := map[string]bool{}
	done := map[string]bool{}
	for _, d := range diags {
		if d.Kind == KindLookup || d.Kind == KindShadowed {
			silent[d.Metric] = true
		}
	}
	for _, d := range diags {
		perMetric := d.Kind == KindSemantic || d.Kind == KindCycle
		if perMetric && (silent[d.Metric] || done[d.Metric]) {
			continue
		}
		if s := d.PCP(); s != "" {
			b.WriteString(s)
			done[d.Metric] = perMetric
		}
	}
	return b.String()
}

// String describes the context, for debugging.
func (c *Context) String() string {
	return fmt.Sprintf("derive.Context(%d derived metrics over %v)", len(c.metrics), c.inner.Source().Name)
}

// TraversePMNS is pmTraversePMNS (see pmapi.NamespaceTraverser). Over a
// context that lists its namespace in one request (a pmcd context), the
// derived metrics at or below name come after the context's own names, as
// libpcp gives them for host contexts: each is bound as it is listed, and
// those that fail are left out. Over any other context it walks Children,
// which puts derived metrics among the others, as libpcp does for
// archives and local contexts.
func (c *Context) TraversePMNS(name string) ([]string, error) {
	c.refresh()
	t, ok := c.inner.(pmapi.NamespaceTraverser)
	if !ok {
		var names []string
		err := pmapi.WalkChildren(c, name, func(n string) error { names = append(names, n); return nil })
		return names, err
	}
	names, err := t.TraversePMNS(name)
	if err != nil && pmapi.Code(err) != pmapi.ErrName {
		return nil, err
	}
	extra := 0
	for _, m := range c.metrics {
		full := m.def.name
		below := name == "" || strings.HasPrefix(full, name) && (len(full) == len(name) || full[len(name)] == '.')
		if m.masked || !below {
			continue
		}
		c.bind(m)
		if !m.def.anon && m.tree == nil {
			continue
		}
		names = append(names, full)
		extra++
	}
	if err != nil && extra == 0 {
		return nil, err
	}
	return names, nil
}
