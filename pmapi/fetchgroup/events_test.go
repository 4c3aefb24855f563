package fetchgroup

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// fakeContext is a pmapi.Context of a few metrics whose fetches answer
// from a list of results, one per fetch.
type fakeContext struct {
	names   map[string]pmapi.PMID
	descs   map[pmapi.PMID]pmapi.Desc
	indoms  map[pmapi.InDom][]pmapi.Instance
	results []pmapi.Result
	fetched int
}

func (f *fakeContext) Source() pmapi.Source { return pmapi.Source{Kind: pmapi.SourceHost} }
func (f *fakeContext) LookupName(name string) (pmapi.PMID, error) {
	if id, ok := f.names[name]; ok {
		return id, nil
	}
	return pmapi.PMIDNull, pmapi.ErrName
}
func (f *fakeContext) NameAll(pmapi.PMID) ([]string, error)   { return nil, pmapi.ErrPMID }
func (f *fakeContext) Children(string) ([]pmapi.Child, error) { return nil, pmapi.ErrName }
func (f *fakeContext) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	if d, ok := f.descs[id]; ok {
		return d, nil
	}
	return pmapi.Desc{}, pmapi.ErrPMID
}
func (f *fakeContext) InDom(indom pmapi.InDom) ([]pmapi.Instance, error) {
	if insts, ok := f.indoms[indom]; ok {
		return insts, nil
	}
	return nil, pmapi.ErrInDom
}
func (f *fakeContext) Text(uint32, pmapi.TextKind) (string, error) { return "", pmapi.ErrText }
func (f *fakeContext) Labels(pmapi.LabelFlag, uint32) ([]pmapi.LabelSet, error) {
	return nil, nil
}
func (f *fakeContext) Close() error { return nil }
func (f *fakeContext) Fetch(ids []pmapi.PMID, r *pmapi.Result) error {
	if f.fetched >= len(f.results) {
		return pmapi.ErrEOL
	}
	src := f.results[f.fetched]
	f.fetched++
	r.Reset()
	r.Time = src.Time
	for _, id := range ids {
		if s := set(&src, id); s != nil {
			r.Sets = append(r.Sets, *s)
		} else {
			r.Sets = append(r.Sets, pmapi.ValueSet{PMID: id})
		}
	}
	return nil
}

// eventRecord is one record to pack: its time in microseconds and its
// parameters.
type eventRecord struct {
	usec   int64
	params []pmapi.EventParam
}

// packEvents makes a PM_TYPE_EVENT array as pmcd sends one.
func packEvents(recs ...eventRecord) pmapi.Atom {
	be := binary.BigEndian
	b := be.AppendUint32(nil, uint32(len(recs)))
	for _, r := range recs {
		b = be.AppendUint32(b, uint32(r.usec/1e6))
		b = be.AppendUint32(b, uint32(r.usec%1e6))
		b = be.AppendUint32(b, 0)
		b = be.AppendUint32(b, uint32(len(r.params)))
		for _, p := range r.params {
			var v []byte
			switch p.Atom.Type {
			case pmapi.TypeU32:
				v = be.AppendUint32(nil, uint32(p.Atom.Uint64()))
			case pmapi.TypeDouble:
				v = be.AppendUint64(nil, math.Float64bits(p.Atom.Float64()))
			case pmapi.TypeString:
				v = append([]byte(p.Atom.Str()), 0)
			}
			b = be.AppendUint32(b, uint32(p.PMID))
			b = be.AppendUint32(b, uint32(p.Atom.Type)<<24|uint32(4+len(v)))
			for len(v)%4 != 0 {
				v = append(v, 0)
			}
			b = append(b, v...)
		}
	}
	return pmapi.Blob(pmapi.TypeEvent, string(b))
}

func eventContext() *fakeContext {
	recs, size, msg, cnt, other := pmapi.NewPMID(1, 0, 1), pmapi.NewPMID(1, 0, 2), pmapi.NewPMID(1, 0, 3), pmapi.NewPMID(1, 0, 4), pmapi.NewPMID(1, 0, 5)
	indom := pmapi.InDom(1<<22 | 7)
	kbyte := pmapi.Units{DimSpace: 1, ScaleSpace: pmapi.SpaceKByte}
	arr := packEvents(
		eventRecord{1_000_000, []pmapi.EventParam{{PMID: size, Atom: pmapi.U32(2048)}, {PMID: msg, Atom: pmapi.String("first")}}},
		eventRecord{1_500_000, []pmapi.EventParam{{PMID: msg, Atom: pmapi.String("second")}}},
		eventRecord{2_000_250, []pmapi.EventParam{{PMID: size, Atom: pmapi.U32(512)}, {PMID: size, Atom: pmapi.U32(1)}}},
	)
	return &fakeContext{
		names: map[string]pmapi.PMID{"ev.records": recs, "ev.size": size, "ev.msg": msg, "ev.count": cnt, "ev.other": other},
		descs: map[pmapi.PMID]pmapi.Desc{
			recs:  {PMID: recs, Type: pmapi.TypeEvent, InDom: indom, Sem: pmapi.SemInstant},
			size:  {PMID: size, Type: pmapi.TypeU32, InDom: pmapi.InDomNull, Sem: pmapi.SemInstant, Units: kbyte},
			msg:   {PMID: msg, Type: pmapi.TypeString, InDom: pmapi.InDomNull, Sem: pmapi.SemInstant},
			cnt:   {PMID: cnt, Type: pmapi.TypeU32, InDom: pmapi.InDomNull, Sem: pmapi.SemCounter},
			other: {PMID: other, Type: pmapi.TypeU32, InDom: indom, Sem: pmapi.SemInstant},
		},
		indoms: map[pmapi.InDom][]pmapi.Instance{indom: {{ID: 0, Name: "a"}, {ID: 3, Name: "b"}}},
		results: []pmapi.Result{
			{Time: pmapi.TimeOf(10, 0), Sets: []pmapi.ValueSet{{PMID: recs, Values: []pmapi.Value{{Inst: 0, Atom: packEvents()}, {Inst: 3, Atom: arr}}}}},
			{Time: pmapi.TimeOf(11, 0), Sets: []pmapi.ValueSet{{PMID: recs, Err: pmapi.ErrAgain}}},
			{Time: pmapi.TimeOf(12, 0), Sets: []pmapi.ValueSet{{PMID: recs, Values: []pmapi.Value{{Inst: 3, Atom: pmapi.Blob(pmapi.TypeEvent, "\x00\x00\x00\x02")}}}}},
		},
	}
}

