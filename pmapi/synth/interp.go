package synth

import (
	"math"

	"github.com/gopcp/pmie/pmapi"
)

// interp is the value of series s of m at time t, as libpcp interpolates
// an archive holding the samples (see the package doc).
func (m *Metric) interp(s []float64, a *Archive, t pmapi.Time) (pmapi.Atom, bool) {
	if t < a.start {
		return pmapi.Atom{}, false // no prior sample
	}
	off := t - a.start
	k := int(off / pmapi.Time(a.step))
	if off%pmapi.Time(a.step) == 0 && k < len(s) && !math.IsNaN(s[k]) {
		return atom(m.Desc.Type, s[k]), true
	}
	prior := min(k, len(s)-1)
	for prior >= 0 && math.IsNaN(s[prior]) {
		prior--
	}
	next := a.firstAfter(s, t)
	switch m.Desc.Sem {
	case pmapi.SemDiscrete:
		if prior >= 0 {
			return atom(m.Desc.Type, s[prior]), true
		}
		return pmapi.Atom{}, false
	case pmapi.SemInstant:
		if prior >= 0 && next >= 0 {
			return atom(m.Desc.Type, s[prior]), true
		}
		return pmapi.Atom{}, false
	}
	dt := t.Sub(a.SampleTime(max(prior, 0))).Seconds()
	span := a.SampleTime(next).Sub(a.SampleTime(max(prior, 0))).Seconds()
	return m.counterOrNone(s, prior, next, dt, span)
}

// firstAfter is the first sample of s at or after t that has a value, or
// -1.
func (a *Archive) firstAfter(s []float64, t pmapi.Time) int {
	k := 0
	if t > a.start {
		off := t - a.start
		k = int(off / pmapi.Time(a.step))
		if off%pmapi.Time(a.step) != 0 {
			k++
		}
	}
	for ; k < len(s); k++ {
		if !math.IsNaN(s[k]) {
			return k
		}
	}
	return -1
}

// counterOrNone is a counter's value dt seconds after sample prior, on the
// line to sample next span seconds after it; none without both.
func (m *Metric) counterOrNone(s []float64, prior, next int, dt, span float64) (pmapi.Atom, bool) {
	if m.Desc.Sem != pmapi.SemCounter || prior < 0 || next < 0 {
		return pmapi.Atom{}, false
	}
	p, n := s[prior], s[next]
	switch m.Desc.Type {
	case pmapi.TypeFloat:
		fp, fn := float32(p), float32(n)
		diff := fn - fp
		return pmapi.F32(float32(float64(fp) + dt*float64(diff)/span)), true
	case pmapi.TypeDouble:
		return pmapi.F64(p + dt*(n-p)/span), true
	}
	// libpcp adds a half and truncates, as the C conversion does.
	return atom(m.Desc.Type, math.Trunc(0.5+p+dt*(n-p)/span)), true
}

// sampleAt is the value of sample k of s, if it has one.
func (m *Metric) sampleAt(s []float64, k int) (pmapi.Atom, bool) {
	if k >= len(s) || math.IsNaN(s[k]) {
		return pmapi.Atom{}, false
	}
	return atom(m.Desc.Type, s[k]), true
}

// atom is v as a value of type t (v is in its range: see checkValue).
func atom(t pmapi.Type, v float64) pmapi.Atom { return pmapi.NumAtom(t, v) }
