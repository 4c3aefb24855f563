//go:build linux

package local

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/realtest"
	"github.com/gopcp/pmie/pmapi"
)

// These tests compare the collector with real pmcd and its linux PMDA on
// the same machine. They skip when pmcd is not there, unless
// PMIE_REQUIRE_PMCD=1, when they fail instead.

func requirePMCD(t *testing.T) { realtest.Require(t, realtest.Pmcd) }

func pminfo(t *testing.T, args ...string) string { return realtest.Pminfo(t, args...) }

func allNames() []string {
	names := make([]string, len(space().metrics))
	for i := range space().metrics {
		names[i] = space().metrics[i].name
	}
	return names
}

// descBlock renders a metric's descriptor as pminfo -d -m prints it.
func descBlock(c *Context, m *metric) string {
	d, _ := c.LookupDesc(m.pmid)
	indom := fmt.Sprintf("%v 0x%x", d.InDom, uint32(d.InDom))
	units := d.Units.String()
	if units == "" {
		units = "none" // as pminfo prints dimensionless units
	}
	return fmt.Sprintf("\n%s PMID: %v\n    Data Type: %s  InDom: %s\n    Semantics: %s  Units: %s\n",
		m.name, d.PMID, d.Type.Describe(), indom, d.Sem, units)
}

// TestLiveDescriptors checks our descriptors print exactly as real
// pminfo -d -m prints pmcd's.
func TestLiveDescriptors(t *testing.T) {
	requirePMCD(t)
	c := openLive(t)
	real := strings.Split(pminfo(t, append([]string{"-d", "-m"}, allNames()...)...), "\n")
	var ours strings.Builder
	for i := range space().metrics {
		ours.WriteString(descBlock(c, &space().metrics[i]))
	}
	mine := strings.Split(ours.String(), "\n")
	same := 0
	for i := range real {
		if i < len(mine) && mine[i] == real[i] {
			same++
		} else if i < len(mine) {
			t.Errorf("line %d differs:\n\tours %q\n\treal %q", i+1, mine[i], real[i])
		}
	}
	if len(mine) != len(real) {
		t.Errorf("%d lines, real pminfo %d", len(mine), len(real))
	}
	t.Logf("pminfo -d -m over %d metrics: %d/%d lines identical", len(space().metrics), same, len(real))
}

// TestLiveHelp checks our help text matches pmcd's.
func TestLiveHelp(t *testing.T) {
	requirePMCD(t)
	c := openLive(t)
	real := pminfo(t, append([]string{"-t", "-T"}, allNames()...)...)
	var ours strings.Builder
	for i := range space().metrics {
		m := &space().metrics[i]
		one, _ := c.Text(uint32(m.pmid), pmapi.TextPMID|pmapi.TextOneLine)
		help, _ := c.Text(uint32(m.pmid), pmapi.TextPMID|pmapi.TextHelp)
		fmt.Fprintf(&ours, "\n%s [%s]\nHelp:\n%s\n", m.name, one, help)
	}
	if ours.String() != real {
		t.Errorf("pminfo -t -T text differs from ours")
	}
}

