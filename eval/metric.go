package eval

import (
	"math"
	"strconv"

	"github.com/gopcp/pmie/pmapi"
)

// Metric is one metric on one host, as one fetch node reads it: its
// metadata, the instances it covers, the values delivered by the latest
// fetch and the previous raw values of a counter for rate conversion.
type Metric struct {
	Name string // metric name as written in the rule
	Host string // host name the source reports ("" until known)
	Conn string // connection: pmcd host spec or archive name

	Desc pmapi.Desc
	conv float64 // scale to canonical units; 0 until initialised

	specinst int      // number of instances named in the rule, 0 for all
	nidom    int      // instances currently available (pmie's m_idom)
	inames   []string // instance names (as named in the rule when specinst > 0)
	iids     []int32  // instance identifiers

	stamp   float64         // timestamp of the values in vset
	vset    *pmapi.ValueSet // values delivered by the latest fetch, sorted by instance
	col     *Columns        // vset's instances and numbers
	own     Columns         // col's storage when the deliverer gave none
	instVer uint64          // Columns.Ver of the instances in iids, or 0
	stomp   float64         // timestamp of the previous values of a counter
	vals    []float64       // previous raw values of a counter, per instance
	node    *Node           // the fetch node reading this metric
	names   func(pmapi.InDom, int32) (string, error)

	// state of initialisation: see Initialised and Waiting.
	state metricState
	down  bool // its host is not answering (live)
}

// SetDown records whether m's host is answering. Live, a set over several
// hosts keeps the values of the hosts that answer when others do not.
func (m *Metric) SetDown(down bool) { m.down = down }

type metricState uint8

const (
	metricWaiting metricState = iota // metadata not (yet) available
	metricReady                      // initialised and fetched
	metricDud                        // failed for good
)

// Ready reports whether m's metadata is known and it can be fetched.
func (m *Metric) Ready() bool { return m.state == metricReady }

// Waiting reports whether m is waiting for its metadata (host down,
// metric or instance not yet available).
func (m *Metric) Waiting() bool { return m.state == metricWaiting }

// Dud reports whether m failed for good (wrong type, no such instances).
func (m *Metric) Dud() bool { return m.state == metricDud }

// Deliver hands m the values of its metric from the latest fetch, with the
// fetch's timestamp in seconds. vs must be sorted by instance number and
// must stay unchanged until the next evaluation, as must col, vs's
// instances and numbers (Columns.Fill), if given: evaluation reads those,
// and m makes its own when col is nil. As in pmie, a value set without
// values leaves m as it was.
func (m *Metric) Deliver(vs *pmapi.ValueSet, col *Columns, stamp float64) {
	if vs == nil || vs.Err != nil || len(vs.Values) == 0 {
		return
	}
	if col == nil || len(col.Insts) != len(vs.Values) {
		m.own.Fill(vs)
		col = &m.own
	}
	m.vset, m.col = vs, col
	m.stamp = stamp
}

// Columns is a value set's instances and its values as numbers
// (pmapi.Atom.Float64), in the set's order: what evaluation reads of a
// numeric metric, 12 bytes a value rather than the 40 of a pmapi.Value.
// An archive's fetcher makes them beside the fetch, on its own
// processor, so that the evaluation reads a third of the memory that
// the fetcher last wrote.
type Columns struct {
	Insts []int32
	Nums  []float64

	// Ver, if not 0, names Insts: columns of equal Ver have equal
	// instances, so that a metric given the instances it had last time
	// need not compare them (Metric.indomChanged). The deliverer sets it;
	// Fill clears it.
	Ver uint64
}

