package eval

import (
	"errors"

	"github.com/gopcp/pmie/pmapi"
)

// describe names a metric source in messages as pmie does.
func (b *Builder) describe(m *Metric) string {
	if b.Env.Archive {
		return "archive " + m.Conn + " (host " + m.Host + ")"
	}
	return "pmcd " + m.Conn + " (host " + m.Host + ")"
}

// errText is the PCP wording of err.
func errText(err error) string {
	var e pmapi.Errno
	if errors.As(err, &e) {
		return e.Error()
	}
	return err.Error()
}

// initResult is the outcome of initialising a metric.
type initResult int

const (
	initFailed initResult = -1 // give up on it
	initLater  initResult = 0  // try again later
	initDone   initResult = 1
)

// initMetric looks up m's metadata and instances from its source. Messages
// are given only the first time (not on retries).
func (b *Builder) initMetric(m *Metric, retry bool) initResult {
	b.inits++
	res := b.lookupMetric(m, retry)
	if b.Env.Archive && res == initLater {
		res = initFailed
	}
	switch res {
	case initDone:
		m.state = metricReady
	case initFailed:
		m.state = metricDud
	}
	return res
}

func (b *Builder) lookupMetric(m *Metric, retry bool) initResult {
	if b.Env.Source == nil {
		return initLater
	}
	src, err := b.Env.Source(m.Conn)
	if err != nil || src == nil {
		return initLater
	}
	m.Host = src.Host()
	m.names = func(indom pmapi.InDom, inst int32) (string, error) {
		insts, err := src.InDom(indom)
		if err != nil {
			return "", err
		}
		for _, in := range insts {
			if in.ID == inst {
				return in.Name, nil
			}
		}
		return "", pmapi.ErrInst
	}
	id, err := src.LookupName(m.Name)
	if err != nil {
		if !retry {
			b.lookupFailed(m, "not in namespace", "pmLookupName", err)
		}
		return initLater
	}
	desc, err := src.LookupDesc(id)
	if err != nil {
		if !retry {
			b.lookupFailed(m, "not currently available", "pmLookupDesc", err)
		}
		return initLater
	}
	m.Desc = desc
	res := initDone
	switch {
	case desc.Type == pmapi.TypeAggregate || desc.Type == pmapi.TypeAggregateStatic ||
		desc.Type == pmapi.TypeEvent || desc.Type == pmapi.TypeHighresEvent || desc.Type == pmapi.TypeUnknown:
		b.badMetric(m, "has inappropriate type")
		return initFailed
	case desc.InDom == pmapi.InDomNull:
		if m.specinst != 0 {
			b.badMetric(m, "has no instances")
			return initFailed
		}
		m.nidom = 1
	default:
		insts, err := src.InDom(desc.InDom)
		if err != nil {
			b.noInDom(m, err)
			if b.Env.Archive {
				return initFailed
			}
			return initLater
		}
		if m.specinst == 0 {
			m.nidom = len(insts)
			m.iids = make([]int32, len(insts))
			m.inames = make([]string, len(insts))
			for i, in := range insts {
				m.iids[i], m.inames[i] = in.ID, in.Name
			}
		} else if !b.matchInstances(m, insts, retry) {
			res = initLater
		}
	}
	if res == initDone {
		m.conv = scale(desc.Units)
		if desc.Sem == pmapi.SemCounter {
			m.vals = make([]float64, max(m.nidom, 0))
		}
	}
	return res
}

// matchInstances finds the instances named in the rule; ones not found go
// to the end of the list. It reports whether all were found.
func (b *Builder) matchInstances(m *Metric, insts []pmapi.Instance, retry bool) bool {
	ok := true
	m.nidom = 0
	for i := 0; i < m.specinst; i++ {
		found := false
		for _, in := range insts {
			if sameInstance(m.inames[i], in.Name) {
				m.iids[i] = in.ID
				m.nidom++
				found = true
				break
			}
		}
		if !found {
			if !retry {
				b.noInstance(m, m.inames[i])
			}
			m.iids[i] = pmapi.InNull
			ok = false
		}
	}
	j := m.specinst - 1
	for ; j >= 0; j-- {
		if m.iids[j] != pmapi.InNull {
			break
		}
	}
	for i := 0; i < j; i++ {
		if m.iids[i] == pmapi.InNull {
			m.inames[i], m.inames[j] = m.inames[j], m.inames[i]
			m.iids[i], m.iids[j] = m.iids[j], pmapi.InNull
			j--
		}
	}
	return ok
}

// Retry tries again to initialise a metric that was waiting for its
// metadata, reshaping the tree above it when it succeeds. Afterwards the
// metric is Ready, still Waiting, or a Dud.
func (b *Builder) Retry(m *Metric) {
	if b.initMetric(m, true) != initDone {
		return
	}
	for x := m.node; x != nil; {
		if ops[x.Op].reshape {
			if x.metrics != nil {
				x.reshapeFetch()
			}
			b.findEval(x)
		}
		if x.Parent == nil {
			break
		}
		x = x.Parent
		if x.Op.aggregate() {
			break
		}
	}
}
