package eval

import (
	"math"
	"slices"

	"github.com/gopcp/pmie/pmapi"
)

// counterWrap, when set, corrects negative counter differences for a wrap
// of the counter's width (pmie's PCP_COUNTER_WRAP).
var counterWrap = false

// SetCounterWrap turns counter wrap correction on or off.
func SetCounterWrap(on bool) { counterWrap = on }

// missingBits is the NaN that stands for a value missing because its host
// is down, so that comparisons with it are unknown rather than false. It
// arises only live, for sets over several hosts, where pmie would make
// every host's values unknown.
const missingBits = 0x7ff8_0000_dead_beef

// missing is the value of a host that is down.
var missing = math.Float64frombits(missingBits)

// isMissing reports whether v is (derived from) a missing value; the sign
// does not matter, and arithmetic keeps the NaN's payload.
func isMissing(v float64) bool {
	return math.Float64bits(v)&^(1<<63) == missingBits
}

// partial reports whether x is a fetch over several hosts of which some,
// but not all, are down: the down hosts' values are then missing, instead
// of the whole set being unknown as in pmie.
func (x *Node) partial() bool {
	if len(x.metrics.m) < 2 {
		return false
	}
	up, down := false, false
	for _, m := range x.metrics.m {
		if m.down {
			down = true
		} else {
			up = true
		}
	}
	return up && down
}

// fillMissing marks n values from position pos of the newest sample of x
// as missing, returning the next position.
func (x *Node) fillMissing(m *Metric, pos, n int) int {
	m.stomp = 0
	m.vset = nil
	if x.store != storeNum {
		return pos + n
	}
	out := x.nums(0)
	for j := 0; j < n; j++ {
		if pos < len(out) {
			out[pos] = missing
		}
		pos++
	}
	return pos
}

// wantsRate reports whether a fetch node's counter values are converted to
// rates: always, unless some ancestor is the instant operator.
func (x *Node) wantsRate() bool {
	if len(x.metrics.m) == 0 || x.metrics.m[0].Desc.Sem != pmapi.SemCounter {
		return false
	}
	for p := x.Parent; p != nil; p = p.Parent {
		if p.Op == OpInstant {
			return false
		}
	}
	return true
}

// rateOf converts m's raw counter values in out (one per instance, in
// order) to rates over the interval since the previous fetch, remembering
// the raw values. It reports whether the rates are valid.
func (m *Metric) rateOf(out []float64) bool {
	ok := true
	dt := m.stamp - m.stomp
	for j := range out {
		if j >= len(m.vals) {
			break
		}
		if !m.rateAt(out, j, dt) {
			ok = false
		}
	}
	return m.ratesDone(ok)
}

// rateAt replaces out[j], the raw value of instance j of counter m, by
// its rate over dt, unless that is negative (when it reports false); the
// raw value replaces m's previous one.
func (m *Metric) rateAt(out []float64, j int, dt float64) bool {
	raw := out[j]
	d := raw - m.vals[j]
	if d < 0 && counterWrap {
		d += m.wrapSpan()
	}
	d /= dt
	m.vals[j] = raw
	if d < 0 {
		return false
	}
	out[j] = d
	return true
}

// ratesDone ends a conversion of m's values to rates, which is valid if
// ok and m had previous values: the values converted become the previous
// ones.
func (m *Metric) ratesDone(ok bool) bool {
	if m.stomp == 0 {
		ok = false
	}
	m.stomp = m.stamp
	return ok
}

// wrapSpan is how far m's values go before they wrap.
func (m *Metric) wrapSpan() float64 {
	switch m.Desc.Type {
	case pmapi.Type32, pmapi.TypeU32:
		return 4294967296.0
	case pmapi.Type64, pmapi.TypeU64:
		return 18446744073709551616.0
	}
	return 0
}

// extract stores value v of m at position i of the newest sample of x.
func (x *Node) extract(m *Metric, v *pmapi.Value, i int) {
	if x.store == storeStr {
		if i < len(x.str) {
			// pmie reads a string value up to its first NUL (a value
			// block of another type holds other bytes after it)
			x.strs(0)[i] = pmapi.CString(v.Atom.Str())
		}
		return
	}
	out := x.nums(0)
	if i < len(out) {
		out[i] = m.conv * atomNum(v.Atom)
	}
}

// extractRun stores the values of m's first n instances from position
// pos of the newest sample of x, returning the position after them.
func (x *Node) extractRun(m *Metric, n, pos int) int {
	if x.store != storeNum {
		vals := m.vset.Values[:n]
		for j := range vals {
			x.extract(m, &vals[j], pos+j)
		}
		return pos + n
	}
	out := x.nums(0)
	if pos >= len(out) {
		return pos + n
	}
	dst := out[pos:]
	if n < len(dst) {
		dst = dst[:n]
	}
	nums, conv := m.col.Nums[:len(dst)], m.conv
	for j := range dst {
		dst[j] = conv * nums[j]
	}
	return pos + n
}

