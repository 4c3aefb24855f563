package rules

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
)

// failingContext is an archive context whose fetches are counted across
// every context sharing the counter; the fetch numbered failAt (from 0)
// fails as a bad record does. A fetch after the engine has stopped is an
// error of the test.
type failingContext struct {
	*archive.Context
	c *fetchCounter
}

type fetchCounter struct {
	mu      sync.Mutex
	n       int
	failAt  int // -1: never
	stopped bool
	late    int // fetches after stopped was set
}

func (f *failingContext) Fetch(ids []pmapi.PMID, r *pmapi.Result) error {
	f.c.mu.Lock()
	n := f.c.n
	f.c.n++
	if f.c.stopped {
		f.c.late++
	}
	f.c.mu.Unlock()
	if n == f.c.failAt {
		return fmt.Errorf("record at offset 1234: %w", pmapi.ErrLogRec)
	}
	return f.Context.Fetch(ids, r)
}

// runAlpha evaluates, over the test archive alpha, rules in two tasks (of
// 4 and 3 seconds) and returns what they printed, the error Run gave and
// the fetch counter.
func runAlpha(t *testing.T, failAt int) (string, error, *fetchCounter) {
	t.Helper()
	const name = "../testdata/archives/pmie/alpha"
	meta, err := archive.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer meta.Close()
	counter := &fetchCounter{failAt: failAt}
	var opened []pmapi.Context
	defer func() {
		for _, c := range opened {
			c.Close()
		}
	}()
	rt := &eval.Runtime{Clock: eval.NewClock()}
	env := &eval.Env{Archive: true, DefaultConn: name, Runtime: rt,
		Source: func(string) (eval.Source, error) { return ctxSource{meta}, nil }}
	b := &eval.Builder{Env: env}
	prog := &eval.Program{}
	add := func(rule string, x *eval.Node, delta float64) {
		b.Begin()
		if b.Statement(prog, rule, x, delta) == nil {
			t.Fatalf("rule %s not accepted", rule)
		}
	}
	add("load", b.Fetch("kernel.all.load", nil, []string{"1 minute"}, 0, 0), 4)
	add("free", b.Fetch("mem.util.free", nil, nil, 0, 0), 4)
	add("odd", b.Fetch("mem.util.free", nil, nil, 0, 1), 3)
	start, end := meta.Bounds()
	var out strings.Builder
	cfg := Config{Archive: true, Start: realTime(start), Stop: realTime(end), Verbose: 1, ShowTime: true,
		Out:        &out,
		TimeString: func(sec float64) string { return time.Unix(int64(sec), 0).UTC().Format(time.TimeOnly) },
		Open: func(conn string) (pmapi.Context, error) {
			c, err := archive.Open(conn)
			if err != nil {
				return nil, err
			}
			opened = append(opened, c)
			return &failingContext{Context: c, c: counter}, nil
		},
	}
	e := New(cfg, b, prog)
	err = e.Run(t.Context())
	counter.mu.Lock()
	counter.stopped = true
	counter.mu.Unlock()
	return out.String(), err, counter
}

// TestPipelineOrder checks that archive evaluation with its fetches
// running ahead prints every evaluation of two interleaved tasks in time
// order, and that a fetch failing for good ends evaluation with pmie's
// message after the evaluations before it were printed in full, with no
// fetch made after Run has returned: on one processor and on two, whose
// pipelines differ in shape.
func TestPipelineOrder(t *testing.T) {
	for _, procs := range []int{1, 2} {
		t.Run(fmt.Sprint(procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			pipelineOrder(t)
		})
	}
}

