package pmcd_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// The live tests compare this client with real pmcd and real pminfo on
// localhost. They skip when either is missing, unless PMIE_REQUIRE_PMCD=1,
// when they fail instead (CI installs PCP and sets it).

func requirePMCD() bool { return os.Getenv("PMIE_REQUIRE_PMCD") == "1" }

func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	if requirePMCD() {
		t.Fatalf("PMIE_REQUIRE_PMCD=1 but "+format, args...)
	}
	t.Skipf(format, args...)
}

// live connects to the real pmcd as spec says.
func live(t *testing.T, spec string) *pmcd.Context {
	t.Helper()
	x, err := pmcd.Dial(spec, pmcd.Config{ConnectTimeout: 2 * time.Second,
		Notify: func(e pmcd.Event) { t.Logf("connection %s (pmcd restarted?): %v", e.Kind, e.Err) }})
	if err != nil {
		unavailable(t, "no pmcd at %s: %v", spec, err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// pminfo runs the real pminfo against localhost, without the derived
// metrics libpcp defines on the client side (PCP_DERIVED_CONFIG and its
// built-in event.flags and event.missed): those are pmcd's namespace plus
// the derive package's business, not this client's.
func pminfo(t *testing.T, args ...string) string {
	t.Helper()
	path, err := exec.LookPath("pminfo")
	if err != nil {
		unavailable(t, "no pminfo: %v", err)
	}
	var out, stderr bytes.Buffer
	cmd := exec.Command(path, append([]string{"-h", "localhost"}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &stderr
	cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=")
	if err := cmd.Run(); err != nil {
		t.Fatalf("pminfo %v: %v\n%s", args, err, stderr.String())
	}
	return dropClientMetrics(out.String())
}

// clientMetrics are the metrics libpcp itself defines in every context.
var clientMetrics = []string{"event.flags", "event.missed"}

// dropClientMetrics removes clientMetrics from pminfo's output. libpcp
// lists them after pmcd's namespace, so they and all that follows go,
// with the blank line that starts their block.
func dropClientMetrics(out string) string {
	lines := strings.SplitAfter(out, "\n")
	for i, line := range lines {
		name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		if slices.Contains(clientMetrics, name) && !strings.HasPrefix(line, " ") {
			if i > 0 && lines[i-1] == "\n" {
				i--
			}
			return strings.Join(lines[:i], "")
		}
	}
	return out
}

// blocks splits pminfo output into the lines of each metric, the name
// line first.
func blocks(out string) (names []string, body map[string][]string) {
	body = map[string][]string{}
	for _, b := range strings.Split(strings.TrimPrefix(out, "\n"), "\n\n") {
		lines := strings.Split(strings.TrimRight(b, "\n"), "\n")
		if lines[0] == "" {
			continue
		}
		name, _, _ := strings.Cut(lines[0], " ")
		names = append(names, name)
		body[name] = lines
	}
	return names, body
}

func TestLiveSpecs(t *testing.T) {
	live(t, "localhost")
	want := strings.TrimSpace(strings.Split(pminfo(t, "-f", "pmcd.hostname"), "value ")[1])
	tz := strings.TrimSpace(strings.Split(pminfo(t, "-f", "pmcd.timezone"), "value ")[1])
	for _, spec := range []string{"localhost", "localhost:44321", "pcp://localhost", "local:", "unix:"} {
		src := live(t, spec).Source()
		if strconv.Quote(src.Host) != want || strconv.Quote(src.TZ) != tz || src.Name != (pmcd.Spec{Raw: spec}).String() {
			t.Errorf("%q: source %+v, want host %s tz %s", spec, src, want, tz)
		}
	}
}

// TestLiveNamespace: the whole namespace, as pminfo lists it, from one
// traversal request and from walking the children with pmapi.Traverse;
// every name maps to its PMID and back.
func TestLiveNamespace(t *testing.T) {
	x := live(t, "localhost")
	want := stable(strings.Fields(pminfo(t)))
	got, err := x.TraversePMNS("")
	if err != nil {
		t.Fatal(err)
	}
	got = stable(got)
	if !slices.Equal(got, want) {
		t.Errorf("traversal: %d names, pminfo %d; first difference %s", len(got), len(want), firstDiff(got, want))
	}
	var walked []string
	if err := pmapi.WalkChildren(x, "", func(n string) error { walked = append(walked, n); return nil }); err != nil {
		t.Fatal(err)
	}
	walked = stable(walked)
	if !slices.Equal(walked, want) {
		t.Errorf("children walk: %d names, pminfo %d; first difference %s", len(walked), len(want), firstDiff(walked, want))
	}
	bad := 0
	for _, n := range want {
		id, err := x.LookupName(n)
		if err != nil {
			bad++
			continue
		}
		if names, err := x.NameAll(id); err != nil || !slices.Contains(names, n) {
			bad++
		}
	}
	t.Logf("namespace: %d names, traversal identical: %v, children walk identical: %v, name<->PMID failures: %d",
		len(want), slices.Equal(got, want), slices.Equal(walked, want), bad)
	if bad > 0 {
		t.Errorf("%d names fail LookupName/NameAll", bad)
	}
}

// describeName looks up name's PMID and descriptor.
func describeName(t *testing.T, x *pmcd.Context, name string) (pmapi.PMID, pmapi.Desc) {
	t.Helper()
	id, err := x.LookupName(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := x.LookupDesc(id)
	if err != nil {
		t.Fatal(err)
	}
	return id, d
}

// stable leaves out of names those of the mmv PMDA, whose namespace
// follows the MMV files that other tests (run at the same time by go test
// ./...) create and remove.
func stable(names []string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return strings.HasPrefix(n, "mmv.") })
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d: %q vs %q", i, a[i], b[i])
		}
	}
	return "at the end"
}

// describe renders d as pminfo -d does.
func describe(d pmapi.Desc) []string {
	indom := d.InDom.String() + fmt.Sprintf(" 0x%x", uint32(d.InDom))
	units := d.Units.String()
	if units == "" {
		units = "none"
	}
	return []string{
		fmt.Sprintf("    Data Type: %s  InDom: %s", d.Type.Describe(), indom),
		fmt.Sprintf("    Semantics: %s  Units: %s", d.Sem, units),
	}
}

// TestLiveDescs compares every descriptor with pminfo -d -m.
func TestLiveDescs(t *testing.T) {
	x := live(t, "localhost")
	names, body := blocks(pminfo(t, "-d", "-m"))
	same, lines := 0, 0
	for _, name := range stable(names) {
		want := body[name]
		id, err := x.LookupName(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		d, err := x.LookupDesc(id)
		got := []string{name + " PMID: " + id.String()}
		if err != nil {
			got = append(got, "Error: "+err.Error())
		} else {
			got = append(got, describe(d)...)
		}
		for i := range want {
			lines++
			if i < len(got) && got[i] == want[i] {
				same++
			} else {
				t.Errorf("%s: got %q, pminfo %q", name, got, want)
				break
			}
		}
	}
	t.Logf("pminfo -d -m: %d metrics, %d/%d lines identical", len(names), same, lines)
}

// compareOutput counts the lines of got identical to pminfo's output want,
// position by position, and reports the first differences.
func compareOutput(t *testing.T, what, got, want string) (same, total int) {
	t.Helper()
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	shown := 0
	for i := range w {
		if i < len(g) && g[i] == w[i] {
			same++
		} else if shown++; shown <= 5 {
			gl := "(none)"
			if i < len(g) {
				gl = g[i]
			}
			t.Errorf("%s line %d:\ngot    %q\npminfo %q", what, i+1, gl, w[i])
		}
	}
	if len(g) != len(w) {
		t.Errorf("%s: %d lines, pminfo %d", what, len(g), len(w))
	}
	t.Logf("%s: %d/%d lines identical", what, same, len(w))
	return same, len(w)
}

// TestLiveHelp compares help text with pminfo -T and one-line text with
// pminfo -t, over the whole namespace.
func TestLiveHelp(t *testing.T) {
	x := live(t, "localhost")
	names, err := x.TraversePMNS("")
	if err != nil {
		t.Fatal(err)
	}
	names = stable(names)
	var help, oneline strings.Builder
	for _, name := range names {
		id, err := x.LookupName(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fmt.Fprintf(&help, "\n%s\n%s\n", name, helpBlock(x.Text(uint32(id), pmapi.TextPMID|pmapi.TextHelp)))
		text, err := x.Text(uint32(id), pmapi.TextPMID|pmapi.TextOneLine)
		if err != nil {
			fmt.Fprintf(&oneline, "%s One-line Help: Error: %s\n", name, err)
		} else {
			fmt.Fprintf(&oneline, "%s [%s]\n", name, text)
		}
	}
	compareOutput(t, "pminfo -T", help.String(), pminfo(t, append([]string{"-T"}, names...)...))
	compareOutput(t, "pminfo -t", oneline.String(), pminfo(t, append([]string{"-t"}, names...)...))
}

func helpBlock(text string, err error) string {
	if err != nil {
		return "Full Help: Error: " + err.Error()
	}
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return "Help: <empty entry>"
	}
	return "Help:\n" + text
}

// mergeLabels merges label sets as pmMergeLabelSets does for flat labels:
// later sets override earlier ones, and the result is sorted JSON.
func mergeLabels(sets ...[]pmapi.LabelSet) string {
	m := map[string]string{}
	for _, s := range sets {
		for _, set := range s {
			for _, l := range set.Labels {
				m[l.Name] = l.Value
			}
		}
	}
	if len(m) == 0 {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}) {
		parts = append(parts, strconv.Quote(k)+":"+m[k])
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// volatile are metrics whose instances differ between pminfo's run and
// ours: pmcd's clients (each is one), pmloggers, processes, and the pmie
// processes and MMV files that other tests, run at the same time by go
// test ./..., start and stop.
var volatile = []string{"pmcd.client.", "pmcd.pmlogger.", "pmcd.pmie.", "mmv.", "proc.", "hotproc."}

func isVolatile(name string) bool {
	return slices.ContainsFunc(volatile, func(p string) bool { return strings.HasPrefix(name, p) })
}

// TestLiveLabels compares the labels of every metric and instance with
// pminfo -l (bar the volatile ones). Instances can come and go under pmcd
// between our reading and pminfo's (a PMDA's instance domains change, and
// with them the instances' labels): a metric whose labels differ is read
// again, by both, and must agree within a few readings; one that always
// differs is a difference.
func TestLiveLabels(t *testing.T) {
	x := live(t, "localhost")
	names, err := x.TraversePMNS("")
	if err != nil {
		t.Fatal(err)
	}
	names = slices.DeleteFunc(names, isVolatile)
	gotNames, got := blocks(labelsText(t, x, names))
	wantNames, want := blocks(pminfo(t, append([]string{"-l"}, names...)...))
	if !slices.Equal(gotNames, wantNames) {
		t.Fatalf("pminfo -l lists %d metrics, we %d; first difference %s", len(wantNames), len(gotNames), firstDiff(gotNames, wantNames))
	}
	differ := func() []string {
		return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return slices.Equal(got[n], want[n]) })
	}
	reread := differ()
	for round := 0; round < 5 && len(differ()) > 0; round++ {
		again := differ()
		_, g := blocks(labelsText(t, x, again))
		_, w := blocks(pminfo(t, append([]string{"-l"}, again...)...))
		for _, n := range again {
			got[n], want[n] = g[n], w[n]
		}
	}
	if len(reread) > 0 {
		t.Logf("read again, their instances having changed between the two readings: %v; still different: %v", reread, differ())
	}
	join := func(body map[string][]string) string {
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "\n%s\n", strings.Join(body[n], "\n"))
		}
		return b.String()
	}
	compareOutput(t, "pminfo -l", join(got), join(want))
}

