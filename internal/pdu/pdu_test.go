package pdu

import (
	"bytes"
	"errors"
	"io"
	"math"
	"reflect"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

func TestHandshakeRoundTrip(t *testing.T) {
	ch := Challenge{Version: Version, Licensed: 1, Features: FeatureDescs | FeatureLabels | FeatureHighRes}
	for _, status := range []int32{0, int32(pmapi.ErrPermission), int32(pmapi.ErrConnLimit), -111} {
		p := EncodeHandshake(status, ch)
		got, gotCh, err := DecodeHandshake(p)
		if err != nil || got != status || gotCh != ch {
			t.Errorf("status %d: got %d %+v %v", status, got, gotCh, err)
		}
	}
	// The status travels as a PCP 1.x code: PM_ERR_PERMISSION (-12387)
	// is -1042 on the wire.
	p := EncodeHandshake(int32(pmapi.ErrPermission), ch)
	if w := int32(uint32(p[12])<<24 | uint32(p[13])<<16 | uint32(p[14])<<8 | uint32(p[15])); w != -1042 {
		t.Errorf("wire status %d, want -1042", w)
	}
}

func TestCredsRoundTrip(t *testing.T) {
	p := EncodeCreds(1234, Version, FeatureCredsReqd)
	cc, err := DecodeCreds(p)
	if err != nil || cc.Version != Version || cc.Flags != FeatureCredsReqd {
		t.Fatalf("got %+v %v", cc, err)
	}
	// One CVERSION credential: type 1, version 2, flags 8.
	if !bytes.Equal(p[12:], []byte{0, 0, 0, 1, 1, 2, 0, 8}) {
		t.Errorf("body % x", p[12:])
	}
}

func TestNamesRoundTrip(t *testing.T) {
	cases := []struct {
		names  []string
		status []int32
	}{
		{[]string{}, nil},
		{[]string{"a", "bc", "def", "ghij", "klmno"}, nil},
		{[]string{"load", "cpu"}, []int32{Leaf, NonLeaf}},
		{[]string{""}, nil},
	}
	for _, c := range cases {
		p := EncodeNames(c.names, c.status)
		if len(p)%4 != 0 {
			t.Errorf("%v: length %d not a whole number of words", c.names, len(p))
		}
		names, status, err := DecodeNames(p)
		if err != nil || !reflect.DeepEqual(names, c.names) || !reflect.DeepEqual(status, c.status) {
			t.Errorf("%v %v: got %v %v %v", c.names, c.status, names, status, err)
		}
	}
}

func TestNameReqRoundTrip(t *testing.T) {
	for _, tt := range []Type{PMNSChild, PMNSTraverse} {
		for _, name := range []string{"", "kernel", "kernel.all.load"} {
			gotT, got, sub, err := DecodeNameReq(EncodeNameReq(tt, name, 1))
			if err != nil || gotT != tt || got != name || sub != 1 {
				t.Errorf("%s %q: got %s %q %d %v", tt, name, gotT, got, sub, err)
			}
		}
	}
}

func TestIDsRoundTrip(t *testing.T) {
	ids := []pmapi.PMID{pmapi.NewPMID(60, 2, 0), pmapi.PMIDNull}
	sts, got, err := DecodeIDs(EncodeIDs(PMNSIDs, 1, ids), PMNSIDs)
	if err != nil || sts != 1 || !reflect.DeepEqual(got, ids) {
		t.Errorf("got %d %v %v", sts, got, err)
	}
	if _, _, err := DecodeIDs(EncodeIDs(DescIDs, -1, ids), PMNSIDs); err == nil {
		t.Error("DESC_IDS decoded as PMNS_IDS")
	}
}

func TestMetaRoundTrip(t *testing.T) {
	d := pmapi.Desc{PMID: pmapi.NewPMID(60, 2, 0), Type: pmapi.TypeFloat, InDom: pmapi.NewInDom(60, 2),
		Sem: pmapi.SemInstant, Units: pmapi.Units{DimSpace: 1, DimTime: -1, ScaleSpace: pmapi.SpaceKByte, ScaleTime: pmapi.TimeSec}}
	if id, err := DecodeDescReq(EncodeDescReq(d.PMID)); err != nil || id != d.PMID {
		t.Errorf("desc req: %v %v", id, err)
	}
	if got, err := DecodeDesc(EncodeDesc(d)); err != nil || got != d {
		t.Errorf("desc: %+v %v", got, err)
	}
	ds := []pmapi.Desc{d, {PMID: pmapi.PMIDNull}}
	if got, err := DecodeDescs(EncodeDescs(ds)); err != nil || !reflect.DeepEqual(got, ds) {
		t.Errorf("descs: %+v %v", got, err)
	}
	q := InstanceQuery{InDom: d.InDom, Inst: pmapi.InNull, Name: "5 minute"}
	if got, err := DecodeInstanceReq(EncodeInstanceReq(q)); err != nil || got != q {
		t.Errorf("instance req: %+v %v", got, err)
	}
	insts := []pmapi.Instance{{ID: 1, Name: "1 minute"}, {ID: 15, Name: "15 minute"}, {ID: 7, Name: ""}}
	if indom, got, err := DecodeInstances(EncodeInstances(d.InDom, insts)); err != nil || indom != d.InDom || !reflect.DeepEqual(got, insts) {
		t.Errorf("instances: %v %+v %v", indom, got, err)
	}
	if id, kind, err := DecodeTextReq(EncodeTextReq(uint32(d.PMID), pmapi.TextPMID|pmapi.TextHelp)); err != nil ||
		id != uint32(d.PMID) || kind != pmapi.TextPMID|pmapi.TextHelp {
		t.Errorf("text req: %v %v %v", id, kind, err)
	}
	if _, text, err := DecodeText(EncodeText(1, "one line\nand more")); err != nil || text != "one line\nand more" {
		t.Errorf("text: %q %v", text, err)
	}
}

func TestLabelsRoundTrip(t *testing.T) {
	sets := []pmapi.LabelSet{
		{Inst: pmapi.InNull, Labels: []pmapi.Label{{Name: "agent", Value: `"linux"`, Flags: pmapi.LabelDomain},
			{Name: "n", Value: `42`, Flags: pmapi.LabelDomain | pmapi.LabelOptional}}},
		{Inst: 3, Labels: nil},
		{Inst: 4, Labels: []pmapi.Label{{Name: "x", Value: `{"a":[1,2]}`, Flags: pmapi.LabelInstances}}},
	}
	id, level, got, err := DecodeLabels(EncodeLabels(60, pmapi.LabelInstances, sets))
	if err != nil || id != 60 || level != pmapi.LabelInstances || !reflect.DeepEqual(got, sets) {
		t.Errorf("got %d %d %+v %v", id, level, got, err)
	}
	if id, level, err := DecodeLabelReq(EncodeLabelReq(7, pmapi.LabelContext)); err != nil ||
		id != uint32(pmapi.PMIDNull) || level != pmapi.LabelContext {
		t.Errorf("label req: %x %d %v", id, level, err)
	}
}

func TestProfileRoundTrip(t *testing.T) {
	var p pmapi.Profile
	p.Del(pmapi.NewInDom(60, 2), nil)
	p.Add(pmapi.NewInDom(60, 2), []int32{5, 15})
	p.Add(pmapi.NewInDom(60, 1), []int32{3})
	ctx, got, err := DecodeProfile(EncodeProfile(0, &p))
	if err != nil || ctx != 0 || !reflect.DeepEqual(got, &p) {
		t.Errorf("got %d %+v %v", ctx, got, err)
	}
}

func TestFetchRoundTrip(t *testing.T) {
	ids := []pmapi.PMID{pmapi.NewPMID(60, 2, 0), pmapi.NewPMID(60, 0, 32)}
	for _, tt := range []Type{Fetch, HighResFetch} {
		gotT, ctx, got, err := DecodeFetch(EncodeFetch(tt, 3, ids))
		if err != nil || gotT != tt || ctx != 3 || !reflect.DeepEqual(got, ids) {
			t.Errorf("%s: got %s %d %v %v", tt, gotT, ctx, got, err)
		}
	}
}

// TestFetchReuse checks that a client fetching again and again (a live
// pmie, every interval) allocates nothing to encode its request in the
// storage of the last one and to decode the result into the last one's.
func TestFetchReuse(t *testing.T) {
	ids := []pmapi.PMID{pmapi.NewPMID(60, 2, 0), pmapi.NewPMID(60, 0, 32)}
	buf := EncodeFetchIn(nil, HighResFetch, 0, ids[:1])
	buf = EncodeFetchIn(buf, HighResFetch, 0, ids)
	if !reflect.DeepEqual(buf, EncodeFetch(HighResFetch, 0, ids)) {
		t.Errorf("EncodeFetchIn over an earlier request: % x", buf)
	}
	if n := testing.AllocsPerRun(100, func() { buf = EncodeFetchIn(buf, HighResFetch, 0, ids) }); n != 0 {
		t.Errorf("EncodeFetchIn allocated %v times", n)
	}
	in := sampleResult()
	in.Sets = in.Sets[:6] // numbers only: strings and blobs are allocated
	p := EncodeResult(HighResResult, in)
	typeOf := func(pmapi.PMID) pmapi.Type { return pmapi.TypeUnknown }
	var r pmapi.Result
	if err := DecodeResult(p, &r, typeOf); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { DecodeResult(p, &r, typeOf) }); n != 0 {
		t.Errorf("DecodeResult into a result's storage allocated %v times", n)
	}
}