// extractRates is extractRun then doneWith, for a counter's values
// converted to rates, in one pass: the values of m's first n instances
// are stored from position pos (which must be within the newest sample
// of x, a numeric one) as rates over the interval since m's previous
// values. It returns the position after them.
func (x *Node) extractRates(m *Metric, n, pos int) int {
	out := x.nums(0)[pos:]
	if n < len(out) {
		out = out[:n]
	}
	nums := m.col.Nums[:len(out)]
	ok := true
	dt := m.stamp - m.stomp
	conv := m.conv
	if len(m.vals) >= len(out) && !counterWrap {
		// rateAt for each value, in registers
		prev := m.vals[:len(out)]
		for j := range out {
			raw := conv * nums[j]
			d := (raw - prev[j]) / dt
			prev[j] = raw
			if d < 0 {
				ok = false
				d = raw
			}
			out[j] = d
		}
	} else {
		for j := range out {
			out[j] = conv * nums[j]
			if j < len(m.vals) && !m.rateAt(out, j, dt) {
				ok = false
			}
		}
	}
	m.vset = nil
	if !m.ratesDone(ok) {
		x.valid = 0
	}
	return pos + n
}

// fetchSingle evaluates a fetch of a metric without instances (or one whose
// metadata is still unknown): one value per host.
func fetchSingle(x *Node) {
	x.rotate()
	x.valid++
	dorate := x.wantsRate()
	partial := x.partial()
	var stamp float64
	pos := 0
	for i, m := range x.metrics.m {
		if partial && m.down {
			pos = x.fillMissing(m, pos, 1)
			continue
		}
		if m.vset == nil || len(m.vset.Values) != 1 {
			x.valid = 0
			for _, m := range x.metrics.m[i:] {
				m.stomp = 0
				m.vset = nil
			}
			return
		}
		x.extract(m, &m.vset.Values[0], pos)
		m.vset = nil
		if dorate && x.store == storeNum && m.nidom > 0 && pos < x.tspan {
			if !m.rateOf(x.nums(0)[pos : pos+1]) {
				x.valid = 0
			}
		} else if dorate {
			if m.stomp == 0 {
				x.valid = 0
			}
			m.stomp = m.stamp
		}
		pos++
		if m.stamp > stamp {
			stamp = m.stamp
		}
	}
	x.stamp[0] = stamp
}

// fetchAll evaluates a fetch of every instance of a metric, following
// changes in the set of instances.
func fetchAll(x *Node) {
	x.rotate()
	partial := x.partial()
	changed := false
	for _, m := range x.metrics.m {
		if partial && m.down {
			continue
		}
		if m.indomChanged() {
			changed = true
			m.stomp = 0
		}
	}
	if changed {
		x.reshapeFetch()
	}
	x.valid++
	dorate := x.wantsRate()
	var stamp float64
	pos := 0
	for _, m := range x.metrics.m {
		if partial && m.down {
			pos = x.fillMissing(m, pos, max(m.nidom, 0))
			continue
		}
		start := pos
		if m.vset != nil && m.nidom > 0 {
			if dorate && x.store == storeNum && pos < x.tspan {
				pos = x.extractRates(m, m.nidom, pos)
				stamp = max(stamp, m.stamp)
				continue
			}
			pos = x.extractRun(m, m.nidom, pos)
		}
		stamp = x.doneWith(m, dorate, start, pos, stamp)
	}
	x.stamp[0] = stamp
}

// fetchSome evaluates a fetch of the instances named in the rule.
func fetchSome(x *Node) {
	x.rotate()
	x.valid++
	dorate := x.wantsRate()
	partial := x.partial()
	var stamp float64
	pos := 0
	for i, m := range x.metrics.m {
		if partial && m.down {
			pos = x.fillMissing(m, pos, max(m.nidom, 0))
			continue
		}
		if m.vset == nil {
			x.valid = 0
			for _, m := range x.metrics.m[i:] {
				m.stomp = 0
				m.vset = nil
			}
			return
		}
		start := pos
		for j := 0; j < m.nidom; j++ {
			k := slices.Index(m.col.Insts, m.iids[j])
			if k < 0 {
				x.valid = 0
				m.stomp = 0
				m.vset = nil
				return
			}
			x.extract(m, &m.vset.Values[k], pos)
			pos++
		}
		stamp = x.doneWith(m, dorate, start, pos, stamp)
	}
	x.stamp[0] = stamp
}

// doneWith finishes host m's values, at positions start to pos of the
// newest sample: its delivered values are consumed and counters converted
// to rates. It returns the newer of stamp and m's timestamp.
func (x *Node) doneWith(m *Metric, dorate bool, start, pos int, stamp float64) float64 {
	m.vset = nil
	if dorate && x.store == storeNum {
		end := min(pos, x.tspan)
		if start <= end && !m.rateOf(x.nums(0)[start:end]) {
			x.valid = 0
		}
	}
	return max(stamp, m.stamp)
}

