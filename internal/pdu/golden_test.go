package pdu

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// goldenDir holds reply PDUs recorded from real pmcd 6.0.3.
const goldenDir = "../../testdata/golden/pmcd"

func golden(t testing.TB, name string) []byte {
	t.Helper()
	p, err := os.ReadFile(filepath.Join(goldenDir, name+".pdu"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRealPDUs decodes what real pmcd sent and checks the facts that do
// not change from one sample to the next.
func TestRealPDUs(t *testing.T) {
	load := pmapi.NewPMID(60, 2, 0)
	loadInDom := pmapi.NewInDom(60, 2)

	status, ch, err := DecodeHandshake(golden(t, "handshake"))
	if err != nil || status != 0 || ch.Version != 2 || ch.Licensed != 1 ||
		ch.Features&(FeatureDescs|FeatureLabels|FeatureHighRes) != FeatureDescs|FeatureLabels|FeatureHighRes {
		t.Errorf("handshake: %d %+v %v", status, ch, err)
	}

	sts, ids, err := DecodeIDs(golden(t, "ids"), PMNSIDs)
	if err != nil || sts != 2 || !reflect.DeepEqual(ids, []pmapi.PMID{load, pmapi.NewPMID(60, 0, 32), pmapi.PMIDNull}) {
		t.Errorf("ids: %d %v %v", sts, ids, err)
	}

	names, status2, err := DecodeNames(golden(t, "children"))
	if err != nil || len(names) != len(status2) || names[0] != "load" || status2[0] != Leaf {
		t.Errorf("children: %v %v %v", names, status2, err)
	}
	for i, n := range names {
		if n == "cpu" && status2[i] != NonLeaf {
			t.Errorf("kernel.all.cpu has status %d", status2[i])
		}
	}

	names, status2, err = DecodeNames(golden(t, "traverse"))
	if err != nil || status2 != nil || len(names) < 5 || names[0][:15] != "kernel.all.cpu." {
		t.Errorf("traverse: %v %v %v", names, status2, err)
	}
	names, _, err = DecodeNames(golden(t, "nameall"))
	if err != nil || !reflect.DeepEqual(names, []string{"kernel.all.load"}) {
		t.Errorf("nameall: %v %v", names, err)
	}

	wantLoad := pmapi.Desc{PMID: load, Type: pmapi.TypeFloat, InDom: loadInDom, Sem: pmapi.SemInstant}
	if d, err := DecodeDesc(golden(t, "desc")); err != nil || d != wantLoad {
		t.Errorf("desc: %+v %v", d, err)
	}
	ds, err := DecodeDescs(golden(t, "descs"))
	if err != nil || len(ds) != 6 || ds[0] != wantLoad || ds[5].PMID != pmapi.PMIDNull ||
		ds[3].Units != (pmapi.Units{DimSpace: 1, ScaleSpace: pmapi.SpaceMByte}) || ds[2].Type != pmapi.TypeString {
		t.Errorf("descs: %+v %v", ds, err)
	}

	indom, insts, err := DecodeInstances(golden(t, "instance"))
	want := []pmapi.Instance{{ID: 1, Name: "1 minute"}, {ID: 5, Name: "5 minute"}, {ID: 15, Name: "15 minute"}}
	if err != nil || indom != loadInDom || !reflect.DeepEqual(insts, want) {
		t.Errorf("instance: %v %v %v", indom, insts, err)
	}

	if _, text, err := DecodeText(golden(t, "text")); err != nil || text != "1, 5 and 15 minute load average" {
		t.Errorf("text: %q %v", text, err)
	}

	_, level, sets, err := DecodeLabels(golden(t, "labels-context"))
	if err != nil || level != pmapi.LabelContext || len(sets) != 1 || len(sets[0].Labels) < 3 || sets[0].Labels[1].Name != "hostname" {
		t.Errorf("context labels: %+v %v", sets, err)
	}
	ident, _, sets, err := DecodeLabels(golden(t, "labels-domain"))
	wantSets := []pmapi.LabelSet{{Inst: pmapi.InNull, Labels: []pmapi.Label{{Name: "agent", Value: `"linux"`, Flags: pmapi.LabelDomain}}}}
	if err != nil || ident != 60 || !reflect.DeepEqual(sets, wantSets) {
		t.Errorf("domain labels: %d %+v %v", ident, sets, err)
	}
	_, _, sets, err = DecodeLabels(golden(t, "labels-instances"))
	if err != nil || len(sets) != 3 || sets[2].Inst != 15 {
		t.Errorf("instance labels: %+v %v", sets, err)
	}

	types := map[pmapi.PMID]pmapi.Type{}
	for _, d := range ds {
		types[d.PMID] = d.Type
	}
	for _, name := range []string{"result", "highres-result"} {
		var r pmapi.Result
		if err := DecodeResult(golden(t, name), &r, func(id pmapi.PMID) pmapi.Type { return types[id] }); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := r.Sets
		if len(s) != 6 || len(s[0].Values) != 3 || s[0].Values[0].Atom.Type != pmapi.TypeFloat ||
			s[1].Values[0].Atom != pmapi.U32(2) || s[2].Values[0].Atom.Type != pmapi.TypeString ||
			s[3].Values[0].Atom.Type != pmapi.TypeU32 || s[4].Values[0].Atom.Type != pmapi.TypeU64 || s[5].Err != pmapi.ErrPMID || r.Time.Sec() < 1.7e9 {
			t.Errorf("%s: %+v", name, r)
		}
	}

	if code, err := DecodeError(golden(t, "error")); err != nil || pmapi.Errno(code) != pmapi.ErrPMID {
		t.Errorf("error: %d %v", code, err)
	}
}