func sampleResult() *pmapi.Result {
	return &pmapi.Result{Time: pmapi.TimeOf(1700000000, 123456000), Sets: []pmapi.ValueSet{
		{PMID: pmapi.NewPMID(60, 0, 32), Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.U32(2)}}},
		{PMID: pmapi.NewPMID(60, 0, 33), Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.I32(-7)}}},
		{PMID: pmapi.NewPMID(60, 2, 0), Values: []pmapi.Value{{Inst: 1, Atom: pmapi.F32(0.5)}, {Inst: 5, Atom: pmapi.F32(1.25)}}},
		{PMID: pmapi.NewPMID(60, 1, 9), Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.U64(1 << 50)}}},
		{PMID: pmapi.NewPMID(60, 1, 10), Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.I64(-1 << 40)}}},
		{PMID: pmapi.NewPMID(60, 1, 11), Values: []pmapi.Value{{Inst: 0, Atom: pmapi.F64(3.5)}}},
		{PMID: pmapi.NewPMID(60, 12, 0), Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.String("6.1.0")}}},
		{PMID: pmapi.NewPMID(60, 12, 1), Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.Blob(pmapi.TypeAggregate, "\x01\x02\x03")}}},
		{PMID: pmapi.NewPMID(60, 12, 2), Values: []pmapi.Value{}},
		{PMID: pmapi.NewPMID(60, 99, 0), Err: pmapi.ErrPMID, Values: []pmapi.Value{}},
	}}
}

