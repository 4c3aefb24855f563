package synth

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/realtest"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
)

var nan = math.NaN()

var t0 = pmapi.TimeOf(1700000000, 0)

// testArchive is a host with a metric of each semantics, over two
// instances, with a gap at the start, in the middle and at the end.
func testArchive(t testing.TB) *Archive {
	a, err := New("alpha", "UTC", t0, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	add := func(name string, typ pmapi.Type, sem pmapi.Sem, singular bool, series map[string][]float64, order ...string) {
		m, err := a.AddMetric(name, typ, sem, pmapi.Units{DimCount: 1}, singular)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range order {
			if err := m.AddSeries(in, series[in]); err != nil {
				t.Fatal(err)
			}
		}
	}
	gappy := []float64{nan, 100, 200, nan, 400, 500, nan, nan, 800, nan}
	full := []float64{0, 10, 20, 30, 40, 50, 60, 70, 80, 90}
	add("t.ctr", pmapi.TypeU64, pmapi.SemCounter, false, map[string][]float64{"a": gappy, "b": full}, "a", "b")
	add("t.inst", pmapi.TypeDouble, pmapi.SemInstant, false, map[string][]float64{"a": gappy, "b": full}, "a", "b")
	add("t.disc", pmapi.Type32, pmapi.SemDiscrete, false, map[string][]float64{"a": gappy, "b": full}, "a", "b")
	add("t.fctr", pmapi.TypeFloat, pmapi.SemCounter, true, map[string][]float64{"": {1.5, nan, 2.25, 7, nan}}, "")
	return a
}

// fetchAll reads every metric of a from t on by delta, n times, as
// "time metric inst=value ..." lines.
func fetchAll(t *testing.T, c pmapi.Context, a *Archive, mode pmapi.Mode, start pmapi.Time, delta time.Duration, n int) string {
	t.Helper()
	s, ok := c.(pmapi.Seeker)
	if !ok {
		t.Fatal("not a Seeker")
	}
	if err := s.SetMode(mode, start, delta); err != nil {
		t.Fatal(err)
	}
	var ids []pmapi.PMID
	for _, m := range a.Metrics() {
		id, err := c.LookupName(m.Name)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	var b strings.Builder
	var r pmapi.Result
	for range n {
		err := c.Fetch(ids, &r)
		if err != nil {
			fmt.Fprintf(&b, "%v\n", err)
			continue
		}
		fmt.Fprintf(&b, "%s", r.Time.Std().Format("15:04:05.000"))
		for j, vs := range r.Sets {
			fmt.Fprintf(&b, " %s", a.Metrics()[j].Name)
			for _, v := range vs.Values {
				fmt.Fprintf(&b, " %d=%s", v.Inst, strconv.FormatFloat(v.Atom.Float64(), 'g', -1, 64))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestInterp(t *testing.T) {
	a := testArchive(t)
	got := fetchAll(t, a.Open("x"), a, pmapi.ModeInterp, t0, 5*time.Second, 20)
	// at sample times the samples; between them (and in gaps) counters
	// on the line between their neighbours, instants the prior sample
	// while a later one exists, discrete values the prior sample; the
	// archive's records end at 22:14:50 (the last sample with a value)
	want := `22:13:20.000 t.ctr 1=0 t.inst 1=0 t.disc 1=0 t.fctr -1=1.5
22:13:25.000 t.ctr 1=5 t.inst 1=0 t.disc 1=0 t.fctr -1=1.6875
22:13:30.000 t.ctr 0=100 1=10 t.inst 0=100 1=10 t.disc 0=100 1=10 t.fctr -1=1.875
22:13:35.000 t.ctr 0=150 1=15 t.inst 0=100 1=10 t.disc 0=100 1=10 t.fctr -1=2.0625
22:13:40.000 t.ctr 0=200 1=20 t.inst 0=200 1=20 t.disc 0=200 1=20 t.fctr -1=2.25
22:13:45.000 t.ctr 0=250 1=25 t.inst 0=200 1=20 t.disc 0=200 1=20 t.fctr -1=4.625
22:13:50.000 t.ctr 0=300 1=30 t.inst 0=200 1=30 t.disc 0=200 1=30 t.fctr -1=7
22:13:55.000 t.ctr 0=350 1=35 t.inst 0=200 1=30 t.disc 0=200 1=30 t.fctr
22:14:00.000 t.ctr 0=400 1=40 t.inst 0=400 1=40 t.disc 0=400 1=40 t.fctr
22:14:05.000 t.ctr 0=450 1=45 t.inst 0=400 1=40 t.disc 0=400 1=40 t.fctr
22:14:10.000 t.ctr 0=500 1=50 t.inst 0=500 1=50 t.disc 0=500 1=50 t.fctr
22:14:15.000 t.ctr 0=550 1=55 t.inst 0=500 1=50 t.disc 0=500 1=50 t.fctr
22:14:20.000 t.ctr 0=600 1=60 t.inst 0=500 1=60 t.disc 0=500 1=60 t.fctr
22:14:25.000 t.ctr 0=650 1=65 t.inst 0=500 1=60 t.disc 0=500 1=60 t.fctr
22:14:30.000 t.ctr 0=700 1=70 t.inst 0=500 1=70 t.disc 0=500 1=70 t.fctr
22:14:35.000 t.ctr 0=750 1=75 t.inst 0=500 1=70 t.disc 0=500 1=70 t.fctr
22:14:40.000 t.ctr 0=800 1=80 t.inst 0=800 1=80 t.disc 0=800 1=80 t.fctr
22:14:45.000 t.ctr 1=85 t.inst 1=80 t.disc 0=800 1=80 t.fctr
22:14:50.000 t.ctr 1=90 t.inst 1=90 t.disc 0=800 1=90 t.fctr
End of PCP archive log
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestSameAsArchive writes the test archive with PCP's pmi module and
// checks that it reads back, through pmapi/archive (libpcp's
// interpolation, value for value), exactly as the synthetic context
// reads, on and off the sample times.
func TestSameAsArchive(t *testing.T) {
	realtest.Require(t, realtest.PCPPython)
	a := testArchive(t)
	dir := t.TempDir()
	base := filepath.Join(dir, "alpha")
	spec, err := json.Marshal(Specs{Hosts: []Spec{a.Spec(base)}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "input.json")
	if err := os.WriteFile(file, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(realtest.Python, "../../scripts/pmietest-archive.py", file).CombinedOutput(); err != nil {
		t.Fatalf("pmietest-archive.py: %v\n%s", err, out)
	}
	for _, c := range []struct {
		mode  pmapi.Mode
		start time.Duration
		delta time.Duration
		n     int
	}{
		{pmapi.ModeInterp, 0, 10 * time.Second, 11},
		{pmapi.ModeInterp, 0, 5 * time.Second, 20},
		{pmapi.ModeInterp, -7 * time.Second, 3300 * time.Millisecond, 32},
		{pmapi.ModeInterp, 95 * time.Second, -2500 * time.Millisecond, 45},
		{pmapi.ModeForw, -5 * time.Second, 0, 12},
		{pmapi.ModeForw, 35 * time.Second, 0, 3},
		{pmapi.ModeBack, 200 * time.Second, 0, 12},
		{pmapi.ModeBack, 35 * time.Second, 0, 3},
	} {
		real, err := archive.Open(base)
		if err != nil {
			t.Fatal(err)
		}
		from := t0.Add(c.start)
		want := fetchAll(t, real, a, c.mode, from, c.delta, c.n)
		real.Close()
		if got := fetchAll(t, a.Open(base), a, c.mode, from, c.delta, c.n); got != want {
			t.Errorf("mode %d from %v by %v: synthetic\n%s\narchive\n%s", c.mode, c.start, c.delta, got, want)
		}
	}
}

func TestMetadata(t *testing.T) {
	a := testArchive(t)
	c := a.Open("conn")
	if s := c.Source(); s.Kind != pmapi.SourceArchive || s.Host != "alpha" || s.Name != "conn" || s.TZ != "UTC" {
		t.Errorf("source %+v", s)
	}
	kids, err := c.Children("")
	if err != nil || fmt.Sprint(kids) != "[{t false}]" {
		t.Errorf("children of the root: %v %v", kids, err)
	}
	kids, err = c.Children("t")
	if err != nil || fmt.Sprint(kids) != "[{ctr true} {disc true} {fctr true} {inst true}]" {
		t.Errorf("children of t: %v %v", kids, err)
	}
	if kids, err := c.Children("t.ctr"); err != nil || len(kids) != 0 {
		t.Errorf("children of a leaf: %v %v", kids, err)
	}
	if _, err := c.Children("t.nope"); err != pmapi.ErrName {
		t.Errorf("children of nothing: %v", err)
	}
	id, err := c.LookupName("t.disc")
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.LookupDesc(id)
	if err != nil || d.Type != pmapi.Type32 || d.Sem != pmapi.SemDiscrete || d.PMID.Domain() != Domain || d.InDom == pmapi.InDomNull {
		t.Errorf("descriptor %+v %v", d, err)
	}
	if names, err := c.NameAll(id); err != nil || fmt.Sprint(names) != "[t.disc]" {
		t.Errorf("names %v %v", names, err)
	}
	insts, err := c.InDom(d.InDom)
	if err != nil || fmt.Sprint(insts) != "[{0 a} {1 b}]" {
		t.Errorf("instances %v %v", insts, err)
	}
	if _, err := c.LookupName("t.nope"); err != pmapi.ErrName {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := c.LookupDesc(pmapi.NewPMID(1, 2, 3)); err != pmapi.ErrPMIDLog {
		t.Errorf("unknown PMID: %v", err)
	}
	if first, last := c.Bounds(); first != t0 || last != t0.Add(90*time.Second) {
		t.Errorf("bounds %v %v", first, last)
	}
	if err := c.SetMode(pmapi.Mode(9), t0, 0); err != pmapi.ErrMode {
		t.Errorf("bad mode: %v", err)
	}
}

func TestBadInput(t *testing.T) {
	if _, err := New("h", "UTC", t0, 0); err == nil {
		t.Error("a zero interval is accepted")
	}
	a, _ := New("h", "UTC", t0, time.Second)
	for _, name := range []string{"", "a..b", "1a", "a.b-c", ".a"} {
		if _, err := a.AddMetric(name, pmapi.TypeDouble, pmapi.SemInstant, pmapi.Units{}, true); err == nil {
			t.Errorf("metric name %q is accepted", name)
		}
	}
	if _, err := a.AddMetric("s", pmapi.TypeString, pmapi.SemInstant, pmapi.Units{}, true); err == nil {
		t.Error("a string metric is accepted")
	}
	m, _ := a.AddMetric("m", pmapi.Type32, pmapi.SemInstant, pmapi.Units{}, false)
	if _, err := a.AddMetric("m", pmapi.Type32, pmapi.SemInstant, pmapi.Units{}, false); err == nil {
		t.Error("a metric is added twice")
	}
	for _, c := range []struct {
		inst string
		vals []float64
	}{
		{"", []float64{1}},            // no instance
		{"x", []float64{1.5}},         // a fraction
		{"y", []float64{1 << 31}},     // out of range
		{"z", []float64{math.Inf(1)}}, // not a number
	} {
		if err := m.AddSeries(c.inst, c.vals); err == nil {
			t.Errorf("series %q %v is accepted", c.inst, c.vals)
		}
	}
	if err := m.AddSeries("ok", []float64{1, nan}); err != nil {
		t.Error(err)
	}
	if err := m.AddSeries("ok", []float64{2}); err == nil {
		t.Error("an instance is given twice")
	}
}
