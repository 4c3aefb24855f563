package synth

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// Domain is the PMDA domain number of the PMIDs and instance domains an
// Archive assigns.
const Domain = 245

// Archive is one host's synthetic metrics and their samples.
type Archive struct {
	host    string
	tz      string
	start   pmapi.Time
	step    time.Duration
	metrics []*Metric
	byName  map[string]*Metric
	byID    map[pmapi.PMID]*Metric
	byInDom map[pmapi.InDom]*Metric
}

// Metric is one metric of an Archive: its descriptor, its instances and
// their series of values.
type Metric struct {
	Name   string
	Desc   pmapi.Desc
	insts  []pmapi.Instance
	series [][]float64 // one per instance, in insts order; NaN: no value
}

// New makes an empty archive for host, whose samples are taken every step
// from start. tz is the host's time zone, in $TZ form.
func New(host, tz string, start pmapi.Time, step time.Duration) (*Archive, error) {
	if step <= 0 {
		return nil, fmt.Errorf("sample interval %v is not positive", step)
	}
	return &Archive{host: host, tz: tz, start: start, step: step,
		byName: map[string]*Metric{}, byID: map[pmapi.PMID]*Metric{}, byInDom: map[pmapi.InDom]*Metric{}}, nil
}

// Host is the archive's host name.
func (a *Archive) Host() string { return a.host }

// Start is the time of the first sample.
func (a *Archive) Start() pmapi.Time { return a.start }

// Step is the time between samples.
func (a *Archive) Step() time.Duration { return a.step }

// Metrics lists the metrics in the order they were added.
func (a *Archive) Metrics() []*Metric { return a.metrics }

// Metric finds a metric by name.
func (a *Archive) Metric(name string) *Metric { return a.byName[name] }

// AddMetric adds a metric. Its PMID is the next free one; singular says
// whether its values have no instances (otherwise it gets an instance
// domain of its own, filled by AddSeries).
func (a *Archive) AddMetric(name string, typ pmapi.Type, sem pmapi.Sem, units pmapi.Units, singular bool) (*Metric, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	if a.byName[name] != nil {
		return nil, fmt.Errorf("metric %s is already defined", name)
	}
	switch typ {
	case pmapi.Type32, pmapi.TypeU32, pmapi.Type64, pmapi.TypeU64, pmapi.TypeFloat, pmapi.TypeDouble:
	default:
		return nil, fmt.Errorf("metric %s: type %v is not numeric", name, typ)
	}
	switch sem {
	case pmapi.SemCounter, pmapi.SemInstant, pmapi.SemDiscrete:
	default:
		return nil, fmt.Errorf("metric %s: semantics %d unknown", name, sem)
	}
	n := uint32(len(a.metrics))
	if n >= 1<<10 {
		return nil, fmt.Errorf("metric %s: too many metrics (at most %d)", name, 1<<10)
	}
	d := pmapi.Desc{PMID: pmapi.NewPMID(Domain, 0, n), Type: typ, Sem: sem, Units: units, InDom: pmapi.InDomNull}
	m := &Metric{Name: name, Desc: d}
	if singular {
		m.insts = []pmapi.Instance{{ID: pmapi.InNull}}
		m.series = [][]float64{nil}
	} else {
		m.Desc.InDom = pmapi.NewInDom(Domain, n+1)
		a.byInDom[m.Desc.InDom] = m
	}
	a.metrics = append(a.metrics, m)
	a.byName[name] = m
	a.byID[d.PMID] = m
	return m, nil
}

