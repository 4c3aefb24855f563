package agent

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"strings"
	"syscall"
	"testing"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/internal/pdu"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
	"github.com/gopcp/pmie/rules"
)

const archives = "../../testdata/archives/"

// source is an archive as eval binds rules to it: its instance domains
// are every instance the archive holds, as pmie sees them.
type source struct{ c *archive.Context }

func (s source) Host() string                                 { return s.c.Source().Host }
func (s source) LookupName(n string) (pmapi.PMID, error)      { return s.c.LookupName(n) }
func (s source) LookupDesc(id pmapi.PMID) (pmapi.Desc, error) { return s.c.LookupDesc(id) }
func (s source) InDom(d pmapi.InDom) ([]pmapi.Instance, error) {
	return s.c.InDomArchive(d)
}

// loaded is a rule file compiled as pmie -x compiles it over archives
// (the first the default host), with its contexts followed.
type loaded struct {
	prog     *eval.Program
	b        *eval.Builder
	contexts *Contexts
	start    float64
}

// load compiles text over the archives named, as pmie -x does, following
// its contexts from opened on (one per archive, and one for -z).
func load(t *testing.T, text string, opened int, names ...string) *loaded {
	t.Helper()
	srcs := map[string]source{}
	for _, n := range names {
		c, err := archive.Open(archives + n)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		srcs[archives+n] = source{c}
	}
	first := srcs[archives+names[0]].c
	rt := &eval.Runtime{Clock: eval.NewClock()}
	env := &eval.Env{Archive: true, DefaultConn: archives + names[0], Runtime: rt,
		ArchiveOf: func(host string) (string, bool) {
			for conn, s := range srcs {
				if s.Host() == host {
					return conn, true
				}
			}
			return "", false
		},
		Source: func(conn string) (eval.Source, error) {
			if s, ok := srcs[conn]; ok {
				return s, nil
			}
			return nil, pmapi.ErrNoContext
		}}
	l := &loaded{prog: &eval.Program{}, b: &eval.Builder{Env: env}, contexts: NewContexts(opened)}
	start, _ := first.Bounds()
	l.start = float64(start) / 1e9
	rt.Clock.Reflect(l.start, 1, nil)
	comp := &eval.Compiler{B: l.b, Prog: l.prog, Delta: 1, Clock: rt.Clock, Mode: eval.ModeAgent}
	rules.CompileText(comp, "t.pmie", text, rules.Loading{Errs: io.Discard,
		Compiled: func(_ *lang.Stmt, r *eval.Rule) { l.contexts.Statement(r, l.b.MetricInits()) }})
	l.contexts.Loaded(l.b.MetricInits())
	return l
}

// TestContexts checks the senders of the PDUs against what real pmie 6.0.3
// gives (pmie -a ARCHIVE... -x, with the namespace of the rules' names in
// $PMNS_DEFAULT): descriptors come from the context current once the
// rules are read, each task's results from the fetching context of its
// first host.
func TestContexts(t *testing.T) {
	noCtx := int32(pmapi.ErrNoContext)
	for _, c := range []struct {
		name   string
		text   string
		opened int
		arch   []string
		desc   int32
		tasks  []int32 // each task's sender
	}{
		{"two rules", "s.a = kernel.all.load #'1 minute';\ns.b = hinv.ncpu;\n", 1, []string{"linux-v3"}, 2, []int32{2}},
		{"four tasks", "delta = 2 sec;\ns.a = kernel.all.load;\ndelta = 1 sec;\ns.b = hinv.ncpu;\n" +
			"delta = 2 sec;\ns.c = kernel.all.load;\ndelta = 3 sec;\ns.d = hinv.ncpu;\n",
			1, []string{"linux-v3"}, 8, []int32{2, 4, 6, 8}},
		{"two metrics", "s.a = kernel.all.load #'1 minute' + kernel.all.load;\n", 1, []string{"linux-v3"}, 3, []int32{3}},
		{"one not found", "s.a = 1 + no.such.metric;\ns.b = hinv.ncpu;\n", 1, []string{"linux-v3"}, 3, []int32{3}},
		{"last looked up", "s.a = hinv.ncpu;\ns.b = hinv.ncpu > 1 -> print \"x\";\n", 1, []string{"linux-v3"}, noCtx, []int32{2}},
		{"-z", "s.a = hinv.ncpu;\n", 2, []string{"linux-v3"}, 3, []int32{3}},
		{"two hosts", "s.r0 = sum_host hinv.ncpu :alpha :beta;\ns.r1 = hinv.ncpu :beta;\n", 2,
			[]string{"pmie/alpha", "pmie/beta"}, 5, []int32{4}},
		{"no metric", "s.a = $hour;\n", 1, []string{"linux-v3"}, noCtx, []int32{noCtx}},
	} {
		l := load(t, c.text, c.opened, c.arch...)
		if got := l.contexts.Current(); got != c.desc {
			t.Errorf("%s: descriptors from %d, want %d", c.name, got, c.desc)
		}
		for i, task := range rules.ByInterval(l.prog.Rules) {
			l.contexts.Evaluate(task[0])
			if i >= len(c.tasks) || l.contexts.Current() != c.tasks[i] {
				t.Errorf("%s: task %d from %d, want %v", c.name, i, l.contexts.Current(), c.tasks)
			}
		}
	}
}