// TestExtendEventErrors checks the errors of pmExtendFetchGroup_event.
func TestExtendEventErrors(t *testing.T) {
	g := New(eventContext())
	for _, c := range []struct {
		metric, inst, field, scale string
		want                       error
	}{
		{"ev.records", "", "ev.size", "", pmapi.ErrInDom},
		{"ev.records", "zz", "ev.size", "", pmapi.ErrInst},
		{"ev.records", "b", "ev.nope", "", pmapi.ErrName},
		{"ev.records", "b", "ev.other", "", pmapi.ErrInDom},
		{"ev.size", "", "ev.size", "", pmapi.ErrType},
		{"ev.records", "b", "ev.count", "", pmapi.ErrConv},
		{"ev.records", "b", "ev.size", "rate", pmapi.ErrConv},
		{"ev.records", "b", "ev.size", "Kbyte/sec", pmapi.ErrConv},
		{"ev.records", "b", "ev.size", "sec", pmapi.ErrConv},
	} {
		if _, err := g.ExtendEvent(c.metric, c.inst, c.field, c.scale, pmapi.TypeDouble, 4); err != c.want {
			t.Errorf("ExtendEvent(%q, %q, %q, %q) = %v, want %v", c.metric, c.inst, c.field, c.scale, err, c.want)
		}
	}
	if _, err := g.ExtendEvent("ev.records", "b", "ev.count", "instant", pmapi.TypeDouble, 4); err != nil {
		t.Errorf("an instant counter field: %v", err)
	}
}

// TestEventFields fetches fields of event records: rescaled, as strings,
// past the caller's limit, then with the metric in error and with a
// corrupt array.
func TestEventFields(t *testing.T) {
	g := New(eventContext())
	sizes, err := g.ExtendEvent("ev.records", "b", "ev.size", "Mbyte", pmapi.TypeDouble, 4)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := g.ExtendEvent("ev.records", "b", "ev.msg", "", pmapi.TypeString, 1)
	if err != nil {
		t.Fatal(err)
	}
	none, err := g.ExtendEvent("ev.records", "a", "ev.size", "", pmapi.TypeU32, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Fetch(); err != nil {
		t.Fatal(err)
	}
	wantSizes := []Field{
		{Time: pmapi.TimeOf(1, 0), Value: pmapi.F64(2)},
		{Time: pmapi.TimeOf(2, 250000), Value: pmapi.F64(0.5)},
		{Time: pmapi.TimeOf(2, 250000), Value: pmapi.F64(1.0 / 1024)},
	}
	if sizes.Err != nil || sizes.Num != 3 {
		t.Fatalf("sizes: %v, %d", sizes.Err, sizes.Num)
	}
	for i, w := range wantSizes {
		if f := sizes.Fields[i]; f != w {
			t.Errorf("size %d = %+v, want %+v", i, f, w)
		}
	}
	if f := sizes.Fields[3]; f.Err != pmapi.ErrValue || !math.IsNaN(f.Value.Float64()) || f.Time != 0 {
		t.Errorf("unused slot = %+v", f)
	}
	if msgs.Err != pmapi.ErrTooBig || msgs.Num != 1 || msgs.Fields[0].Value.Str() != "first" {
		t.Errorf("msgs: %v, %d, %+v", msgs.Err, msgs.Num, msgs.Fields)
	}
	if none.Err != nil || none.Num != 0 {
		t.Errorf("an empty array: %v, %d", none.Err, none.Num)
	}

	if err := g.Fetch(); err != nil {
		t.Fatal(err)
	}
	if sizes.Err != pmapi.ErrAgain || sizes.Num != 0 || sizes.Fields[0].Err != pmapi.ErrValue {
		t.Errorf("metric in error: %v, %d, %+v", sizes.Err, sizes.Num, sizes.Fields[0])
	}
	if err := g.Fetch(); err != nil {
		t.Fatal(err)
	}
	if sizes.Err != pmapi.ErrTooBig || sizes.Num != 0 {
		t.Errorf("a short array: %v, %d", sizes.Err, sizes.Num)
	}
	if err := g.Fetch(); err != pmapi.ErrEOL || sizes.Err != pmapi.ErrValue {
		t.Errorf("a failed fetch: %v, %v", err, sizes.Err)
	}
}
