//go:build linux

package local

import (
	"errors"
	"os"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

func TestTablesAgree(t *testing.T) {
	impls := implTable()
	inMeta := map[string]bool{}
	for _, row := range meta {
		inMeta[row.name] = true
		if _, ok := impls[row.name]; !ok {
			t.Errorf("%s is in meta_gen.go but has no implementation", row.name)
		}
	}
	for name := range impls {
		if !inMeta[name] {
			t.Errorf("%s is implemented but not in meta_gen.go", name)
		}
	}
	seen := map[pmapi.PMID]string{}
	for _, m := range space().metrics {
		if other, ok := seen[m.pmid]; ok {
			t.Errorf("%s and %s share PMID %v", m.name, other, m.pmid)
		}
		seen[m.pmid] = m.name
		if m.indom != pmapi.InDomNull && space().indomTxt[m.indom] == nil {
			t.Errorf("%s: instance domain %v has no help text", m.name, m.indom)
		}
		if m.need == 0 && m.name != "kernel.all.load" && m.name != "kernel.all.hz" && m.name != "hinv.pagesize" {
			t.Errorf("%s reads no source", m.name)
		}
	}
}

func TestNamespace(t *testing.T) {
	c := openFixture(t)
	id, err := c.LookupName("kernel.all.cpu.user")
	if err != nil || id != pmapi.NewPMID(60, 0, 20) {
		t.Errorf("LookupName(kernel.all.cpu.user) = %v, %v; want 60.0.20", id, err)
	}
	if _, err := c.LookupName("kernel.all.cpu"); !errors.Is(err, pmapi.ErrNonLeaf) {
		t.Errorf("LookupName(kernel.all.cpu) error %v, want PM_ERR_NONLEAF", err)
	}
	if _, err := c.LookupName("kernel.all.nosuch"); !errors.Is(err, pmapi.ErrName) {
		t.Errorf("LookupName(kernel.all.nosuch) error %v, want PM_ERR_NAME", err)
	}
	names, err := c.NameAll(pmapi.NewPMID(3, 8, 99))
	if err != nil || !reflect.DeepEqual(names, []string{"proc.nprocs"}) {
		t.Errorf("NameAll(3.8.99) = %v, %v", names, err)
	}
	if _, err := c.NameAll(pmapi.NewPMID(60, 0, 999)); !errors.Is(err, pmapi.ErrPMID) {
		t.Errorf("NameAll(60.0.999) error %v, want PM_ERR_PMID", err)
	}

	top, err := c.Children("")
	want := []pmapi.Child{{Name: "kernel"}, {Name: "hinv"}, {Name: "mem"}, {Name: "swap"},
		{Name: "disk"}, {Name: "network"}, {Name: "filesys"}, {Name: "proc"}}
	if err != nil || !reflect.DeepEqual(top, want) {
		t.Errorf("Children(\"\") = %v, %v\n\twant %v", top, err, want)
	}
	kids, err := c.Children("kernel.all.cpu.wait")
	if err != nil || !reflect.DeepEqual(kids, []pmapi.Child{{Name: "total", Leaf: true}}) {
		t.Errorf("Children(kernel.all.cpu.wait) = %v, %v", kids, err)
	}
	if kids, err := c.Children("proc.nprocs"); err != nil || len(kids) != 0 {
		t.Errorf("Children of a leaf = %v, %v", kids, err)
	}
	if _, err := c.Children("nosuch"); !errors.Is(err, pmapi.ErrName) {
		t.Errorf("Children(nosuch) error %v, want PM_ERR_NAME", err)
	}

	var leaves []string
	if err := pmapi.Traverse(c, "", func(n string) error { leaves = append(leaves, n); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(leaves) != len(meta) {
		t.Fatalf("traversal found %d leaves, meta has %d", len(leaves), len(meta))
	}
	for i, n := range leaves {
		if n != meta[i].name {
			t.Fatalf("traversal order differs from PCP's at %d: %s, want %s", i, n, meta[i].name)
		}
	}
}

func TestDescAndText(t *testing.T) {
	c := openFixture(t)
	d, err := c.LookupDesc(pmapi.NewPMID(60, 1, 9))
	want := pmapi.Desc{PMID: pmapi.NewPMID(60, 1, 9), Type: pmapi.TypeU32, InDom: pmapi.InDomNull,
		Sem: pmapi.SemDiscrete, Units: pmapi.Units{DimSpace: 1, ScaleSpace: pmapi.SpaceMByte}}
	if err != nil || d != want {
		t.Errorf("LookupDesc(hinv.physmem) = %+v, %v\n\twant %+v", d, err, want)
	}
	if _, err := c.LookupDesc(pmapi.NewPMID(60, 0, 999)); !errors.Is(err, pmapi.ErrPMID) {
		t.Errorf("LookupDesc(60.0.999) error %v, want PM_ERR_PMID", err)
	}
	tests := []struct {
		id   uint32
		kind pmapi.TextKind
		want string
	}{
		{uint32(pmapi.NewPMID(60, 1, 1)), pmapi.TextPMID | pmapi.TextOneLine, "used memory metric from /proc/meminfo"},
		{uint32(pmapi.NewPMID(60, 1, 1)), pmapi.TextPMID | pmapi.TextHelp, "Used memory is the difference between mem.physmem and mem.freemem."},
		{uint32(pmapi.NewPMID(60, 0, 32)), pmapi.TextPMID | pmapi.TextHelp, "number of CPUs in the system"},
		{uint32(pmapi.NewInDom(60, 0)), pmapi.TextInDom | pmapi.TextOneLine, "set of all processors"},
	}
	for _, tt := range tests {
		if got, err := c.Text(tt.id, tt.kind); err != nil || got != tt.want {
			t.Errorf("Text(%#x, %d) = %q, %v; want %q", tt.id, tt.kind, got, err, tt.want)
		}
	}
}

func TestLabels(t *testing.T) {
	c := openFixture(t)
	check := func(level pmapi.LabelFlag, id uint32, want string) {
		t.Helper()
		sets, err := c.Labels(level, id)
		if err != nil {
			t.Errorf("Labels(%d, %#x): %v", level, id, err)
			return
		}
		got := ""
		for _, s := range sets {
			if s.Inst != pmapi.InNull {
				got += "[" + itoa(s.Inst) + "]"
			}
			got += "{"
			for i, l := range s.Labels {
				if i > 0 {
					got += ","
				}
				got += `"` + l.Name + `":` + l.Value
			}
			got += "}"
		}
		if got != want {
			t.Errorf("Labels(%d, %#x) = %s\n\twant %s", level, id, got, want)
		}
	}
	check(pmapi.LabelContext, 0, `{"domainname":"localdomain","groupid":`+itoa(int32(gid()))+
		`,"hostname":"fixture","machineid":"0123456789abcdef0123456789abcdef","userid":`+itoa(int32(uid()))+`}`)
	check(pmapi.LabelDomain, uint32(pmapi.NewPMID(60, 0, 20)), `{"agent":"linux"}`)
	check(pmapi.LabelDomain, uint32(pmapi.NewPMID(3, 8, 99)), `{"agent":"proc"}`)
	check(pmapi.LabelItem, uint32(pmapi.NewPMID(60, 0, 20)), `{"device_type":"cpu"}`)
	check(pmapi.LabelItem, uint32(pmapi.NewPMID(60, 0, 0)), ``)
	check(pmapi.LabelInDom, uint32(pmapi.NewInDom(60, 1)), `{"device_type":"block","indom_name":"per disk"}`)
	check(pmapi.LabelInstances, uint32(pmapi.NewInDom(60, 0)), `[0]{"cpu":0}[1]{"cpu":1}[3]{"cpu":3}`)
	check(pmapi.LabelInstances, uint32(pmapi.NewInDom(60, 3)),
		`[0]{"interface":"lo"}[1]{"interface":"ifb0"}[2]{"interface":"eth0"}[3]{"interface":"docker0"}`)
	check(pmapi.LabelInstances, uint32(pmapi.NewInDom(60, 5)), ``)
}

func itoa(i int32) string { return strconv.Itoa(int(i)) }
func uid() int            { return os.Getuid() }
func gid() int            { return os.Getgid() }

func TestLocalTZ(t *testing.T) {
	t.Setenv("TZ", "")
	at := func(name string, east int) time.Time {
		return time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone(name, east))
	}
	tests := []struct {
		when time.Time
		want string
	}{
		{at("UTC", 0), "UTC"},
		{at("AEST", 10*3600), "AEST-10"},
		{at("IST", 5*3600+1800), "IST-5:30"},
		{at("NST", -(3*3600 + 1800)), "NST+3:30"},
		{at("EST", -5*3600), "EST+5"},
	}
	for _, tt := range tests {
		if got := localTZ(tt.when); got != tt.want {
			t.Errorf("localTZ(%v) = %q, want %q", tt.when, got, tt.want)
		}
	}
	t.Setenv("TZ", "EST5EDT")
	if got := localTZ(at("EST", -5*3600)); got != "EST5EDT" {
		t.Errorf("with $TZ set, localTZ = %q", got)
	}
}
