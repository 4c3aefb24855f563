package fetchgroup

import (
	"cmp"
	"slices"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// Group is a fetchgroup: the items registered on one context and the
// state kept between fetches (the previous result, for rates, and the
// instance names of each instance domain). A Group is not safe for
// concurrent use, and the Item, InDomItem and Timestamp values it hands
// out change on every Fetch.
type Group struct {
	ctx  pmapi.Context
	opts Options

	// items in the order added; Fetch walks them newest first, as libpcp
	// walks its list
	items []filler
	pmids []pmapi.PMID

	indoms map[pmapi.InDom]*nameCache
	// indomOrder is the instance domains of indoms in the order their
	// first whole-domain item was added (Clear takes them out of the
	// profile in this order).
	indomOrder []pmapi.InDom

	cur, prev *pmapi.Result
	havePrev  bool
	// the interval between prev and cur, for rates
	dt           float64
	dtFrom, dtTo pmapi.Time
	dtSet        bool

	// the archive mode last set through SetMode, restored after looking
	// a name up at the end of an archive
	mode      pmapi.Mode
	delta     time.Duration
	origin    pmapi.Time
	originSet bool
}

// Options adjust a Group as libpcp's environment adjusts a fetchgroup.
type Options struct {
	// CounterWrap makes a counter that goes backwards between fetches
	// count as having wrapped once (at 2^32 for 32-bit types, 2^64 for
	// 64-bit ones) rather than have no rate, as $PCP_COUNTER_WRAP does.
	CounterWrap bool
	// Now is the clock giving the timestamp of a fetch that failed;
	// nil means time.Now.
	Now func() time.Time
}

// filler is one registered item: it resets its outputs before a fetch
// and fills them from the fetch's result after it.
type filler interface {
	reinit(atFetch bool)
	fill(g *Group, r *pmapi.Result)
}

// New makes a Group over ctx, which it owns from then on: Close closes
// it. ctx should not be used directly while the Group is in use, except
// to position an archive before items are added (or use SetMode).
func New(ctx pmapi.Context, opts ...Options) *Group {
	g := &Group{
		ctx:    ctx,
		indoms: make(map[pmapi.InDom]*nameCache),
		cur:    &pmapi.Result{},
		prev:   &pmapi.Result{},
		mode:   pmapi.ModeForw,
	}
	if len(opts) > 0 {
		g.opts = opts[0]
	}
	return g
}

// Context is the Group's context (pmGetFetchGroupContext).
func (g *Group) Context() pmapi.Context { return g.ctx }

// SetMode is pmSetMode on the Group's context, which must be a
// pmapi.Seeker (an archive). The Group remembers the mode to restore it
// after Extend* looks a name up at the end of the archive.
func (g *Group) SetMode(mode pmapi.Mode, t pmapi.Time, delta time.Duration) error {
	s, ok := g.ctx.(pmapi.Seeker)
	if !ok {
		return pmapi.ErrNotArchive
	}
	if err := s.SetMode(mode, t, delta); err != nil {
		return err
	}
	g.mode, g.delta = mode, delta
	g.origin, g.originSet = t, true
	return nil
}

// addPMID adds id to those each Fetch asks for, once.
func (g *Group) addPMID(id pmapi.PMID) {
	if !slices.Contains(g.pmids, id) {
		g.pmids = append(g.pmids, id)
	}
}

// Fetch is pmFetchGroup: one fetch of every metric of the group, after
// which every item holds its new value or status. It returns the fetch's
// error, if any; then every item has a status saying its value is
// missing, timestamps are the clock's time, and the previous result is
// kept for the rates of the next fetch.
func (g *Group) Fetch() error {
	for _, it := range g.items {
		it.reinit(true)
	}
	r := g.cur
	err := g.ctx.Fetch(g.pmids, r)
	if err != nil {
		r.Reset()
		r.Time = pmapi.FromStd(g.now())
	}
	for i := range r.Sets {
		if vals := r.Sets[i].Values; !slices.IsSortedFunc(vals, byInst) {
			slices.SortFunc(vals, byInst) // instances are unique
		}
	}
	for i := len(g.items) - 1; i >= 0; i-- {
		g.items[i].fill(g, r)
	}
	if err == nil {
		g.cur, g.prev = g.prev, g.cur
		g.havePrev = true
	}
	return err
}

func (g *Group) now() time.Time {
	if g.opts.Now != nil {
		return g.opts.Now()
	}
	return time.Now()
}

// previous is the result of the last successful fetch before the one
// being filled in, or nil.
func (g *Group) previous() *pmapi.Result {
	if !g.havePrev {
		return nil
	}
	return g.prev
}

// Clear is pmClearFetchGroup: it forgets every item and the previous
// result, and takes the instance domains of whole-domain items out of
// the context's instance profile, keeping the context as it is. Items
// handed out before are reset to their sentinels and no longer change.
func (g *Group) Clear() {
	for _, it := range g.items {
		it.reinit(false)
	}
	g.items = nil
	g.pmids = nil
	g.havePrev = false
	order := g.indomOrder
	g.indoms = make(map[pmapi.InDom]*nameCache)
	g.indomOrder = nil
	for _, indom := range order {
		delProfile(g.ctx, indom)
	}
}

// Close is pmDestroyFetchGroup: it clears the group and closes its
// context.
func (g *Group) Close() error {
	err := g.ctx.Close()
	g.Clear()
	return err
}

func byInst(a, b pmapi.Value) int { return cmp.Compare(a.Inst, b.Inst) }

// set finds the value set of id in r, or nil.
func set(r *pmapi.Result, id pmapi.PMID) *pmapi.ValueSet {
	for i := range r.Sets {
		if r.Sets[i].PMID == id {
			return &r.Sets[i]
		}
	}
	return nil
}