// run evaluates l's rules over its archives as pmie -x does, with each
// name's PMID the next of domain 27, and returns what was written.
func run(t *testing.T, l *loaded, steps int) []byte {
	t.Helper()
	var buf bytes.Buffer
	out := bufio.NewWriter(&buf)
	ids := map[string]pmapi.PMID{}
	w := &Writer{Contexts: l.contexts, Lookup: func(name string) (pmapi.PMID, error) {
		if !strings.HasPrefix(name, "s.") {
			return pmapi.PMIDNull, pmapi.ErrName
		}
		if _, ok := ids[name]; !ok {
			ids[name] = pmapi.NewPMID(27, 0, uint32(len(ids)))
		}
		return ids[name], nil
	}}
	if err := w.Start(rules.ByInterval(l.prog.Rules), out); err != nil {
		t.Fatal(err)
	}
	stop := l.start + float64(steps-1)
	eng := rules.New(rules.Config{Archive: true, Start: l.start, Stop: stop, Out: out, Report: w.Result,
		Open: func(conn string) (pmapi.Context, error) { return archive.Open(conn) }}, l.b, l.prog)
	if err := eng.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// split cuts b into its PDUs.
func split(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	r := bytes.NewReader(b)
	for r.Len() > 0 {
		p, err := pdu.Read(r, nil, pdu.DefaultMaxLen)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, append([]byte(nil), p...))
	}
	return out
}