// TestResultTypeChanged decodes values stored otherwise than the type the
// client knows its metric by (its type changed since the client looked
// its descriptor up, as sample.dynamic.meta.metric's can): each is a
// pmapi.Mismatch, which libpcp's pmExtractValue refuses to convert; a
// metric whose type is not known is taken as its value block says.
func TestResultTypeChanged(t *testing.T) {
	in := sampleResult()
	f64, i32, str, unk := in.Sets[5].PMID, in.Sets[1].PMID, in.Sets[6].PMID, in.Sets[3].PMID
	types := map[pmapi.PMID]pmapi.Type{
		in.Sets[0].PMID: pmapi.TypeU32, // U32 as U32: fits
		i32:             pmapi.TypeDouble,
		in.Sets[2].PMID: pmapi.TypeFloat,
		unk:             pmapi.TypeUnknown,
		in.Sets[4].PMID: pmapi.TypeU64, // a 64-bit block is not a U64 one
		f64:             pmapi.Type32,
		str:             pmapi.TypeAggregate,
	}
	var got pmapi.Result
	if err := DecodeResult(EncodeResult(Result, in), &got, func(id pmapi.PMID) pmapi.Type { return types[id] }); err != nil {
		t.Fatal(err)
	}
	want := []pmapi.Type{pmapi.TypeU32, pmapi.TypeUnknown, pmapi.TypeFloat, pmapi.TypeU64, pmapi.TypeUnknown, pmapi.TypeUnknown, pmapi.TypeUnknown}
	for i, w := range want {
		if a := got.Sets[i].Values[0].Atom; a.Type != w {
			t.Errorf("%s: decoded as %s, want %s", got.Sets[i].PMID, a.Type, w)
		}
	}
	// the mismatched double's bytes are as libpcp holds them (host order)
	if a := got.Sets[5].Values[0].Atom; a.Str() != string(pmapi.HostOrder(pmapi.TypeDouble, []byte{0x40, 0x0c, 0, 0, 0, 0, 0, 0})) {
		t.Errorf("mismatched double holds % x", a.Str())
	}
	if !math.IsNaN(got.Sets[1].Values[0].Atom.Float64()) {
		t.Errorf("an insitu value of a double metric converts to %v", got.Sets[1].Values[0].Atom.Float64())
	}
}

func TestResultRoundTrip(t *testing.T) {
	in := sampleResult()
	types := map[pmapi.PMID]pmapi.Type{}
	for _, vs := range in.Sets {
		if len(vs.Values) > 0 {
			types[vs.PMID] = vs.Values[0].Atom.Type
		}
	}
	for _, tt := range []Type{Result, HighResResult} {
		var got pmapi.Result
		if err := DecodeResult(EncodeResult(tt, in), &got, func(id pmapi.PMID) pmapi.Type { return types[id] }); err != nil {
			t.Fatalf("%s: %v", tt, err)
		}
		if !sameResult(&got, in) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", tt, got, *in)
		}
		// Decoding again into the same Result reuses its storage.
		first := &got.Sets[2].Values[0]
		if err := DecodeResult(EncodeResult(tt, in), &got, nil); err != nil {
			t.Fatal(err)
		}
		if &got.Sets[2].Values[0] != first {
			t.Errorf("%s: value storage not reused", tt)
		}
	}
}

