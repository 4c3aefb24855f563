package pmcdtest

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// Recorded is a namespace as a file keeps it (JSON): metrics with their
// descriptors and one set of values, and instance domains, as a real
// pmcd served them when they were recorded (see the farm command). Load
// makes a Namespace of it for a host.
type Recorded struct {
	Source  string           `json:"source"` // how it was made
	Metrics []RecordedMetric `json:"metrics"`
	InDoms  []RecordedInDom  `json:"indoms"`
}

// RecordedMetric is one metric of a Recorded namespace.
type RecordedMetric struct {
	Name   string          `json:"name"`
	Desc   pmapi.Desc      `json:"desc"`
	Values []RecordedValue `json:"values"`
}

// RecordedValue is one instance's value: a number, or a string.
type RecordedValue struct {
	Inst int32   `json:"inst"`
	Num  float64 `json:"num,omitempty"`
	Str  string  `json:"str,omitempty"`
}

// RecordedInDom is one instance domain of a Recorded namespace.
type RecordedInDom struct {
	InDom     pmapi.InDom      `json:"indom"`
	Instances []pmapi.Instance `json:"instances"`
}

// LoadRecorded reads a Recorded namespace file.
func LoadRecorded(file string) (*Recorded, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var r Recorded
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return &r, nil
}

// Namespace is r served as host hostname.
func (r *Recorded) Namespace(hostname string) Namespace {
	ns := Namespace{Hostname: hostname, Timezone: "UTC"}
	for _, in := range r.InDoms {
		ns.InDoms = append(ns.InDoms, InDom{InDom: in.InDom, Instances: in.Instances})
	}
	for _, m := range r.Metrics {
		vs := make([]pmapi.Value, len(m.Values))
		for i, v := range m.Values {
			vs[i] = pmapi.Value{Inst: v.Inst, Atom: AtomOf(m.Desc.Type, v.Num, v.Str)}
		}
		ns.Metrics = append(ns.Metrics, Metric{Name: m.Name, Desc: m.Desc, Values: vs})
	}
	return ns
}

// AtomOf is a value of type t: the string s, or the number f.
func AtomOf(t pmapi.Type, f float64, s string) pmapi.Atom {
	if t == pmapi.TypeString {
		return pmapi.String(s)
	}
	return pmapi.NumAtom(t, f)
}

// Varying makes the values of a stand-in change as a live host's do:
// counters go up at rate per second since start, each instance at its
// own pace, and other numbers stay at their value times scale.
func Varying(start time.Time, rate, scale float64) func(m *Metric, now time.Time) []pmapi.Value {
	return func(m *Metric, now time.Time) []pmapi.Value {
		el := now.Sub(start).Seconds()
		out := make([]pmapi.Value, len(m.Values))
		for i, v := range m.Values {
			f := v.Atom.Float64()
			switch {
			case math.IsNaN(f):
				out[i] = v
				continue
			case m.Desc.Sem == pmapi.SemCounter:
				f += rate * el * float64(1+i%3)
			default:
				f *= scale
			}
			out[i] = pmapi.Value{Inst: v.Inst, Atom: AtomOf(m.Desc.Type, f, "")}
		}
		return out
	}
}