func pipelineOrder(t *testing.T) {
	whole, err, c := runAlpha(t, -1)
	if err != nil {
		t.Fatal(err)
	}
	batchSteps, batches := pipelineShape(runtime.GOMAXPROCS(0))
	blocks := strings.SplitAfter(whole, "\n\n")
	blocks = blocks[:len(blocks)-1] // the empty string after the last
	if len(blocks) != c.n || len(blocks) < (batches+1)*batchSteps {
		t.Fatalf("%d evaluations printed, %d fetches; want equal, and more than %d batches of %d:\n%s", len(blocks), c.n, batches, batchSteps, whole)
	}
	t.Logf("%d evaluations, %d fetches", len(blocks), c.n)
	last := ""
	for _, blk := range blocks {
		stamp := blk[strings.Index(blk, "(")+1 : strings.Index(blk, ")")]
		if stamp < last {
			t.Fatalf("evaluation at %s printed after one at %s:\n%s", stamp, last, whole)
		}
		last = stamp
	}
	for _, failAt := range []int{0, 1, batchSteps - 1, batchSteps, batchSteps + 1, 2*batchSteps + 3, len(blocks) - 1} {
		got, err, c := runAlpha(t, failAt)
		if err == nil || !strings.HasPrefix(err.Error(), "pmFetch failed: ") || pmapi.Code(err) != pmapi.ErrLogRec {
			t.Errorf("fetch %d failing: Run gave %v, want pmFetch failed: ...", failAt, err)
		}
		if want := strings.Join(blocks[:failAt], ""); got != want {
			t.Errorf("fetch %d failing: printed\n%s\nwant\n%s", failAt, got, want)
		}
		if c.late > 0 {
			t.Errorf("fetch %d failing: %d fetches after Run returned", failAt, c.late)
		}
	}
}

// TestFetchedColumns checks the fetcher's columns: value sets out of
// order by instance are sorted (as pmie sorts them) before their columns
// are made, and columns share a version exactly when they are of the same
// metric's same instances as the set's last fetch.
func TestFetchedColumns(t *testing.T) {
	const a, b = pmapi.PMID(1), pmapi.PMID(2)
	set := func(id pmapi.PMID, insts ...int32) pmapi.ValueSet {
		vs := pmapi.ValueSet{PMID: id}
		for _, in := range insts {
			vs.Values = append(vs.Values, pmapi.Value{Inst: in, Atom: pmapi.I32(10 * in)})
		}
		return vs
	}
	var seen instSeen
	fetch := func(sets ...pmapi.ValueSet) *fetched {
		f := &fetched{result: pmapi.Result{Sets: sets}}
		f.columns(&seen)
		return f
	}
	f1 := fetch(set(a, 3, 1, 2), set(b, 1, 2))
	if got := fmt.Sprint(f1.cols[0].Insts, f1.cols[0].Nums); got != "[1 2 3] [10 20 30]" {
		t.Errorf("columns of an unsorted set: %s", got)
	}
	var order []int32
	for _, v := range f1.result.Sets[0].Values {
		order = append(order, v.Inst)
	}
	if fmt.Sprint(order) != "[1 2 3]" {
		t.Errorf("values of an unsorted set left as %v", order)
	}
	v1a, v1b := f1.cols[0].Ver, f1.cols[1].Ver
	if v1a == 0 || v1b == 0 || v1a == v1b {
		t.Fatalf("versions %d and %d: want distinct and not 0", v1a, v1b)
	}
	// the same instances, in another order: the same versions
	f2 := fetch(set(a, 2, 3, 1), set(b, 1, 2))
	if f2.cols[0].Ver != v1a || f2.cols[1].Ver != v1b {
		t.Errorf("same instances: versions %d, %d; want %d, %d", f2.cols[0].Ver, f2.cols[1].Ver, v1a, v1b)
	}
	// an instance gone, and the sets' metrics swapped: new versions
	f3 := fetch(set(b, 1, 2), set(a, 1, 2))
	if f3.cols[0].Ver == v1b || f3.cols[1].Ver == v1a || f3.cols[0].Ver == f3.cols[1].Ver {
		t.Errorf("changed sets kept versions: %d, %d", f3.cols[0].Ver, f3.cols[1].Ver)
	}
	// the same slot filled again with the same instances: new numbers
	f3.result.Sets = []pmapi.ValueSet{set(b, 1, 2), set(a, 1, 2)}
	f3.result.Sets[1].Values[1].Atom = pmapi.I32(99)
	v3b, v3a := f3.cols[0].Ver, f3.cols[1].Ver
	f3.columns(&seen)
	if got := fmt.Sprint(f3.cols[1].Insts, f3.cols[1].Nums, f3.cols[0].Ver == v3b, f3.cols[1].Ver == v3a); got != "[1 2] [10 99] true true" {
		t.Errorf("slot filled again: %s", got)
	}
	// columns filled again by a reader lose their version
	f3.cols[0].Fill(&f3.result.Sets[0])
	if f3.cols[0].Ver != 0 {
		t.Errorf("Fill kept version %d", f3.cols[0].Ver)
	}
}
