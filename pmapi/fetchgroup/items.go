package fetchgroup

import (
	"cmp"
	"slices"

	"github.com/gopcp/pmie/pmapi"
)

// Item is one metric instance of a Group (pmExtendFetchGroup_item).
// After each Fetch, Err is nil and Value holds the converted value, or
// Err says why there is none and Value is the sentinel of its type
// (see IsNull). A discrete metric absent from a fetch keeps its last
// value and status.
type Item struct {
	Value pmapi.Atom
	Err   error

	m    metric
	conv conversion
	typ  pmapi.Type
}

// InDomItem is every instance of one metric (pmExtendFetchGroup_indom).
// After each Fetch, Err is the status of the whole metric and the first
// Num elements of Insts its instances, in instance number order. When
// there are more than len(Insts) instances, Err is PM_ERR_TOOBIG, Num is
// 0 and Insts holds the first len(Insts). A metric without an instance
// domain has one instance, numbered PM_IN_NULL and unnamed.
type InDomItem struct {
	Err   error
	Num   int
	Insts []Instance

	m    metric
	conv conversion
	typ  pmapi.Type
}

// Instance is one instance of an InDomItem. Named is false when the
// instance has no name in the instance domain (libpcp's NULL name).
type Instance struct {
	Inst  int32
	Name  string
	Named bool
	Value pmapi.Atom
	Err   error
}

// Timestamp holds the time of the Group's last fetch
// (pmExtendFetchGroup_timespec), or zero before the first.
type Timestamp struct {
	Time pmapi.Time
}

// nameCache is the instances of one instance domain, kept between
// fetches to name the instances of InDomItems (libpcp's __pmInDomCache).
type nameCache struct {
	insts []pmapi.Instance
	fresh bool
}

// ExtendItem is pmExtendFetchGroup_item: it adds one metric, and for a
// metric with an instance domain the instance named instance (pass ""
// for one without), whose values are to be converted as scale says (see
// below) and given as type typ (a numeric type or TypeString).
//
// scale is "" (counters become rates per second, other metrics are
// left as they are), "rate" (a rate whatever the semantics), "instant"
// (never a rate), or units as pmParseUnitsStr reads them, either of the
// metric's dimension (the values are rescaled, never made rates) or of
// one time dimension less (rates, rescaled; "Mbyte/sec" of a Kbyte
// counter).
//
// The errors are those of pmExtendFetchGroup_item: PM_ERR_NAME and the
// like from the lookups, PM_ERR_INDOM when an instance is given for a
// metric without an instance domain or none for one with,
// PM_ERR_INST(_LOG) for an unknown instance, PM_ERR_TYPE for an
// aggregate or event metric or typ, PM_ERR_CONV for scale units of the
// wrong dimension or that do not parse. On an archive a failed lookup
// is tried again at the archive's end, as libpcp does.
func (g *Group) ExtendItem(metric, instance, scale string, typ pmapi.Type) (*Item, error) {
	m, err := g.lookupItemAnywhen(metric, instance)
	if err != nil {
		return nil, err
	}
	c, err := prepare(m.desc, scale, typ)
	if err != nil {
		return nil, err
	}
	g.addPMID(m.id)
	it := &Item{m: m, conv: c, typ: typ}
	it.reinit(false)
	g.items = append(g.items, it)
	return it, nil
}

// ExtendInDom is pmExtendFetchGroup_indom: it adds every instance of a
// metric, up to maxnum of them, converted as for ExtendItem. The whole
// instance domain is added to the context's instance profile.
func (g *Group) ExtendInDom(metric, scale string, typ pmapi.Type, maxnum int) (*InDomItem, error) {
	m, err := g.lookupMetric(metric)
	if err != nil {
		return nil, err
	}
	if indom := m.desc.InDom; indom != pmapi.InDomNull && g.indoms[indom] == nil {
		g.indoms[indom] = &nameCache{}
		g.indomOrder = append(g.indomOrder, indom)
		if err := addProfile(g.ctx, indom); err != nil {
			return nil, code(err)
		}
	}
	c, err := prepare(m.desc, scale, typ)
	if err != nil {
		return nil, err
	}
	g.addPMID(m.id)
	it := &InDomItem{m: m, conv: c, typ: typ, Insts: make([]Instance, max(maxnum, 0))}
	it.reinit(false)
	it.Err = nil
	g.items = append(g.items, it)
	return it, nil
}

