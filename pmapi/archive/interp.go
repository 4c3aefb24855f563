package archive

import (
	"slices"

	"github.com/gopcp/pmie/pmapi"
)

// The interpolation engine follows libpcp's __pmLogFetchInterp closely,
// because pmie's answers depend on its exact behaviour: which records it
// scans, when a <mark> it passes suppresses counter values, how bounds
// found by one fetch carry over to the next, and the arithmetic, done in
// doubles in the same order. Each metric-instance keeps the nearest
// record at or before the requested time (its prior bound) and at or
// after it (its next bound); each fetch reads just enough of the archive
// to bring those bounds up to date.

// Bound states (libpcp's S_*). The first three exclude each other;
// stScanned may be added to any of them.
const (
	stUndefined = 1  // no searching done yet
	stMark      = 2  // a <mark> bounds the time
	stValue     = 4  // a value bounds the time
	stScanned   = 16 // the records between the time and this bound have been read
)

// How updateBounds treats a <mark> (libpcp's UPD_MARK_*).
const (
	markNone = iota // fine positioning: <mark>s are ignored
	markForw        // reading forwards
	markBack        // reading backwards
)

// rawValue is a numeric value as the record holds it: the 32-bit word
// of an insitu value, or of a value block the first bytes, all that its
// type uses. (A string, aggregate or event value block is kept apart, as
// a copy: see instCtl.)
type rawValue struct {
	lval uint32
	n    uint8  // how many bytes of num are the value block's
	num  uint64 // the first 8 bytes of a numeric value block, big-endian
}

// blobMismatch in rawValue.n marks a string, aggregate or event value
// block of another type than the metric's (a pmapi.Mismatch).
const blobMismatch = 0xff

// setNum keeps the first bytes of a numeric value block b (after its
// header).
func (v *rawValue) setNum(b []byte) {
	if len(b) >= 8 {
		v.num, v.n = be.Uint64(b), 8
		return
	}
	v.num, v.n = 0, uint8(len(b))
	for i, x := range b {
		v.num |= uint64(x) << (56 - 8*i)
	}
}

// num32 is the first 4 bytes of a numeric value block.
func (v *rawValue) num32() uint32 { return uint32(v.num >> 32) }

// isBlob reports whether values of type t are kept whole as strings.
func isBlob(t pmapi.Type) bool {
	switch t {
	case pmapi.TypeString, pmapi.TypeAggregate, pmapi.TypeEvent, pmapi.TypeHighresEvent:
		return true
	}
	return false
}

// boundTimes are the times and states of a pair of bounds, and whether
// they are being searched for.
type boundTimes struct {
	tPrior, tNext float64 // times of the bounds; -1 if none
	sPrior, sNext int     // their states
	search        bool
}

// noBounds are the bounds before any search.
var noBounds = boundTimes{tPrior: -1, tNext: -1, sPrior: stUndefined, sNext: stUndefined}

// instCtl is the interpolation state of one instance of one metric.
type instCtl struct {
	inst     int32
	idx      int32 // its place in m.insts
	seen     bool  // for canBeUniform
	m        *metricCtl
	want     *instCtl // next in this fetch's list of wanted instances
	unbound  *instCtl // next in the list of those being searched for
	inResult bool
	wanted   bool // in the profile: on this fetch's want list

	boundTimes
	vPrior, vNext rawValue
	bPrior, bNext string // their string, aggregate or event value blocks

	tFirst, tLast  float64 // no values before (after) this; -1 if unknown
	tBirth, tDeath float64 // from the instance domain's history; -1 if unknown
}

// metricCtl is the interpolation state of one metric.
type metricCtl struct {
	desc       pmapi.Desc
	known      bool  // the archive describes the metric
	valfmt     int32 // value format seen in the archive, or -1
	numval     int   // values it will have in this result
	wanted     int   // instances on the want list
	built      int   // interpState.builds when last qualified
	err        pmapi.Errno
	lastNumval int        // values it had in the previous result, or -1
	insts      []*instCtl // in libpcp's hash table order
	uni        *uniform   // while the instances share their bounds
	spare      *uniform   // the storage uni had last, for reuse
	byInst     map[int32]*instCtl
	byPos      []*instCtl // instance by position in the last record seen
	fetchGen   int
}