// indomChanged compares the instances just delivered with those m had,
// and if they differ adopts the new set: names carry over for instances
// seen before, counters keep their previous raw values, and new instances
// have their names looked up. It reports whether the set changed.
func (m *Metric) indomChanged() bool {
	var got []int32
	ver := uint64(0)
	if m.vset != nil {
		got, ver = m.col.Insts, m.col.Ver
		if ver != 0 && ver == m.instVer {
			return false
		}
	}
	m.instVer = ver
	if len(got) == m.nidom {
		if slices.Equal(m.iids[:len(got)], got) {
			return false
		}
	} else if len(got) == 0 && m.nidom <= 0 {
		return false
	}

	counter := m.Desc.Sem == pmapi.SemCounter
	n := len(got)
	names := make([]string, n)
	ids := make([]int32, n)
	known := make([]bool, n)
	if counter && n > m.nidom {
		for len(m.vals) < n {
			m.vals = append(m.vals, 0)
		}
		for j := max(m.nidom, 0); j < n; j++ {
			m.vals[j] = 0
		}
	}
	for nw := range got {
		ids[nw] = got[nw]
		for old := 0; old < m.nidom; old++ {
			if m.iids[old] != got[nw] {
				continue
			}
			names[nw] = m.inames[old]
			known[nw] = true
			if counter && nw != old {
				m.vals[nw], m.vals[old] = m.vals[old], m.vals[nw]
			}
			break
		}
	}
	for nw := range names {
		if known[nw] {
			continue
		}
		name, err := "", error(nil)
		if m.names != nil {
			name, err = m.names(m.Desc.InDom, ids[nw])
		} else {
			err = pmapi.ErrInst
		}
		if err != nil {
			name = unknownInstName(ids[nw])
		}
		names[nw] = name
		if counter && nw < len(m.vals) {
			m.vals[nw] = 0
		}
	}
	m.inames, m.iids, m.nidom = names, ids, n
	return true
}

// reshapeFetch adopts the semantics, units and instance count of a fetch
// node's metrics, and carries any change up the tree.
func (x *Node) reshapeFetch() {
	up := false
	if x.sem == SemUnknown {
		for _, m := range x.metrics.m {
			if m.Desc.Sem == 0 {
				continue
			}
			if m.Desc.Sem == pmapi.SemCounter {
				x.sem = SemInstant
				x.units = Units{Units: canon(m.Desc.Units), Known: true}
				x.units.DimTime--
			} else {
				x.sem = Sem(m.Desc.Sem)
				x.units = Units{Units: canon(m.Desc.Units), Known: true}
			}
			up = true
			break
		}
	}
	ninst := -1
	for _, m := range x.metrics.m {
		if m.nidom >= 0 {
			if ninst == -1 {
				ninst = m.nidom
			} else {
				ninst += m.nidom
			}
		}
	}
	if x.idom != ninst {
		x.idom = ninst
		x.tspan = spanOf(x.idom, x.hdom)
		x.nvals = x.nsmpls * x.tspan
		x.valid = 0
		x.alloc()
		up = true
	}
	x.eachParent(func(p *Node) {
		if up || (!p.units.Known && x.units.Known) {
			p.reshape()
		}
	})
}

// reshape adopts the semantics, units and instance domain of x's primary
// operand after they changed, and carries the change up the tree.
func (x *Node) reshape() {
	up := false
	a1, a2 := x.Arg1, x.Arg2
	arg := primary(a1, a2)
	if x.sem == SemUnknown {
		switch {
		case a2 == nil:
			if a1.sem != SemUnknown {
				up = true
				x.sem = a1.sem
			}
		case a1.sem != SemUnknown && a2.sem != SemUnknown:
			up = true
			x.sem = arg.sem
		default:
			return
		}
	}
	if !x.units.Known {
		if a2 == nil {
			if a1.units.Known {
				up = true
				x.units = a1.units
			}
			if x.Op == OpInstant && len(x.metrics.m) > 0 && x.metrics.m[0].Desc.Sem == pmapi.SemCounter {
				up = true
				x.units.DimTime++
			}
			if x.Op == OpRate {
				up = true
				x.units.DimTime--
			}
		} else if a1.units.Known && a2.units.Known {
			up = true
			x.units = arg.units
			switch x.Op {
			case OpMul:
				x.units.DimSpace = a1.units.DimSpace + a2.units.DimSpace
				x.units.DimTime = a1.units.DimTime + a2.units.DimTime
				x.units.DimCount = a1.units.DimCount + a2.units.DimCount
			case OpDiv:
				x.units.DimSpace = a1.units.DimSpace - a2.units.DimSpace
				x.units.DimTime = a1.units.DimTime - a2.units.DimTime
				x.units.DimCount = a1.units.DimCount - a2.units.DimCount
			}
		}
	}
	if x.idom != -1 && x.idom != arg.idom {
		up = true
		x.idom = arg.idom
		x.tspan = spanOf(x.idom, x.hdom)
		x.nvals = x.tspan * x.nsmpls
		x.valid = 0
		x.alloc()
	}
	if up {
		x.eachParent((*Node).reshape)
	}
}