// Fill makes c the columns of vs, reusing c's storage. It writes only
// the instances that changed: an archive's fetcher fills columns that the
// evaluation has read on the other processor, and a store to such a line
// must first take it back from that processor's cache, where reading it
// to compare does not, and instances seldom change (measured on the
// benchmark, 31 interleaved runs: 4% less CPU and wall time). Numbers
// mostly change: comparing them first cost more than it saved (1-3% of
// the CPU time, four runs of 31-61).
func (c *Columns) Fill(vs *pmapi.ValueSet) {
	n := len(vs.Values)
	if cap(c.Insts) < n {
		c.Insts, c.Nums = make([]int32, n), make([]float64, n)
	}
	insts, nums := c.Insts[:n], c.Nums[:n]
	c.Insts, c.Nums, c.Ver = insts, nums, 0
	for j := range vs.Values {
		v := &vs.Values[j]
		if insts[j] != v.Inst {
			insts[j] = v.Inst
		}
		nums[j] = atomNum(v.Atom)
	}
}

// FillNums makes c's numbers those of vs, whose instances c holds
// already (Fill made them, of a value set with the same instances in the
// same order), leaving them and Ver as they are.
func (c *Columns) FillNums(vs *pmapi.ValueSet) {
	nums := c.Nums[:len(vs.Values)]
	for j := range nums {
		nums[j] = atomNum(vs.Values[j].Atom)
	}
}

// atomNum is the number pmie takes a value as: a value stored otherwise
// than its metric's descriptor says (a pmapi.Mismatch: the metric's type
// changed while pmie ran, or an archive stored it so) is 0, as pmie
// ignores pmExtractValue's refusal and takes the zero it leaves.
func atomNum(a pmapi.Atom) float64 {
	if a.Type == pmapi.TypeUnknown {
		return 0
	}
	return a.Float64()
}

// Drop forgets any values delivered to m that have not been evaluated.
func (m *Metric) Drop() { m.vset, m.col = nil, nil }

// Named reports whether the rule names m's instances and, if it does, the
// identifiers of those found: what pmie adds to its fetches' instance
// profile for m (pmAddProfile). A metric whose instances are not named
// asks for them all.
func (m *Metric) Named() (ids []int32, named bool) {
	if m.specinst == 0 {
		return nil, false
	}
	return m.iids[:max(m.nidom, 0)], true
}

// Instances is the number of instances m currently covers, -1 if unknown.
func (m *Metric) Instances() int { return m.nidom }

// canon is u with canonical scales: bytes, seconds and counts.
func canon(u pmapi.Units) pmapi.Units {
	u.ScaleSpace = pmapi.SpaceByte
	u.ScaleTime = pmapi.TimeSec
	u.ScaleCount = 0
	return u
}

// scale is the factor that converts values in units u to canonical units.
func scale(u pmapi.Units) float64 {
	f := math.Pow(1024, float64(int(u.DimSpace)*(int(u.ScaleSpace)-pmapi.SpaceByte)))
	if u.ScaleTime > pmapi.TimeSec {
		f *= math.Pow(60, float64(int(u.DimTime)*(int(u.ScaleTime)-pmapi.TimeSec)))
	} else {
		f *= math.Pow(1000, float64(int(u.DimTime)*(int(u.ScaleTime)-pmapi.TimeSec)))
	}
	f *= math.Pow(10, float64(int(u.DimCount)*int(u.ScaleCount)))
	return f
}

// sameInstance reports whether the instance named in a rule matches an
// instance domain name: exactly, or up to the first space of either (so a
// PID alone matches "000001 /usr/lib/systemd/systemd").
func sameInstance(mine, theirs string) bool {
	if mine == theirs {
		return true
	}
	ml := indexSpace(mine)
	tl := indexSpace(theirs)
	if ml < 0 && tl < 0 {
		return false
	}
	if tl < 0 {
		tl = len(theirs)
	}
	if ml < 0 {
		ml = len(mine)
	}
	return ml == tl && mine[:ml] == theirs[:tl]
}

func indexSpace(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			return i
		}
	}
	return -1
}

// unknownInstName is pmie's stand-in for an instance whose name cannot be
// found.
func unknownInstName(id int32) string {
	return "inst#" + strconv.Itoa(int(id)) + "?"
}