// sameResult compares results, taking empty and nil value lists as equal.
func sameResult(a, b *pmapi.Result) bool {
	if a.Time != b.Time || len(a.Sets) != len(b.Sets) {
		return false
	}
	for i := range a.Sets {
		x, y := a.Sets[i], b.Sets[i]
		if x.PMID != y.PMID || x.Err != y.Err || len(x.Values) != len(y.Values) {
			return false
		}
		if len(x.Values) > 0 && !reflect.DeepEqual(x.Values, y.Values) {
			return false
		}
	}
	return true
}

func TestReadLimits(t *testing.T) {
	good := EncodeError(-1)
	p, err := Read(bytes.NewReader(good), nil, 0)
	if err != nil || !bytes.Equal(p, good) {
		t.Fatalf("read: % x %v", p, err)
	}
	if _, err := Read(bytes.NewReader(nil), nil, 0); err != io.EOF {
		t.Errorf("empty input: %v", err)
	}
	if _, err := Read(bytes.NewReader(good[:14]), nil, 0); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated body: %v", err)
	}
	if _, err := Read(bytes.NewReader(good[:5]), nil, 0); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated header: %v", err)
	}
	short := []byte{0, 0, 0, 8, 0, 0, 0x70, 0, 0, 0, 0, 0}
	if _, err := Read(bytes.NewReader(short), nil, 0); pmapi.Code(err) != pmapi.ErrIPC {
		t.Errorf("length 8: %v", err)
	}
	// A header claiming 1 GiB: refused before any of it is read.
	huge := []byte{0x40, 0, 0, 0, 0, 0, 0x70, 1, 0, 0, 0, 0}
	r := bytes.NewReader(append(huge, make([]byte, 100)...))
	if _, err := Read(r, nil, 1<<20); pmapi.Code(err) != pmapi.ErrTooBig {
		t.Errorf("oversized: %v", err)
	}
	if r.Len() != 100 {
		t.Errorf("oversized PDU body was read: %d left", r.Len())
	}
}

func TestDecodeRejects(t *testing.T) {
	res := EncodeResult(HighResResult, sampleResult())
	cases := map[string]func() error{
		"wrong type": func() error { _, err := DecodeDesc(EncodeText(1, "x")); return err },
		"short desc": func() error {
			p := EncodeDesc(pmapi.Desc{})
			p = p[:len(p)-4]
			p[3] -= 4
			_, err := DecodeDesc(p)
			return err
		},
		"length mismatch": func() error { _, err := DecodeDesc(EncodeDesc(pmapi.Desc{})[:20]); return err },
		"huge name count": func() error {
			p := EncodeNames([]string{"a"}, nil)
			p[20], p[21] = 0x7f, 0xff
			_, _, err := DecodeNames(p)
			return err
		},
		"name overruns": func() error {
			p := EncodeNames([]string{"abc"}, nil)
			p[27] = 200
			_, _, err := DecodeNames(p)
			return err
		},
		"value block outside": func() error {
			one := &pmapi.Result{Sets: []pmapi.ValueSet{{PMID: 1, Values: []pmapi.Value{{Inst: 0, Atom: pmapi.U64(7)}}}}}
			p := EncodeResult(HighResResult, one)
			// pmid, numval, valfmt, inst, then the block's word offset
			p[resultHeadLen(HighResResult)+19] = 0x7f
			var r pmapi.Result
			return DecodeResult(p, &r, nil)
		},
		"value block inside the value sets": func() error {
			one := &pmapi.Result{Sets: []pmapi.ValueSet{{PMID: 1, Values: []pmapi.Value{{Inst: 0, Atom: pmapi.U64(7)}}}}}
			p := EncodeResult(HighResResult, one)
			p[resultHeadLen(HighResResult)+19] = 2 // points into the header
			var r pmapi.Result
			return DecodeResult(p, &r, nil)
		},
		"truncated result": func() error {
			p := append([]byte(nil), res[:len(res)-8]...)
			p[2], p[3] = byte(len(p)>>8), byte(len(p))
			var r pmapi.Result
			return DecodeResult(p, &r, nil)
		},
		"label json outside": func() error {
			p := EncodeLabels(1, pmapi.LabelDomain, []pmapi.LabelSet{{Inst: -1, Labels: []pmapi.Label{{Name: "a", Value: "1"}}}})
			p[35] = 0xff // the set's JSON length
			_, _, _, err := DecodeLabels(p)
			return err
		},
	}
	for name, f := range cases {
		if err := f(); pmapi.Code(err) != pmapi.ErrIPC {
			t.Errorf("%s: got %v, want an IPC error", name, err)
		}
	}
}