// TestDescriptorsAndValues checks what each kind of expression is sent as:
// its descriptor (semantics and units, or pmie's own as instantaneous
// values) and its values (the first value, truths as their bytes, no value
// when it is not a finite number, PM_ERR_VALUE while unknown).
func TestDescriptorsAndValues(t *testing.T) {
	l := load(t, `s.load = kernel.all.load #'1 minute';
s.ncpu = hinv.ncpu;
s.busy = kernel.all.load > 0;
s.reads = disk.dev.read;
s.inf = hinv.ncpu / 0;
s.release = kernel.uname.release;
s.mix = hinv.ncpu * 2 Mbyte/min;
`, 1, "linux-v3")
	pdus := split(t, run(t, l, 3))
	if len(pdus) != 7+3 {
		t.Fatalf("%d PDUs, want 7 descriptors and 3 results", len(pdus))
	}
	sec := pmapi.Units{ScaleTime: pmapi.TimeSec}
	want := []pmapi.Desc{
		{Type: pmapi.TypeDouble, Sem: pmapi.SemInstant, Units: sec},
		{Type: pmapi.TypeDouble, Sem: pmapi.SemDiscrete, Units: sec},
		{Type: pmapi.TypeDouble, Sem: pmapi.SemInstant},
		{Type: pmapi.TypeDouble, Sem: pmapi.SemInstant, Units: pmapi.Units{DimTime: -1, DimCount: 1, ScaleTime: pmapi.TimeSec}},
		{Type: pmapi.TypeDouble, Sem: pmapi.SemDiscrete, Units: sec},
		{Type: pmapi.TypeDouble, Sem: pmapi.SemDiscrete, Units: sec},
		{Type: pmapi.TypeDouble, Sem: pmapi.SemDiscrete, Units: pmapi.Units{DimSpace: 1, DimTime: -1, ScaleTime: pmapi.TimeSec}},
	}
	for i, p := range pdus[:7] {
		d, err := pdu.DecodeDesc(p)
		if err != nil {
			t.Fatal(err)
		}
		want[i].PMID, want[i].InDom = pmapi.NewPMID(27, 0, uint32(i)), pmapi.InDomNull
		if d != want[i] {
			t.Errorf("descriptor %d: %+v, want %+v", i, d, want[i])
		}
	}
	var r pmapi.Result
	if err := pdu.DecodeResult(pdus[7], &r, nil); err != nil {
		t.Fatal(err)
	}
	for i, vs := range r.Sets {
		// the first evaluation: a counter has no rate yet
		if i == 3 && vs.Err != pmapi.ErrValue {
			t.Errorf("first result: reads %+v, want PM_ERR_VALUE", vs)
		}
	}
	if err := pdu.DecodeResult(pdus[9], &r, nil); err != nil {
		t.Fatal(err)
	}
	if r.Time != 0 {
		t.Errorf("result time %v, want 0 (pmie never sets it)", r.Time)
	}
	one := func(i int) (float64, bool) {
		vs := r.Sets[i]
		if vs.Err != nil || len(vs.Values) != 1 || vs.Values[0].Inst != pmapi.InNull {
			return 0, false
		}
		return vs.Values[0].Atom.Float64(), true
	}
	if v, ok := one(1); !ok || v != 2 {
		t.Errorf("hinv.ncpu: %v %v, want 2", v, ok)
	}
	if v, ok := one(2); !ok || math.Float64bits(v) != 0x010101 {
		t.Errorf("truths: %#x %v, want the bytes 01 01 01", math.Float64bits(v), ok)
	}
	if v, ok := one(3); !ok || v < 0 {
		t.Errorf("reads: %v %v, want a rate", v, ok)
	}
	for _, i := range []int{4, 5} { // an infinite number; a string
		if vs := r.Sets[i]; vs.Err != nil || len(vs.Values) != 0 {
			t.Errorf("set %d: %+v, want no value", i, vs)
		}
	}
}

// TestNameNotFound checks that a name the namespace lacks stops the start
// after the tasks before it are described.
func TestNameNotFound(t *testing.T) {
	l := load(t, "s.a = hinv.ncpu;\ndelta = 3 sec;\ns.b = hinv.ncpu;\nbad = hinv.ncpu;\n", 1, "linux-v3")
	var buf bytes.Buffer
	out := bufio.NewWriter(&buf)
	w := &Writer{Contexts: l.contexts, Lookup: func(name string) (pmapi.PMID, error) {
		if name == "bad" {
			return pmapi.PMIDNull, pmapi.ErrNonLeaf
		}
		return pmapi.NewPMID(27, 0, 1), nil
	}}
	err := w.Start(rules.ByInterval(l.prog.Rules), out)
	want := "agentId: metric bad not found in namespace: Metric name is not a leaf in PMNS"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	out.Flush()
	if n := len(split(t, buf.Bytes())); n != 1 {
		t.Errorf("%d descriptors sent, want the first task's one", n)
	}
}

// TestSendError checks that a result that cannot be written is a
// SendError, which pmie reports in its words.
func TestSendError(t *testing.T) {
	l := load(t, "s.a = hinv.ncpu;\n", 1, "linux-v3")
	w := &Writer{Contexts: l.contexts, Lookup: func(string) (pmapi.PMID, error) { return 1, nil }}
	out := bufio.NewWriterSize(failing{}, 16)
	err := w.Result(l.prog.Rules, out)
	if err == nil || err.Error() != "Error: __pmSendResult to summary agent failed: Broken pipe" {
		t.Errorf("error %v", err)
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, syscall.EPIPE }