// labelsText is the labels of the metrics names as pminfo -l shows them.
func labelsText(t *testing.T, x *pmcd.Context, names []string) string {
	t.Helper()
	get := func(level pmapi.LabelFlag, id uint32) []pmapi.LabelSet {
		sets, _ := x.Labels(level, id) // as pminfo, an error is no labels
		return sets
	}
	ctxLabels := get(pmapi.LabelContext, 0)
	var out strings.Builder
	for _, name := range names {
		id, d := describeName(t, x, name)
		above := [][]pmapi.LabelSet{ctxLabels, get(pmapi.LabelDomain, uint32(id))}
		if d.InDom != pmapi.InDomNull {
			above = append(above, get(pmapi.LabelInDom, uint32(d.InDom)))
		}
		above = append(above, get(pmapi.LabelCluster, uint32(id)), get(pmapi.LabelItem, uint32(id)))
		fmt.Fprintf(&out, "\n%s\n", name)
		if m := mergeLabels(above...); m != "" {
			fmt.Fprintf(&out, "    labels %s\n", m)
		}
		if d.InDom != pmapi.InDomNull {
			if len(above) == 4 { // pminfo merges the indom level for instances regardless
				above = slices.Insert(above, 2, get(pmapi.LabelInDom, uint32(d.InDom)))
			}
			instanceLabels(t, &out, x, d.InDom, above)
		}
	}
	return out.String()
}