// interpState is a context's interpolation state (libpcp keeps it in
// the context's archive control).
type interpState struct {
	metrics map[pmapi.PMID]*metricCtl
	list    []*metricCtl // the entries of metrics, in the order they were made
	want    *instCtl
	unbound *instCtl
	acEnd   float64 // end of the current archive, relative to the base
	// lastKnown counts the instances searched forwards for that have a
	// known last value (tLast), the only ones that can be given up.
	lastKnown int
	// wantIDs are the metrics the want list is for; empty when the next
	// fetch must make it again. wantMetrics are their entries in metrics
	// (nil for PMIDNull).
	wantIDs     []pmapi.PMID
	wantMetrics []*metricCtl
	builds      int // results built
	uniform     int // how many of metrics are uniform (see uniform.go)
	fast        int // fetches that took the fast path
	lifetime    map[pmapi.InDom]map[int32][2]float64
	gen         int
	// bySet is metrics' entry for each value set of the last record
	// looked up (see metricAt), while metrics had setsFor entries.
	bySet   []setMetric
	setsFor int
}

// setMetric is the metric of a value set, and its entry in metrics.
type setMetric struct {
	id pmapi.PMID
	m  *metricCtl
}

// metricAt is metrics[id], for the k-th value set of a record: remembered
// by position, as records mostly hold the sets of the record before
// them, until metrics grows (an entry is never removed).
func (st *interpState) metricAt(k int, id pmapi.PMID) *metricCtl {
	if st.setsFor != len(st.metrics) {
		st.bySet, st.setsFor = st.bySet[:0], len(st.metrics)
	}
	if k < len(st.bySet) && st.bySet[k].id == id {
		return st.bySet[k].m
	}
	m := st.metrics[id]
	switch {
	case k < len(st.bySet):
		st.bySet[k] = setMetric{id, m}
	case k == len(st.bySet):
		st.bySet = append(st.bySet, setMetric{id, m})
	}
	return m
}

func newInterpState() *interpState {
	return &interpState{metrics: make(map[pmapi.PMID]*metricCtl), lifetime: make(map[pmapi.InDom]map[int32][2]float64)}
}

// reset forgets the bounds that do not bracket tReq, as pmSetMode does
// (__pmLogResetInterp).
func (st *interpState) reset(tReq float64) {
	for _, m := range st.list {
		if m.uni != nil {
			m.uni.reset(tReq)
			continue
		}
		for _, ic := range m.insts {
			if ic.tPrior > tReq || ic.tNext < tReq {
				ic.tPrior, ic.tNext = -1, -1
				ic.sPrior, ic.sNext = stUndefined, stUndefined
				ic.vPrior, ic.vNext = rawValue{}, rawValue{}
				ic.bPrior, ic.bNext = "", ""
			}
		}
	}
}

// hashOrder returns insts in the order libpcp walks its hash table of
// them: a table of len(insts) buckets keyed by the instance number, each
// bucket holding the instances added last first.
func hashOrder(insts []int32) []int32 {
	n := len(insts)
	if n <= 1 {
		return insts
	}
	// Count each bucket's instances, then place them from each bucket's
	// end back, so that the ones added last come first.
	end := make([]int32, n)
	for _, in := range insts {
		end[uint32(in)%uint32(n)]++
	}
	sum := int32(0)
	for b, k := range end {
		sum += k
		end[b] = sum
	}
	out := make([]int32, n)
	for _, in := range insts {
		b := uint32(in) % uint32(n)
		end[b]--
		out[end[b]] = in
	}
	return out
}

