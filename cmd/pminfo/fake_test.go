package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/source"
)

// fakeContext is a small in-memory source: a namespace, descriptors,
// one instance domain, values, help text and labels.
type fakeContext struct {
	names  map[string]pmapi.PMID
	order  []string
	descs  map[pmapi.PMID]pmapi.Desc
	values map[pmapi.PMID]pmapi.ValueSet
	insts  []pmapi.Instance
	help   map[uint32]string
	labels map[pmapi.LabelFlag][]pmapi.LabelSet
	modes  int // SetMode calls
}

func (f *fakeContext) Source() pmapi.Source {
	return pmapi.Source{Kind: pmapi.SourceArchive, Host: "fakehost", TZ: "UTC"}
}

func (f *fakeContext) LookupName(name string) (pmapi.PMID, error) {
	if id, ok := f.names[name]; ok {
		return id, nil
	}
	return pmapi.PMIDNull, pmapi.ErrName
}

func (f *fakeContext) NameAll(id pmapi.PMID) ([]string, error) {
	var out []string
	for _, n := range f.order {
		if f.names[n] == id {
			out = append(out, n)
		}
	}
	if out == nil {
		return nil, pmapi.ErrPMID
	}
	return out, nil
}

func (f *fakeContext) Children(name string) ([]pmapi.Child, error) {
	var kids []pmapi.Child
	seen := map[string]bool{}
	prefix := name + "."
	if name == "" {
		prefix = ""
	}
	found := false
	for _, n := range f.order {
		if n == name {
			return nil, nil
		}
		rest, ok := strings.CutPrefix(n, prefix)
		if !ok {
			continue
		}
		found = true
		first, _, more := strings.Cut(rest, ".")
		if !seen[first] {
			seen[first] = true
			kids = append(kids, pmapi.Child{Name: first, Leaf: !more})
		}
	}
	if !found {
		return nil, pmapi.ErrName
	}
	return kids, nil
}

func (f *fakeContext) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) {
	if d, ok := f.descs[id]; ok {
		return d, nil
	}
	return pmapi.Desc{}, pmapi.ErrPMIDLog
}

func (f *fakeContext) InDom(indom pmapi.InDom) ([]pmapi.Instance, error) {
	if indom != pmapi.NewInDom(245, 1) {
		return nil, pmapi.ErrInDomLog
	}
	return f.insts, nil
}

func (f *fakeContext) Text(id uint32, kind pmapi.TextKind) (string, error) {
	if t, ok := f.help[id]; ok && kind&pmapi.TextHelp != 0 {
		return t, nil
	}
	return "", pmapi.ErrText
}

func (f *fakeContext) Labels(level pmapi.LabelFlag, id uint32) ([]pmapi.LabelSet, error) {
	return f.labels[level], nil
}

func (f *fakeContext) Fetch(ids []pmapi.PMID, r *pmapi.Result) error {
	r.Reset()
	for _, id := range ids {
		r.Sets = append(r.Sets, f.values[id])
	}
	return nil
}

func (f *fakeContext) Close() error { return nil }

func (f *fakeContext) SetMode(pmapi.Mode, pmapi.Time, time.Duration) error {
	f.modes++
	return nil
}

func (f *fakeContext) Bounds() (pmapi.Time, pmapi.Time) {
	return pmapi.TimeOf(1700000000, 0), pmapi.TimeOf(1700000060, 0)
}

// eventArray is one record at 1700000001.5 with flags point and a string
// parameter of fake.name, in the network byte order archives hold.
const eventArray = "\x00\x00\x00\x01" + "\x65\x53\xf1\x01\x00\x07\xa1\x20" + "\x00\x00\x00\x01\x00\x00\x00\x01" +
	"\x3d\x40\x00\x05" + "\x06\x00\x00\x07" + "abc\x00"

func newFake() *fakeContext {
	disk := pmapi.NewInDom(245, 1)
	ids := map[string]pmapi.PMID{
		"fake.disk.reads": pmapi.NewPMID(245, 0, 1),
		"fake.name":       pmapi.NewPMID(245, 0, 5),
		"fake.events":     pmapi.NewPMID(245, 0, 6),
		"fake.nosupport":  pmapi.NewPMID(245, 0, 7),
	}
	f := &fakeContext{
		names: ids,
		order: []string{"fake.disk.reads", "fake.name", "fake.events", "fake.nosupport"},
		descs: map[pmapi.PMID]pmapi.Desc{
			ids["fake.disk.reads"]: {PMID: ids["fake.disk.reads"], Type: pmapi.TypeU64, InDom: disk, Sem: pmapi.SemCounter,
				Units: pmapi.Units{DimCount: 1}},
			ids["fake.name"]:      {PMID: ids["fake.name"], Type: pmapi.TypeString, InDom: pmapi.InDomNull, Sem: pmapi.SemDiscrete},
			ids["fake.events"]:    {PMID: ids["fake.events"], Type: pmapi.TypeEvent, InDom: pmapi.InDomNull, Sem: pmapi.SemInstant},
			ids["fake.nosupport"]: {PMID: ids["fake.nosupport"], Type: pmapi.TypeNoSupport, InDom: pmapi.InDomNull, Sem: pmapi.SemInstant},
		},
		values: map[pmapi.PMID]pmapi.ValueSet{
			ids["fake.disk.reads"]: {PMID: ids["fake.disk.reads"], Values: []pmapi.Value{
				{Inst: 0, Atom: pmapi.U64(10)}, {Inst: 3, Atom: pmapi.U64(30)}}},
			ids["fake.name"]:      {PMID: ids["fake.name"], Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.String("hi")}}},
			ids["fake.events"]:    {PMID: ids["fake.events"], Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.Blob(pmapi.TypeEvent, eventArray)}}},
			ids["fake.nosupport"]: {PMID: ids["fake.nosupport"], Err: pmapi.ErrValue},
		},
		insts: []pmapi.Instance{{ID: 0, Name: "sda"}, {ID: 1, Name: "sdb"}},
		help:  map[uint32]string{uint32(ids["fake.name"]): "A name.\n\n"},
		labels: map[pmapi.LabelFlag][]pmapi.LabelSet{
			pmapi.LabelDomain: {{Inst: pmapi.InNull, Labels: []pmapi.Label{{Name: "agent", Value: `"fake"`}}}},
			pmapi.LabelInstances: {
				{Inst: 1, Labels: []pmapi.Label{{Name: "device", Value: `"sdb"`}}},
				{Inst: 9, Labels: []pmapi.Label{{Name: "device", Value: `"gone"`}}},
			},
		},
	}
	return f
}