// instanceLabels writes the merged labels of each instance as pminfo -l
// does: one line per instance label set, or per instance if there are no
// sets, named from the instance domain ("DISAPPEARED" if not in it).
func instanceLabels(t *testing.T, out *strings.Builder, x *pmcd.Context, indom pmapi.InDom, above [][]pmapi.LabelSet) {
	// The instance domain first, as pminfo asks: a PMDA such as linux fills
	// in its per-instance labels only once its instances have been asked
	// for, so just after pmcd starts the other order gives fewer labels.
	insts, err := x.InDom(indom)
	if err != nil {
		t.Logf("instances of %s: %v", indom, err)
	}
	sets, err := x.Labels(pmapi.LabelInstances, uint32(indom))
	if err != nil {
		t.Logf("instance labels of %s: %v", indom, err)
	}
	n := len(sets)
	if n == 0 {
		n = len(insts)
	}
	for j := range n {
		var inst int32
		levels := above
		if j < len(sets) {
			inst = sets[j].Inst
			levels = append(slices.Clone(above), sets[j:j+1])
		} else {
			inst = insts[j].ID
		}
		iname := "DISAPPEARED"
		for _, in := range insts {
			if in.ID == inst {
				iname = in.Name
				break
			}
		}
		if m := mergeLabels(levels...); m != "" {
			fmt.Fprintf(out, "    inst [%d or %q] labels %s\n", inst, iname, m)
		}
	}
}

