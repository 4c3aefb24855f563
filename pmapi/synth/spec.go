package synth

import (
	"math"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// Spec describes an Archive completely, in a form for writing it as a real
// PCP archive with PCP's pmi module (scripts/pmietest-archive.py reads it
// as JSON): what the archive holds, not how it is read.
type Spec struct {
	Archive  string       `json:"archive"` // base name of the archive to write
	Host     string       `json:"host"`
	Timezone string       `json:"timezone"`
	Times    [][2]int64   `json:"times"` // each sample time: seconds and microseconds
	Metrics  []MetricSpec `json:"metrics"`
}

// Specs is what scripts/pmietest-archive.py reads: the archives to write,
// one for each host.
type Specs struct {
	Hosts []Spec `json:"hosts"`
}

// MetricSpec describes one metric of a Spec.
type MetricSpec struct {
	Name      string       `json:"name"`
	PMID      [3]uint32    `json:"pmid"`  // domain, cluster, item
	InDom     *[2]uint32   `json:"indom"` // domain, serial; null for singular metrics
	Type      string       `json:"type"`  // 32, u32, 64, u64, float or double
	Semantics string       `json:"semantics"`
	Units     [6]int8      `json:"units"`     // dimensions of space, time, count, then their scales
	Instances [][2]any     `json:"instances"` // identifier and name; -1 and "" for a singular value
	Series    [][]*float64 `json:"series"`    // one per instance; null: no value
}

// Spec describes a as an archive to be written with base name archive.
func (a *Archive) Spec(archive string) Spec {
	s := Spec{Archive: archive, Host: a.host, Timezone: a.tz, Times: [][2]int64{}, Metrics: []MetricSpec{}}
	for k := range a.Samples() {
		t := a.SampleTime(k)
		s.Times = append(s.Times, [2]int64{t.Sec(), t.Nsec() / 1000})
	}
	for _, m := range a.metrics {
		d := m.Desc
		u := d.Units
		ms := MetricSpec{Name: m.Name, PMID: [3]uint32{d.PMID.Domain(), d.PMID.Cluster(), d.PMID.Item()},
			Type: strings.ToLower(d.Type.String()), Semantics: d.Sem.String(),
			Units: [6]int8{u.DimSpace, u.DimTime, u.DimCount, u.ScaleSpace, u.ScaleTime, u.ScaleCount}}
		if d.InDom != pmapi.InDomNull {
			ms.InDom = &[2]uint32{d.InDom.Domain(), d.InDom.Serial()}
		}
		for i, in := range m.insts {
			ms.Instances = append(ms.Instances, [2]any{in.ID, in.Name})
			vals := make([]*float64, len(m.series[i]))
			for k, v := range m.series[i] {
				if !math.IsNaN(v) {
					vals[k] = &m.series[i][k]
				}
			}
			ms.Series = append(ms.Series, vals)
		}
		s.Metrics = append(s.Metrics, ms)
	}
	return s
}