func runFake(t *testing.T, f *fakeContext, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	status := run(Env{
		Args:    append([]string{"pminfo", "-a", "fake"}, args...),
		Stdout:  &stdout,
		Stderr:  &stderr,
		Open:    func(source.Spec, source.Opener) (pmapi.Context, error) { return f, nil },
		LocalTZ: time.UTC,
	})
	return stdout.String(), stderr.String(), status
}

func TestFakeSource(t *testing.T) {
	for _, c := range []struct {
		args         []string
		stdout, errs string
		status       int
	}{
		{[]string{"-m"}, "fake.disk.reads PMID: 245.0.1\nfake.name PMID: 245.0.5\n" +
			"fake.events PMID: 245.0.6\nfake.nosupport PMID: 245.0.7\n", "", 0},
		{[]string{"-f", "fake.disk"}, "\nfake.disk.reads\n    inst [0 or \"sda\"] value 10\n" +
			"pmNameIndom: indom=245.1 inst=3: Unknown or illegal instance identifier\n    inst [3] value 30\n", "", 0},
		{[]string{"-F", "fake.disk"}, "\nfake.disk.reads\n    inst [0 or \"sda\"] value 10\n" +
			"    inst [3 \"DISAPPEARED\"]\n", "", 0},
		{[]string{"-dT", "fake.name"}, "\nfake.name\n    Data Type: string  InDom: PM_INDOM_NULL 0xffffffff\n" +
			"    Semantics: discrete  Units: none\nHelp:\nA name.\n", "", 0},
		{[]string{"-tM", "fake.name"}, "fake.name PMID: 245.0.5 = 1027604485 = 0x3d400005 One-line Help: Error: " +
			"One-line or help text is not available\n", "", 0},
		{[]string{"-l", "fake.disk.reads"}, "\nfake.disk.reads\n    labels {\"agent\":\"fake\",\"hostname\":\"fakehost\"}\n" +
			"    inst [1 or \"sdb\"] labels {\"agent\":\"fake\",\"device\":\"sdb\",\"hostname\":\"fakehost\"}\n" +
			"    inst [9 or \"DISAPPEARED\"] labels {\"agent\":\"fake\",\"device\":\"gone\",\"hostname\":\"fakehost\"}\n", "", 0},
		{[]string{"-x", "fake.events"}, "\nfake.events\n    value [1 event record timestamp 22:13:21.500]\n" +
			"    --- event record [0] timestamp 22:13:21.500 flags 0x1 (point) ---\n" +
			"    fake.name (245.0.5)\n        value \"abc\"\n", "", 0},
		{[]string{"-v"}, "fake.nosupport: Not Supported\n", "", 0},
		{[]string{"-f", "fake.nosupport"}, "\nfake.nosupport\nError: Missing metric value(s)\n", "", 0},
		{[]string{"-m", "no.such", "245.0.9", "245.1"}, "\nInDom: 245.1 0x3d400001\n",
			"Error: no.such: Unknown metric name\nError: 245.0.9: Unknown or illegal metric identifier\n", 1},
		{[]string{"-z", "-m", "fake.name"}, "Note: timezone set to local timezone of host \"fakehost\" from archive\n\n" +
			"fake.name PMID: 245.0.5\n", "", 0},
	} {
		stdout, stderr, status := runFake(t, newFake(), c.args...)
		if stdout != c.stdout || stderr != c.errs || status != c.status {
			t.Errorf("pminfo %q:\nstdout %q\nstderr %q\nexit %d\nwant\nstdout %q\nstderr %q\nexit %d",
				c.args, stdout, stderr, status, c.stdout, c.errs, c.status)
		}
	}
}

func TestFakeRewindsEachBatch(t *testing.T) {
	f := newFake()
	runFake(t, f, "-f")
	if f.modes != 4 {
		t.Errorf("SetMode called %d times for 4 metrics, want one per metric", f.modes)
	}
}