// TestLiveValues compares pminfo -f of the discrete metrics hinv.* and
// kernel.uname.* with our fetches: instances, names and values.
func TestLiveValues(t *testing.T) {
	x := live(t, "localhost")
	names, body := blocks(pminfo(t, "-f", "hinv", "kernel.uname"))
	same, lines := 0, 0
	for _, name := range names {
		want := body[name]
		got := []string{name}
		id, d := describeName(t, x, name)
		var r pmapi.Result
		if err := x.Fetch([]pmapi.PMID{id}, &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, valueLines(t, x, d, r.Sets[0], want)...)
		lines += len(want)
		if slices.Equal(got, want) {
			same += len(want)
		} else {
			t.Errorf("%s:\ngot    %q\npminfo %q", name, got, want)
		}
	}
	t.Logf("pminfo -f hinv kernel.uname: %d metrics, %d/%d lines identical", len(names), same, lines)
}

// valueLines renders a value set as pminfo -f does. Floating point values
// are checked numerically against pminfo's text (want) and then given its
// spelling, since formatting them is pminfo's business, not the client's.
func valueLines(t *testing.T, x *pmcd.Context, d pmapi.Desc, vs pmapi.ValueSet, want []string) []string {
	if vs.Err != nil {
		return []string{"Error: " + vs.Err.Error()}
	}
	if len(vs.Values) == 0 {
		return []string{"No value(s) available!"}
	}
	var out []string
	for i, v := range vs.Values {
		var val string
		a := v.Atom
		switch a.Type {
		case pmapi.TypeString:
			val = strconv.Quote(a.Str())
		case pmapi.Type32, pmapi.Type64:
			val = strconv.FormatInt(a.Int64(), 10)
		case pmapi.TypeU32, pmapi.TypeU64:
			val = strconv.FormatUint(a.Uint64(), 10)
		case pmapi.TypeFloat, pmapi.TypeDouble:
			val = fmt.Sprint(a.Float64())
			if i+1 < len(want) {
				_, w, _ := strings.Cut(want[i+1], "value ")
				if f, err := strconv.ParseFloat(w, 64); err == nil && closeTo(f, a.Float64()) {
					val = w
				}
			}
		default:
			val = fmt.Sprintf("%T", a)
		}
		line := "    value " + val
		if d.InDom != pmapi.InDomNull {
			name, err := x.NameInDom(d.InDom, v.Inst)
			if err != nil {
				t.Fatal(err)
			}
			line = fmt.Sprintf("    inst [%d or %q] value %s", v.Inst, name, val)
		}
		out = append(out, line)
	}
	return out
}

