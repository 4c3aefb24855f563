package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
)

// recorder is an archive context that records the profile calls made on
// it.
type recorder struct {
	*archive.Context
	calls []string
}

func (r *recorder) AddProfile(indom pmapi.InDom, insts []int32) error {
	r.calls = append(r.calls, fmt.Sprintf("add %v %v", indom, insts))
	return r.Context.AddProfile(indom, insts)
}

func (r *recorder) DelProfile(indom pmapi.InDom, insts []int32) error {
	r.calls = append(r.calls, fmt.Sprintf("del %v %v", indom, insts))
	return r.Context.DelProfile(indom, insts)
}

// TestProfile checks the instance profile calls made on a task's context
// as pmie makes them (findProfile) for the metrics of its rules, in order:
// named instances added, a domain of which a metric wants every instance
// reset to all of them once and left so, a singular metric resetting
// every domain (PM_INDOM_NULL); and, on a context keeping no profile, the
// values dropped instead.
func TestProfile(t *testing.T) {
	const name = "../testdata/archives/pmie/beta"
	meta, err := archive.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer meta.Close()
	build := func(fetches ...[]string) []*eval.Rule {
		rt := &eval.Runtime{Clock: eval.NewClock()}
		env := &eval.Env{Archive: true, DefaultConn: name, Runtime: rt,
			Source: func(string) (eval.Source, error) { return ctxSource{meta}, nil }}
		b := &eval.Builder{Env: env}
		prog := &eval.Program{}
		for i, f := range fetches {
			b.Begin()
			if b.Statement(prog, fmt.Sprint("r", i), b.Fetch(f[0], nil, f[1:], 0, 0), 10) == nil {
				t.Fatalf("rule %v not accepted", f)
			}
		}
		return prog.Rules
	}
	disk, _ := meta.LookupName("disk.dev.read_bytes")
	d, _ := meta.LookupDesc(disk)
	for _, c := range []struct {
		rules [][]string
		want  string
	}{
		{[][]string{{"disk.dev.read_bytes", "sdc"}, {"mem.util.free"}, {"disk.dev.read", "sda"}},
			"add D [2]; del N []; add N []; add D [0]"},
		{[][]string{{"disk.dev.read"}, {"disk.dev.read_bytes", "sdc"}, {"mem.util.free"}},
			"del D []; add D []; del N []; add N []"},
		{[][]string{{"disk.dev.read_bytes", "sdc"}, {"disk.dev.read_bytes", "sda", "sdb"}, {"hinv.ncpu"}, {"mem.util.free"}},
			"add D [2]; add D [0 1]; del N []; add N []"},
	} {
		rules := build(c.rules...)
		ctx, err := archive.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		r := &recorder{Context: ctx}
		if !pmapi.KeepsProfile(r) {
			t.Fatal("an archive context keeps no profile")
		}
		findProfile(rules, metricsOf(rules), ctxProfile{r})
		got := strings.Join(r.calls, "; ")
		got = strings.ReplaceAll(got, d.InDom.String(), "D")
		got = strings.ReplaceAll(got, pmapi.InDomNull.String(), "N")
		if want := "add N []; " + c.want; got != want {
			t.Errorf("%v: calls\n%s\nwant\n%s", c.rules, got, want)
		}
		ctx.Close()
	}

	// without a profile of its own, the values pmie's would leave out go
	rules := build([]string{"disk.dev.read_bytes", "sdc"}, []string{"mem.util.free"}, []string{"disk.dev.read", "sda"})
	h := &hostFetch{conn: name, task: &task{rules: rules}, profDirty: true, ctx: plainContext{meta}}
	for _, r := range rules {
		h.metrics = append(h.metrics, r.Metrics...)
	}
	h.profile()
	var res pmapi.Result
	if err := meta.Fetch([]pmapi.PMID{disk}, &res); err != nil {
		t.Fatal(err)
	}
	h.limit(&res)
	var insts []int32
	for _, v := range res.Sets[0].Values {
		insts = append(insts, v.Inst)
	}
	if fmt.Sprint(insts) != "[0]" {
		t.Errorf("disk.dev.read_bytes fetched for instances %v, want [0] (sda) alone", insts)
	}
}

// plainContext is a context with no instance profile of its own.
type plainContext struct{ pmapi.Context }

// metricsOf is the set of the rules' metrics.
func metricsOf(rules []*eval.Rule) map[*eval.Metric]bool {
	set := map[*eval.Metric]bool{}
	for _, r := range rules {
		for _, m := range r.Metrics {
			set[m] = true
		}
	}
	return set
}
