package fetchgroup

import (
	"github.com/gopcp/pmie/pmapi"
)

// EventItem is one field of the records of an event metric
// (pmExtendFetchGroup_event). After each Fetch, Err is the status of the
// whole metric and the first Num elements of Fields the field's values
// in the order the records and their parameters came, each with its
// record's time. When there are more than len(Fields) of them, Err is
// PM_ERR_TOOBIG and Fields holds the first len(Fields).
//
// Unlike libpcp's, the pseudo-fields event.flags and event.missed that
// pmUnpackEventRecords adds to flagged records are not seen: only the
// records' own parameters.
type EventItem struct {
	Err    error
	Num    int
	Fields []Field

	m     metric
	field metric
	conv  conversion
	typ   pmapi.Type
}

// Field is one value of an EventItem.
type Field struct {
	Time  pmapi.Time
	Value pmapi.Atom
	Err   error
}

// ExtendEvent is pmExtendFetchGroup_event: it adds the values of one
// field (a metric without an instance domain) of the records of an event
// metric, and for one with an instance domain the named instance, up to
// maxnum values a fetch, converted as for ExtendItem but never to rates.
//
// Besides ExtendItem's errors, it gives PM_ERR_TYPE for a metric that is
// not an event metric, PM_ERR_INDOM for a field with an instance domain
// and PM_ERR_CONV for a scale that asks for a rate (as "" does for a
// counter field).
func (g *Group) ExtendEvent(name, instance, field, scale string, typ pmapi.Type, maxnum int) (*EventItem, error) {
	lookup := func() (m, fm metric, err error) {
		if m, err = g.lookupItem(name, instance); err != nil {
			return m, fm, err
		}
		if fm, err = g.lookupMetric(field); err != nil {
			return m, fm, err
		}
		if fm.desc.InDom != pmapi.InDomNull {
			return m, fm, pmapi.ErrInDom
		}
		return m, fm, nil
	}
	m, fm, err := g.anywhen(lookup)
	if err != nil {
		return nil, err
	}
	if m.desc.Type != pmapi.TypeEvent && m.desc.Type != pmapi.TypeHighresEvent {
		return nil, pmapi.ErrType
	}
	c, err := prepare(fm.desc, scale, typ)
	if err != nil {
		return nil, err
	}
	if c.rate {
		return nil, pmapi.ErrConv
	}
	g.addPMID(m.id)
	it := &EventItem{m: m, field: fm, conv: c, typ: typ, Fields: make([]Field, max(maxnum, 0))}
	it.reinit(false)
	it.Err = nil
	g.items = append(g.items, it)
	return it, nil
}

func (it *EventItem) reinit(bool) {
	for i := range it.Fields {
		it.Fields[i] = Field{Value: sentinel(it.typ), Err: pmapi.ErrValue}
	}
	it.Num = 0
}

func (it *EventItem) fill(g *Group, r *pmapi.Result) {
	it.Err = it.records(g, r)
}

// records fills in the fields of the records in r, giving the status of
// the whole.
func (it *EventItem) records(g *Group, r *pmapi.Result) error {
	s := set(r, it.m.id)
	switch {
	case s == nil:
		return pmapi.ErrValue
	case s.Err != nil:
		return pmapi.Code(s.Err)
	}
	var arr *pmapi.Atom
	for i := range s.Values {
		if it.m.desc.InDom == pmapi.InDomNull || s.Values[i].Inst == it.m.inst {
			arr = &s.Values[i].Atom
			break
		}
	}
	if arr == nil {
		return nil // no events is no problem
	}
	recs, err := pmapi.DecodeEvents(*arr)
	if err != nil {
		return pmapi.Code(err)
	}
	for _, rec := range recs {
		for _, p := range rec.Params {
			if p.PMID != it.field.id {
				continue
			}
			if it.Num >= len(it.Fields) {
				return pmapi.ErrTooBig
			}
			f := &it.Fields[it.Num]
			a, err := g.convertValue(p.Atom, &it.field, pmapi.InNull, it.conv, it.typ)
			if err == nil {
				f.Value = a
				f.Time = rec.Time
			}
			f.Err = err
			it.Num++
		}
	}
	return nil
}