func closeTo(a, b float64) bool {
	diff := a - b
	return diff < 1e-6*max(1, abs(a)) && -diff < 1e-6*max(1, abs(a))
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// TestLiveRestart restarts the real pmcd under a context, which must see
// the loss and reconnect by itself. It disturbs everyone using pmcd, so it
// runs only with PMIE_PMCD_RESTART set to the command that restarts pmcd
// (for example "/etc/init.d/pmcd restart").
func TestLiveRestart(t *testing.T) {
	restart := os.Getenv("PMIE_PMCD_RESTART")
	if restart == "" {
		t.Skip("set PMIE_PMCD_RESTART to the command restarting pmcd")
	}
	var events []string
	x, err := pmcd.Dial("localhost", pmcd.Config{Backoff: []time.Duration{200 * time.Millisecond},
		Notify: func(e pmcd.Event) { events = append(events, e.Kind.String()) }})
	if err != nil {
		unavailable(t, "no pmcd: %v", err)
	}
	defer x.Close()
	id, err := x.LookupName("kernel.all.load")
	if err != nil {
		t.Fatal(err)
	}
	var r pmapi.Result
	if err := x.Fetch([]pmapi.PMID{id}, &r); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("sh", "-c", restart).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", restart, err, out)
	}
	var failed int
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if err = x.Fetch([]pmapi.PMID{id}, &r); err == nil {
			break
		}
		failed++
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil || !slices.Equal(events, []string{"lost", "reconnected"}) || failed == 0 {
		t.Errorf("after restart: %v, events %v, %d failed fetches", err, events, failed)
	}
}

// BenchmarkLiveFetch fetches kernel.all.load and kernel.percpu.cpu.user
// from the real pmcd over TCP, one round trip per iteration.
func BenchmarkLiveFetch(b *testing.B) {
	x, err := pmcd.Dial("localhost", pmcd.Config{})
	if err != nil {
		b.Skipf("no pmcd: %v", err)
	}
	defer x.Close()
	var ids []pmapi.PMID
	for _, n := range []string{"kernel.all.load", "kernel.percpu.cpu.user"} {
		id, err := x.LookupName(n)
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	var r pmapi.Result
	b.ReportAllocs()
	for b.Loop() {
		if err := x.Fetch(ids, &r); err != nil {
			b.Fatal(err)
		}
	}
}