// ExtendTimestamp is pmExtendFetchGroup_timespec: it adds the time of
// each fetch.
func (g *Group) ExtendTimestamp() *Timestamp {
	t := &Timestamp{}
	g.items = append(g.items, t)
	return t
}

func (t *Timestamp) reinit(bool)                    { t.Time = 0 }
func (t *Timestamp) fill(_ *Group, r *pmapi.Result) { t.Time = r.Time }

// reinit sets the item to "no value"; at a fetch, a discrete metric
// keeps its value until the result shows whether it has a new one.
func (it *Item) reinit(atFetch bool) {
	if atFetch && it.m.desc.Sem == pmapi.SemDiscrete {
		return
	}
	it.Value, it.Err = sentinel(it.typ), pmapi.ErrValue
}

func (it *Item) fill(g *Group, r *pmapi.Result) {
	if it.m.desc.Sem == pmapi.SemDiscrete {
		if s := set(r, it.m.id); s != nil && s.Err == nil {
			if len(s.Values) == 0 {
				return // absent: keep the last value
			}
			it.reinit(false)
		}
	}
	v, err := g.value(r, &it.m, it.m.inst, it.conv, it.typ)
	if err == nil {
		it.Value = v
	}
	it.Err = err
}

func (it *InDomItem) reinit(atFetch bool) {
	if atFetch && it.m.desc.Sem == pmapi.SemDiscrete {
		return
	}
	for i := range it.Insts {
		in := &it.Insts[i]
		// as in libpcp, instance numbers stay as they were
		in.Name, in.Named = "", false
		in.Value, in.Err = sentinel(it.typ), pmapi.ErrValue
	}
	it.Num = 0
}

func (it *InDomItem) fill(g *Group, r *pmapi.Result) {
	s := set(r, it.m.id)
	switch {
	case s == nil:
		it.Err = pmapi.ErrValue
		return
	case s.Err != nil:
		it.Err = pmapi.Code(s.Err)
		return
	}
	if it.m.desc.Sem == pmapi.SemDiscrete {
		if len(s.Values) == 0 {
			return // absent: keep everything as it was
		}
		it.reinit(false)
	}
	cache := g.names(it.m.desc.InDom, s.Values)
	k := 0 // the cache's instances and the values are both in instance order
	for j, v := range s.Values {
		if j >= len(it.Insts) {
			it.Err = pmapi.ErrTooBig
			return
		}
		in := &it.Insts[j]
		in.Inst = v.Inst
		if cache != nil {
			for k < len(cache.insts) && cache.insts[k].ID < v.Inst {
				k++
			}
			if k < len(cache.insts) && cache.insts[k].ID == v.Inst {
				in.Name, in.Named = cache.insts[k].Name, true
			}
		}
		a, err := g.convertValue(v.Atom, &it.m, v.Inst, it.conv, it.typ)
		if err == nil {
			in.Value = a
		}
		in.Err = err
	}
	it.Num = len(s.Values)
	it.Err = nil
}

// names gives the names of indom's instances, fetched again when vals
// has an instance the cache does not know, or nil for PM_INDOM_NULL.
func (g *Group) names(indom pmapi.InDom, vals []pmapi.Value) *nameCache {
	c := g.indoms[indom]
	if c == nil {
		return nil
	}
	if c.fresh {
		k := 0
		for _, v := range vals {
			for k < len(c.insts) && c.insts[k].ID < v.Inst {
				k++
			}
			if k == len(c.insts) || c.insts[k].ID != v.Inst {
				c.fresh = false
				break
			}
		}
	}
	if !c.fresh {
		insts, err := g.ctx.InDom(indom)
		c.insts = append(c.insts[:0], insts...)
		sortInsts(c.insts)
		c.fresh = err == nil
	}
	return c
}