// newMetricCtl sets up the state of a metric the first time it is asked
// for: one instCtl for each instance its domain ever has.
func (c *Context) newMetricCtl(id pmapi.PMID) *metricCtl {
	m := &metricCtl{valfmt: -1, lastNumval: -1}
	d, ok := c.meta.descs[id]
	m.desc, m.known = d, ok
	if !ok {
		m.byInst = make(map[int32]*instCtl)
		return m
	}
	var insts []int32
	if d.InDom == pmapi.InDomNull {
		insts = []int32{pmapi.InNull}
	} else if h := c.meta.indoms[d.InDom]; h != nil {
		insts = hashOrder(h.allInstances())
	}
	life := c.lifetimes(d.InDom)
	m.byInst = make(map[int32]*instCtl, len(insts))
	m.insts = make([]*instCtl, len(insts))
	ics := make([]instCtl, len(insts))
	for k, in := range insts {
		ic := &ics[k]
		*ic = instCtl{inst: in, idx: int32(k), m: m, boundTimes: noBounds,
			tFirst: -1, tLast: -1, tBirth: -1, tDeath: -1}
		if l, ok := life[in]; ok {
			ic.tBirth, ic.tDeath = l[0], l[1]
		}
		m.insts[k] = ic
		m.byInst[in] = ic
	}
	return m
}

// lifetimes is libpcp's time_caliper: for instance domains that ever
// have 16 or more instances, when each instance appears and vanishes.
func (c *Context) lifetimes(indom pmapi.InDom) map[int32][2]float64 {
	if indom == pmapi.InDomNull {
		return nil
	}
	st := c.interp
	if l, ok := st.lifetime[indom]; ok {
		return l
	}
	var l map[int32][2]float64
	if h := c.meta.indoms[indom]; h != nil && h.maxInstances() >= 16 {
		l = h.lifetimes(c.s.rel)
	}
	st.lifetime[indom] = l
	return l
}

// lookupInst finds the state of instance inst, the i-th value of a
// record's value set, falling back to the singular instance as libpcp
// does.
func (m *metricCtl) lookupInst(i int, inst int32) *instCtl {
	if i < len(m.byPos) {
		if ic := m.byPos[i]; ic != nil && ic.inst == inst {
			return ic
		}
	}
	ic := m.byInst[inst]
	if ic == nil {
		ic = m.byInst[pmapi.InNull]
		if ic == nil {
			return nil
		}
	}
	for len(m.byPos) <= i {
		m.byPos = append(m.byPos, nil)
	}
	m.byPos[i] = ic
	return ic
}

// fetchInterp is pmFetch in ModeInterp.
func (c *Context) fetchInterp(ids []pmapi.PMID, r *pmapi.Result) error {
	tReq := c.tOrigin()
	err := c.interpAt(tReq, ids, r)
	if err == nil || err == pmapi.ErrEOL {
		c.step()
	}
	return err
}

// interpAt builds the result at tReq.
func (c *Context) interpAt(tReq float64, ids []pmapi.PMID, r *pmapi.Result) error {
	st := c.interp
	if tReq < -0.001 {
		return pmapi.ErrEOL
	}
	if tReq > st.acEnd+0.001 {
		if end, err := c.archives[c.cur.a].End(); err == nil {
			st.acEnd = c.s.rel(end)
		}
		if tReq > st.acEnd && c.cur.a >= len(c.archives)-1 {
			return pmapi.ErrEOL
		}
	}
	same := c.wantList(ids)
	if same && c.fastSearch(tReq) {
		c.build(tReq, ids, r, false)
		return nil
	}
	st.ordinary()
	if !c.serial {
		if err := c.finePosition(tReq, ids); err != nil {
			st.wantIDs = st.wantIDs[:0]
			return err
		}
	}
	c.cur = c.saved
	seenMark := false
	if err := c.search(tReq, same, &seenMark); err != nil {
		// Instances may be left marked as searched for: the next
		// fetch builds its list afresh.
		st.wantIDs = st.wantIDs[:0]
		return err
	}
	c.build(tReq, ids, r, seenMark)
	if c.direction > 0 && !noFastPath {
		st.makeUniform()
	}
	return nil
}

