package derive

import (
	"fmt"
	"testing"

	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// TestInstByPMDA checks that name[inst] over a pmcd context asks pmcd for
// the instance (pmLookupInDom), whose PMDA decides what the name matches,
// and takes the first instance it answers with, as libpcp does: the
// stand-in matches whole names, and answers an empty one with every
// instance. An archive's rules (a name's first word) do not apply.
func TestInstByPMDA(t *testing.T) {
	srv := pmcdtest.Start(t, pmcdtest.Sample("h"))
	x, err := pmcd.Dial(srv.Spec(), pmcd.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	reg := NewRegistry()
	for name, expr := range map[string]string{
		"dv.first": "kernel.all.load[]",
		"dv.words": "kernel.all.load[1 minutes]",
		"dv.exact": "kernel.all.load[5 minute]",
	} {
		if err := reg.Register(name, expr); err != nil {
			t.Fatal(err)
		}
	}
	ctx, diags := Wrap(x, reg)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for name, want := range map[string]string{"dv.first": "[1]", "dv.words": "[]", "dv.exact": "[5]"} {
		id, err := ctx.LookupName(name)
		if err != nil {
			t.Fatal(err)
		}
		var res pmapi.Result
		if err := ctx.Fetch([]pmapi.PMID{id}, &res); err != nil {
			t.Fatal(err)
		}
		var insts []int32
		for _, v := range res.Sets[0].Values {
			insts = append(insts, v.Inst)
		}
		if got := fmt.Sprint(insts); got != want {
			t.Errorf("%s: instances %s, want %s", name, got, want)
		}
	}
}