func openLive(t *testing.T) *Context {
	t.Helper()
	c, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// sample is one metric's values as pminfo -f prints them: instance name
// (or "" for a singular metric) to value text.
type sample map[string]string

var (
	metricLine = regexp.MustCompile(`^([a-zA-Z][\w.]*)$`)
	valueLine  = regexp.MustCompile(`^    (?:inst \[(-?\d+) or "(.*)"\] )?value (.*)$`)
)

// parseFetch reads pminfo -f output: metric name to instance "id name"
// to value.
func parseFetch(out string) map[string]sample {
	res := map[string]sample{}
	var cur sample
	for _, line := range strings.Split(out, "\n") {
		if m := metricLine.FindStringSubmatch(line); m != nil {
			cur = sample{}
			res[m[1]] = cur
			continue
		}
		if m := valueLine.FindStringSubmatch(line); m != nil && cur != nil {
			key := ""
			if m[1] != "" {
				key = m[1] + " " + m[2]
			}
			cur[key] = m[3]
		}
	}
	return res
}

// ourSample renders our values like parseFetch's result.
func ourSample(c *Context, m *metric, vs *pmapi.ValueSet) sample {
	s := sample{}
	names := map[int32]string{}
	if m.indom != pmapi.InDomNull {
		insts, _ := c.InDom(m.indom)
		for _, in := range insts {
			names[in.ID] = in.Name
		}
	}
	for _, v := range vs.Values {
		key := ""
		if m.indom != pmapi.InDomNull {
			key = strconv.Itoa(int(v.Inst)) + " " + names[v.Inst]
		}
		if v.Atom.Type == pmapi.TypeString {
			s[key] = strconv.Quote(v.Atom.Str())
		} else {
			s[key] = strconv.FormatFloat(v.Atom.Float64(), 'g', -1, 64)
		}
	}
	return s
}

// TestLiveValues samples pmcd, then us, then pmcd again, and checks each
// of our values against pmcd's: the same instances; strings and discrete
// values equal; counters within the change pmcd saw across the gap;
// instantaneous values within 5% (or, for small counts of things like
// running processes, within a few). On a busy machine the instantaneous
// counts jump about (kernel.all.running by ten between two samplings of
// every metric at load 10), so the metrics with a value that disagrees
// are sampled again, by themselves (a sampling of a few metrics is
// quicker, so the counts have less time to move), up to ten rounds in
// all; a value must agree in one of them.
func TestLiveValues(t *testing.T) {
	requirePMCD(t)
	c := openLive(t)
	pending := map[string]string{} // "metric[inst]" -> why it disagrees
	agreed := map[string]bool{}
	firstRound, rounds := 0, 0
	todo := space().metrics
	for ; rounds < 10 && len(todo) > 0; rounds++ {
		ids := make([]pmapi.PMID, len(todo))
		args := []string{"-f"}
		for i := range todo {
			ids[i] = todo[i].pmid
			args = append(args, todo[i].name)
		}
		before := parseFetch(pminfo(t, args...))
		var r pmapi.Result
		if err := c.Fetch(ids, &r); err != nil {
			t.Fatal(err)
		}
		after := parseFetch(pminfo(t, args...))
		var again []metric
		for i := range todo {
			m := &todo[i]
			if !agreeAll(c, m, &r.Sets[i], before[m.name], after[m.name], pending, agreed) {
				again = append(again, *m)
			}
		}
		todo = again
		if rounds == 0 {
			firstRound = len(agreed)
		}
	}
	for key, why := range pending {
		t.Errorf("%s: %s", key, why)
	}
	t.Logf("side by side over %d metrics: %d values agree on the first sampling, %d of %d in the end, after %d rounds",
		len(space().metrics), firstRound, len(agreed), len(agreed)+len(pending), rounds)
}

// agreeAll checks our values vs of metric m against pmcd's before (b)
// and after (a), recording in agreed the values that agree and in pending
// why the others do not. It reports whether m is done with (every value
// agreed); one whose instances changed while it was sampled is not.
func agreeAll(c *Context, m *metric, vs *pmapi.ValueSet, b, a sample, pending map[string]string, agreed map[string]bool) bool {
	ours := ourSample(c, m, vs)
	if !sameKeys(b, a) {
		return false // an instance came or went while sampling
	}
	if !sameKeys(ours, b) {
		pending[m.name] = fmt.Sprintf("instances differ: ours %v, pmcd %v", ours, b)
		return false
	}
	delete(pending, m.name)
	done := true
	for inst, v := range ours {
		key := m.name + "[" + inst + "]"
		if agreed[key] {
			continue
		}
		if why := disagree(m, v, b[inst], a[inst]); why != "" {
			pending[key] = fmt.Sprintf("ours %s, pmcd %s then %s: %s", v, b[inst], a[inst], why)
			done = false
			continue
		}
		delete(pending, key)
		agreed[key] = true
	}
	return done
}

func sameKeys(a, b sample) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

// processCounts are gauges of how many processes there are, which the
// samplers themselves move by a few.
var processCounts = map[string]bool{
	"kernel.all.nprocs": true, "proc.nprocs": true, "kernel.all.runnable": true,
	"kernel.all.running": true, "kernel.all.blocked": true, "kernel.all.lastpid": true,
}

// observedMemory lists memory gauges that include the observer: pmcd reads
// them while the pminfo process asking for them is alive, with its shared
// libraries mapped, and we read them with no pminfo running. On a quiet
// machine one PCP client's mappings (1-2 Mbyte) are more than 5% of them, so
// they get that much absolute slack (in Kbyte) on top of the 5%.
var observedMemory = map[string]float64{
	"mem.util.mapped": 4096,
}

func disagree(m *metric, ours, before, after string) string {
	if m.typ == pmapi.TypeString {
		if ours != before && ours != after {
			return "strings differ"
		}
		return ""
	}
	v, err1 := strconv.ParseFloat(ours, 64)
	b, err2 := strconv.ParseFloat(before, 64)
	a, err3 := strconv.ParseFloat(after, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return "not numbers"
	}
	lo, hi := math.Min(a, b), math.Max(a, b)
	switch {
	case m.sem == pmapi.SemCounter:
		gap := hi - lo
		if v < lo-gap || v > hi+gap {
			return fmt.Sprintf("counter outside the change over the gap (%g)", gap)
		}
	case m.sem == pmapi.SemDiscrete && m.name != "kernel.all.uptime":
		if v != a && v != b {
			return "discrete values differ"
		}
	case processCounts[m.name]:
		if v < lo-3 || v > hi+3 {
			return "process count differs by more than 3"
		}
	case m.name == "kernel.all.uptime" || m.name == "kernel.all.idletime":
		if v < lo || v > hi {
			return "outside the sampling gap"
		}
	default:
		if v >= lo && v <= hi {
			return ""
		}
		tol := 0.05*math.Max(math.Abs(lo), math.Abs(hi)) + observedMemory[m.name]
		if v < lo-tol || v > hi+tol {
			return "gauge differs by more than 5%"
		}
	}
	return ""
}

// TestLiveInstances checks each instance domain's members, numbers and
// names against pmcd's, through a metric that has a value for every
// member.
func TestLiveInstances(t *testing.T) {
	requirePMCD(t)
	c := openLive(t)
	probes := map[string]pmapi.InDom{
		"kernel.percpu.cpu.user":     pmapi.NewInDom(60, 0),
		"disk.dev.read":              pmapi.NewInDom(60, 1),
		"kernel.all.load":            pmapi.NewInDom(60, 2),
		"network.interface.in.bytes": pmapi.NewInDom(60, 3),
		"filesys.mountdir":           pmapi.NewInDom(60, 5),
	}
	same := 0
	for name, indom := range probes {
		out := strings.TrimSpace(pminfo(t, "-f", name))
		var real []string
		for _, line := range strings.Split(out, "\n") {
			if m := valueLine.FindStringSubmatch(line); m != nil {
				real = append(real, m[1]+" "+strconv.Quote(m[2]))
			}
		}
		insts, err := c.InDom(indom)
		if err != nil {
			t.Errorf("InDom(%v): %v", indom, err)
			continue
		}
		var ours []string
		for _, in := range insts {
			ours = append(ours, strconv.Itoa(int(in.ID))+" "+strconv.Quote(in.Name))
		}
		if strings.Join(ours, ", ") != strings.Join(real, ", ") {
			t.Errorf("instance domain %v: ours %v, pmcd %v", indom, ours, real)
			continue
		}
		same++
		t.Logf("%v: %s", indom, strings.Join(ours, ", "))
	}
	t.Logf("%d/%d instance domains identical", same, len(probes))
}

// TestLiveSource checks the host name and timezone we report against
// pmcd's.
func TestLiveSource(t *testing.T) {
	requirePMCD(t)
	c := openLive(t)
	real := parseFetch(pminfo(t, "-f", "pmcd.hostname", "pmcd.timezone"))
	src := c.Source()
	if src.Kind != pmapi.SourceLocal {
		t.Errorf("source kind %v", src.Kind)
	}
	if got, want := strconv.Quote(src.Host), real["pmcd.hostname"][""]; got != want {
		t.Errorf("host %s, pmcd says %s", got, want)
	}
	if got, want := strconv.Quote(src.TZ), real["pmcd.timezone"][""]; got != want {
		t.Errorf("timezone %s, pmcd says %s", got, want)
	}
}