// wantList sets up the metrics asked for and lists their instances. When
// ids are those of the last fetch, which ended without error, it keeps the
// list it made then and reports true: the instances on it are then still
// to be put back in the result (search does it).
func (c *Context) wantList(ids []pmapi.PMID) bool {
	st := c.interp
	if len(ids) > 0 && slices.Equal(ids, st.wantIDs) {
		for _, m := range st.wantMetrics {
			if m != nil {
				m.numval, m.err = m.wanted, 0
				if !m.known {
					m.err = pmapi.ErrPMIDLog
				}
			}
		}
		return true
	}
	st.gen++
	st.want = nil
	st.wantMetrics = st.wantMetrics[:0]
	for _, id := range ids {
		if id == pmapi.PMIDNull {
			st.wantMetrics = append(st.wantMetrics, nil)
			continue
		}
		m := st.metrics[id]
		if m == nil {
			m = c.newMetricCtl(id)
			st.metrics[id] = m
			st.list = append(st.list, m)
		}
		st.wantMetrics = append(st.wantMetrics, m)
		if m.fetchGen == st.gen {
			continue // asked for twice: its instances are listed already
		}
		m.fetchGen = st.gen
		m.numval, m.err = 0, 0
		if !m.known {
			m.err = pmapi.ErrPMIDLog
			continue
		}
		in, uniform := true, true
		if m.desc.InDom != pmapi.InDomNull {
			in, uniform = c.prof.Uniform(m.desc.InDom)
		}
		for _, ic := range m.insts {
			ic.search = false
			ic.inResult = in
			if !uniform {
				ic.inResult = c.prof.Contains(m.desc.InDom, ic.inst)
			}
			ic.wanted = ic.inResult
			if !ic.inResult {
				continue
			}
			ic.want = st.want
			st.want = ic
			m.numval++
		}
		m.wanted = m.numval
	}
	st.wantIDs = append(st.wantIDs[:0], ids...)
	return false
}

// finePosition positions reading from the temporal index, then reads
// back (against the direction of stepping) to just before the requested
// time, taking the values it passes as bounds.
func (c *Context) finePosition(tReq float64, ids []pmapi.PMID) error {
	if _, err := c.setTime(); err == nil {
		c.saved = c.cur
	}
	forward := c.direction > 0
	for {
		rc, err := c.cacheRead(!forward)
		if err != nil {
			break
		}
		if (forward && rc.t <= tReq) || (!forward && rc.t > tReq) {
			break
		}
		c.saved = c.cur
		if err := c.updateBounds(tReq, &rc, markNone, nil, nil); err != nil {
			return err
		}
	}
	c.serial = true
	for _, id := range ids {
		if m := c.interp.metrics[id]; m != nil {
			m.lastNumval = -1
		}
	}
	return nil
}

// roll reads on in the direction of stepping up to the requested time.
func (c *Context) roll(tReq float64, seenMark *bool) error {
	forward := c.direction > 0
	mark := markBack
	if forward {
		mark = markForw
	}
	for {
		rc, err := c.cacheRead(forward)
		if err != nil {
			if pmapi.Code(err) == pmapi.ErrLogRec {
				return err
			}
			return nil
		}
		if (forward && rc.t > tReq) || (!forward && rc.t < tReq) {
			return nil
		}
		c.saved = c.cur
		if err := c.updateBounds(tReq, &rc, mark, nil, seenMark); err != nil {
			return err
		}
	}
}

// search brings the bounds of the instances on the want list up to date
// for tReq, putting them back in the result first if reset is set. Most
// fetches, stepping forwards, only need next bounds: quickSearch finds
// those in one pass over the list, and only when it finds an instance
// needing more does the search take libpcp's steps: back, then forwards.
func (c *Context) search(tReq float64, reset bool, seenMark *bool) error {
	if c.direction > 0 {
		if forw, ok := c.quickSearch(tReq, reset); ok {
			return c.scanForw(tReq, forw, seenMark)
		}
	}
	if reset {
		for ic := c.interp.want; ic != nil; ic = ic.want {
			ic.inResult = true
		}
	}
	doneRoll := false
	if err := c.searchBack(tReq, &doneRoll, seenMark); err != nil {
		return err
	}
	return c.searchForw(tReq, &doneRoll, seenMark)
}