// CheckName checks that name is a metric name: components of letters,
// digits and underscores, starting with a letter, joined by dots.
func CheckName(name string) error {
	for _, c := range strings.Split(name, ".") {
		ok := c != "" && isLetter(c[0])
		for i := 1; ok && i < len(c); i++ {
			ok = isLetter(c[i]) || c[i] >= '0' && c[i] <= '9'
		}
		if !ok {
			return fmt.Errorf("%q is not a metric name (letters, digits and _, in components joined by dots)", name)
		}
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// Instances lists the metric's instances (for a singular metric, one with
// identifier pmapi.InNull).
func (m *Metric) Instances() []pmapi.Instance { return m.insts }

// Series is the values of the i-th instance (NaN: no value).
func (m *Metric) Series(i int) []float64 { return m.series[i] }

// AddSeries gives the values of one instance of m, a sample each step from
// the archive's start, NaN where there is no value. inst is the instance
// name, "" for a singular metric. An instance may be given once; its
// identifier is the number of instances added before it.
func (m *Metric) AddSeries(inst string, values []float64) error {
	singular := m.Desc.InDom == pmapi.InDomNull
	switch {
	case singular && inst != "":
		return fmt.Errorf("metric %s has no instances, but a series for instance %q", m.Name, inst)
	case !singular && inst == "":
		return fmt.Errorf("metric %s has instances, but a series without one", m.Name)
	}
	for _, v := range values {
		if err := checkValue(m.Desc.Type, v); err != nil {
			return fmt.Errorf("metric %s: %v", m.Name, err)
		}
	}
	if singular {
		if m.series[0] != nil {
			return fmt.Errorf("metric %s has two series", m.Name)
		}
		m.series[0] = values
		return nil
	}
	for _, in := range m.insts {
		if in.Name == inst {
			return fmt.Errorf("metric %s has two series for instance %q", m.Name, inst)
		}
	}
	m.insts = append(m.insts, pmapi.Instance{ID: int32(len(m.insts)), Name: inst})
	m.series = append(m.series, values)
	return nil
}

// limits are the ranges [lo, hi) of the integer types.
var limits = map[pmapi.Type][2]float64{
	pmapi.Type32:  {-1 << 31, 1 << 31},
	pmapi.TypeU32: {0, 1 << 32},
	pmapi.Type64:  {-1 << 63, 1 << 63},
	pmapi.TypeU64: {0, 1 << 64},
}

// checkValue checks that v is a value of type t (or NaN, no value).
func checkValue(t pmapi.Type, v float64) error {
	if math.IsNaN(v) {
		return nil
	}
	if math.IsInf(v, 0) {
		return fmt.Errorf("value %v is not a number", v)
	}
	if r, ok := limits[t]; ok {
		if v != math.Trunc(v) {
			return fmt.Errorf("value %v of an integer type (%v) has a fraction", v, t)
		}
		if v < r[0] || v >= r[1] {
			return fmt.Errorf("value %v is out of the range of type %v", v, t)
		}
	}
	if t == pmapi.TypeFloat && math.Abs(v) > math.MaxFloat32 {
		return fmt.Errorf("value %v is out of the range of type %v", v, t)
	}
	return nil
}

// Samples is the number of sample times: the length of the longest
// series.
func (a *Archive) Samples() int {
	n := 0
	for _, m := range a.metrics {
		for _, s := range m.series {
			n = max(n, len(s))
		}
	}
	return n
}

// SampleTime is the time of sample k.
func (a *Archive) SampleTime(k int) pmapi.Time { return a.start.Add(time.Duration(k) * a.step) }

// Recorded reports whether any value is sampled at sample k: an archive
// of the samples has a record then.
func (a *Archive) Recorded(k int) bool {
	for _, m := range a.metrics {
		for _, s := range m.series {
			if k < len(s) && !math.IsNaN(s[k]) {
				return true
			}
		}
	}
	return false
}

// Bounds is the time span of the archive's records: the first and last
// sample times with some value. An archive without values has the start
// as both.
func (a *Archive) Bounds() (first, last pmapi.Time) {
	n := a.Samples()
	lo, hi := -1, -1
	for k := 0; k < n; k++ {
		if a.Recorded(k) {
			if lo < 0 {
				lo = k
			}
			hi = k
		}
	}
	if lo < 0 {
		return a.start, a.start
	}
	return a.SampleTime(lo), a.SampleTime(hi)
}