// value is the value of instance inst of metric m in r, converted.
func (g *Group) value(r *pmapi.Result, m *metric, inst int32, c conversion, typ pmapi.Type) (pmapi.Atom, error) {
	a, err := find(r, m, inst)
	if err != nil {
		return pmapi.Atom{}, err
	}
	return g.convertValue(a, m, inst, c, typ)
}

// convertValue converts a, the value of instance inst of m in the
// result being filled in.
func (g *Group) convertValue(a pmapi.Atom, m *metric, inst int32, c conversion, typ pmapi.Type) (pmapi.Atom, error) {
	if !c.rate && !c.unit {
		return convert(a, typ)
	}
	d, err := convert(a, pmapi.TypeDouble)
	if err != nil {
		return pmapi.Atom{}, err
	}
	v := d.Float64()
	if c.rate {
		prev := g.previous()
		if prev == nil {
			return pmapi.Atom{}, pmapi.ErrAgain
		}
		dt := g.interval(g.cur.Time, prev.Time) // g.cur is being filled in
		pa, err := find(prev, m, inst)
		if err == nil {
			pa, err = convert(pa, pmapi.TypeDouble)
		}
		if err != nil {
			return pmapi.Atom{}, err
		}
		p := pa.Float64()
		delta := v - p
		if delta < 0 {
			if !g.opts.CounterWrap {
				return pmapi.Atom{}, pmapi.ErrValue
			}
			delta += wrapSize(m.desc.Type)
		}
		v = delta / dt
	}
	if c.unit {
		a, err := pmapi.ConvScale(pmapi.F64(v), m.desc.Units, c.out)
		if err != nil {
			return pmapi.Atom{}, pmapi.Code(err)
		}
		v = a.Float64() * c.mult
	}
	return fromDouble(v, typ)
}

// interval is the seconds from the previous fetch at u to this one at
// t, at least a nanosecond, worked out once per fetch.
func (g *Group) interval(t, u pmapi.Time) float64 {
	if !g.dtSet || g.dtFrom != u || g.dtTo != t {
		g.dt = max(pmapi.SubSeconds(t, u), 1e-9)
		g.dtFrom, g.dtTo, g.dtSet = u, t, true
	}
	return g.dt
}

// wrapSize is what a counter of type t wraps at, as a double.
func wrapSize(t pmapi.Type) float64 {
	switch t {
	case pmapi.Type32, pmapi.TypeU32:
		return 0x1p32
	case pmapi.Type64, pmapi.TypeU64:
		return 0x1p64
	}
	return 0
}

// find finds instance inst of m in r (any instance of a metric without
// an instance domain).
func find(r *pmapi.Result, m *metric, inst int32) (pmapi.Atom, error) {
	s := set(r, m.id)
	switch {
	case s == nil:
		return pmapi.Atom{}, pmapi.ErrValue
	case s.Err != nil:
		return pmapi.Atom{}, pmapi.Code(s.Err)
	case len(s.Values) == 0:
		return pmapi.Atom{}, pmapi.ErrValue
	case m.desc.InDom == pmapi.InDomNull:
		return s.Values[0].Atom, nil
	}
	// Fetch sorted the values by instance
	i, ok := slices.BinarySearchFunc(s.Values, inst, func(v pmapi.Value, id int32) int { return cmp.Compare(v.Inst, id) })
	if !ok {
		return pmapi.Atom{}, pmapi.ErrValue
	}
	return s.Values[i].Atom, nil
}

// sortInsts puts instances in instance number order, keeping the first
// of any the same first, as libpcp's linear search would find it.
func sortInsts(insts []pmapi.Instance) {
	if !slices.IsSortedFunc(insts, byID) {
		slices.SortStableFunc(insts, byID)
	}
}

func byID(a, b pmapi.Instance) int { return cmp.Compare(a.ID, b.ID) }