// quickSearch does searchBack's and searchForw's passes over the want list
// in one, stepping forwards, as long as searchBack would do nothing (read
// on, or search back, for no instance): it lists the instances to search
// forwards for and reports how many. If searchBack would do something, it
// leaves the state as it found it (but for putting instances back in the
// result) and reports false.
func (c *Context) quickSearch(tReq float64, reset bool) (int, bool) {
	st := c.interp
	st.unbound = nil
	st.lastKnown = 0
	forw := 0
	for ic := st.want; ic != nil; ic = ic.want {
		if reset {
			ic.inResult = true
		}
		if !ic.noPrior(tReq) && (ic.lacksPrior(tReq) || ic.wantsPrior(tReq, c.direction)) {
			for u := st.unbound; u != nil; u = u.unbound {
				u.search = false
			}
			st.unbound = nil
			return 0, false
		}
		if !ic.noNext(tReq) && ic.wantsNext(tReq, c.direction) {
			forw++
			st.enlistForw(ic)
		}
	}
	return forw, true
}

// searchBack finds prior bounds for the instances that lack one.
func (c *Context) searchBack(tReq float64, doneRoll, seenMark *bool) error {
	st := c.interp
	st.unbound = nil
	back := 0
	for ic := st.want; ic != nil; ic = ic.want {
		if ic.noPrior(tReq) {
			continue
		}
		if ic.lacksPrior(tReq) && back == 0 && !*doneRoll {
			*doneRoll = true
			if c.direction > 0 {
				if err := c.roll(tReq, seenMark); err != nil {
					return err
				}
			}
		}
		if ic.wantsPrior(tReq, c.direction) {
			back++
			// Keep the list in descending order of tFirst.
			st.enlist(ic, func(u *instCtl) bool { return ic.tFirst < u.tFirst })
		}
	}
	if back == 0 {
		return nil
	}
	all, err := c.scan(tReq, false, back, seenMark)
	if err != nil || all {
		// Each instance found has its prior bound and is no longer
		// searched for: nothing is left to note.
		return err
	}
	for u := st.unbound; u != nil; u = u.unbound {
		if (u.sPrior&stUndefined != 0 || u.tPrior > tReq) && u.tFirst < tReq {
			u.tFirst = tReq
			u.sPrior |= stScanned
		}
		u.search = false
	}
	return nil
}

// searchForw finds next bounds for the instances that lack one.
func (c *Context) searchForw(tReq float64, doneRoll, seenMark *bool) error {
	st := c.interp
	st.unbound = nil
	st.lastKnown = 0
	forw := 0
	for ic := st.want; ic != nil; ic = ic.want {
		if ic.noNext(tReq) {
			continue
		}
		if ic.lacksNext(tReq) && forw == 0 && !*doneRoll {
			*doneRoll = true
			if c.direction < 0 {
				if err := c.roll(tReq, seenMark); err != nil {
					return err
				}
			}
		}
		if ic.wantsNext(tReq, c.direction) {
			forw++
			st.enlistForw(ic)
		}
	}
	return c.scanForw(tReq, forw, seenMark)
}

// scanForw reads forwards for next bounds of the forw instances on the
// search list, noting those it does not find.
func (c *Context) scanForw(tReq float64, forw int, seenMark *bool) error {
	st := c.interp
	if forw == 0 {
		return nil
	}
	all, err := c.scan(tReq, true, forw, seenMark)
	if err != nil || all {
		// Each instance found has its next bound and is no longer
		// searched for: nothing is left to note.
		return err
	}
	for u := st.unbound; u != nil; u = u.unbound {
		if u.tNext < tReq && (u.tLast < 0 || tReq < u.tLast) {
			u.tLast = tReq
			u.sNext |= stScanned
		}
		u.search = false
	}
	return nil
}

// enlistForw puts ic on the list of those searched forwards for, in
// ascending order of tLast.
func (st *interpState) enlistForw(ic *instCtl) {
	if ic.tLast >= 0 {
		st.lastKnown++
	}
	st.enlist(ic, func(u *instCtl) bool { return ic.tLast > u.tLast })
}

// noPrior reports whether ic is known to have no value at or before tReq
// (searching back for one is pointless).
func (ic *instCtl) noPrior(tReq float64) bool {
	return (ic.tFirst >= 0 && tReq < ic.tFirst) || (ic.tBirth >= 0 && tReq < ic.tBirth) || (ic.tDeath >= 0 && tReq > ic.tDeath)
}

// noNext reports whether ic is known to have no value at or after tReq.
func (ic *instCtl) noNext(tReq float64) bool {
	return (ic.tLast >= 0 && tReq > ic.tLast) || (ic.tBirth >= 0 && tReq < ic.tBirth) || (ic.tDeath >= 0 && tReq > ic.tDeath)
}

// lacksPrior reports whether ic has no prior bound for tReq (reading on
// up to tReq may give it one).
func (ic *boundTimes) lacksPrior(tReq float64) bool { return ic.tPrior < 0 || ic.tPrior > tReq }

// lacksNext reports whether ic has no next bound for tReq.
func (ic *boundTimes) lacksNext(tReq float64) bool { return ic.tNext < 0 || ic.tNext < tReq }

// wantsPrior reports whether ic is to be searched back for, stepping in
// direction.
func (ic *boundTimes) wantsPrior(tReq float64, direction int) bool {
	return (ic.sPrior&stUndefined != 0 && ic.sPrior&stScanned == 0) ||
		(ic.tPrior > tReq && (direction < 0 || ic.sPrior&stScanned == 0)) ||
		(ic.sNext&stMark != 0 && ic.tPrior == tReq)
}

// wantsNext reports whether ic is to be searched forwards for.
func (ic *boundTimes) wantsNext(tReq float64, direction int) bool {
	return (ic.sNext&stUndefined != 0 && ic.sNext&stScanned == 0) ||
		(ic.tNext < tReq && (direction > 0 || ic.sNext&stScanned == 0)) ||
		(ic.sPrior&stMark != 0 && ic.tNext == tReq)
}

// enlist marks ic as searched for and puts it on the search list after
// the instances u for which after(u) holds.
func (st *interpState) enlist(ic *instCtl, after func(u *instCtl) bool) {
	ic.search = true
	var prev *instCtl
	u := st.unbound
	for ; u != nil && after(u); u = u.unbound {
		prev = u
	}
	ic.unbound = u
	if prev == nil {
		st.unbound = ic
	} else {
		prev.unbound = ic
	}
}

// scan reads from the saved position forwards or backwards until the n
// instances searched for are bounded or the archive ends. It reports
// whether all n were bounded.
func (c *Context) scan(tReq float64, forward bool, n int, seenMark *bool) (bool, error) {
	mark := markBack
	if forward {
		mark = markForw
	}
	c.cur = c.saved
	done := 0
	for done < n {
		rc, err := c.cacheRead(forward)
		if err != nil {
			if pmapi.Code(err) == pmapi.ErrLogRec {
				return false, err
			}
			return false, nil
		}
		if (forward && c.direction > 0 && rc.t <= tReq) || (!forward && c.direction < 0 && rc.t >= tReq) {
			c.saved = c.cur
		}
		if err := c.updateBounds(tReq, &rc, mark, &done, seenMark); err != nil {
			return false, err
		}
		done += c.interp.giveUp(rc.t, forward)
	}
	return true, nil
}

// giveUp takes off the search list, and counts, the instances known to
// have no values beyond tThis, the time of the record just read, in the
// direction of the search.
func (st *interpState) giveUp(tThis float64, forward bool) int {
	if forward && st.lastKnown == 0 {
		// Searching forwards, only instances whose last value is known
		// are given up.
		return 0
	}
	n := 0
	var prev *instCtl
	for u := st.unbound; u != nil; u = u.unbound {
		if (!forward && u.tFirst < tThis) || (forward && u.tLast > tThis) {
			break
		}
		if u.search && (!forward || u.tLast >= 0) {
			u.search = false
			if forward {
				u.sNext |= stScanned
			} else {
				u.sPrior |= stScanned
			}
			n++
			if prev == nil {
				st.unbound = u.unbound
			} else {
				prev.unbound = u.unbound
			}
		} else {
			prev = u
		}
	}
	return n
}
