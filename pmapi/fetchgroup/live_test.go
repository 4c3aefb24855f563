package fetchgroup

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// TestLivePMCD runs a group over the local pmcd. It skips when there is
// no pmcd, unless PMIE_REQUIRE_PMCD=1, when it fails instead. The errors
// expected are those libpcp's fetchgroups give over pmcd (checked with
// the Python binding: pmcd's PMDAs answer instance lookups, so an
// unknown instance is PM_ERR_INST, not PM_ERR_INST_LOG).
func TestLivePMCD(t *testing.T) {
	ctx, err := pmcd.Dial("localhost", pmcd.Config{ConnectTimeout: 2 * time.Second})
	if err != nil {
		if os.Getenv("PMIE_REQUIRE_PMCD") == "1" {
			t.Fatalf("PMIE_REQUIRE_PMCD=1 but no pmcd: %v", err)
		}
		t.Skipf("no pmcd: %v", err)
	}
	g := New(ctx)
	defer g.Close()

	for _, c := range []struct {
		metric, inst, scale string
		want                error
	}{
		{"kernel.all.load", "nope", "", pmapi.ErrInst},
		{"kernel.all.load", "", "", pmapi.ErrInDom},
		{"no.such.metric", "", "", pmapi.ErrName},
		{"kernel.all", "", "", pmapi.ErrNonLeaf},
		{"hinv.ncpu", "", "sec", pmapi.ErrConv},
	} {
		if _, err := g.ExtendItem(c.metric, c.inst, c.scale, pmapi.TypeDouble); err != c.want {
			t.Errorf("ExtendItem(%q, %q, %q) = %v, want %v", c.metric, c.inst, c.scale, err, c.want)
		}
	}
	load, err := g.ExtendItem("kernel.all.load", "1 minute", "", pmapi.TypeFloat)
	if err != nil {
		t.Fatal(err)
	}
	pswitch, err := g.ExtendItem("kernel.all.pswitch", "", "", pmapi.TypeDouble)
	if err != nil {
		t.Fatal(err)
	}
	ncpu, err := g.ExtendItem("hinv.ncpu", "", "", pmapi.TypeString)
	if err != nil {
		t.Fatal(err)
	}
	loads, err := g.ExtendInDom("kernel.all.load", "instant", pmapi.TypeString, 10)
	if err != nil {
		t.Fatal(err)
	}
	ts := g.ExtendTimestamp()

	// what pmcd says directly
	id, err := ctx.LookupName("hinv.ncpu")
	if err != nil {
		t.Fatal(err)
	}
	var r pmapi.Result
	if err := ctx.Fetch([]pmapi.PMID{id}, &r); err != nil || len(r.Sets) != 1 || len(r.Sets[0].Values) != 1 {
		t.Fatalf("fetch of hinv.ncpu: %v %+v", err, r)
	}
	wantCPUs := strconv.FormatUint(r.Sets[0].Values[0].Atom.Uint64(), 10)

	if err := g.Fetch(); err != nil {
		t.Fatal(err)
	}
	first := ts.Time
	if load.Err != nil || pswitch.Err != pmapi.ErrAgain || ncpu.Err != nil {
		t.Errorf("first fetch: load %v, pswitch %v (want PM_ERR_AGAIN), ncpu %v", load.Err, pswitch.Err, ncpu.Err)
	}
	if ncpu.Value.Str() != wantCPUs {
		t.Errorf("hinv.ncpu as a string is %q, pmcd says %s", ncpu.Value.Str(), wantCPUs)
	}
	if loads.Err != nil || loads.Num != 3 {
		t.Fatalf("kernel.all.load: %v, %d instances", loads.Err, loads.Num)
	}
	for i, want := range []struct {
		inst int32
		name string
	}{{1, "1 minute"}, {5, "5 minute"}, {15, "15 minute"}} {
		in := loads.Insts[i]
		if in.Inst != want.inst || !in.Named || in.Name != want.name || in.Err != nil {
			t.Errorf("kernel.all.load instance %d: %+v", i, in)
		}
	}

	time.Sleep(100 * time.Millisecond)
	if err := g.Fetch(); err != nil {
		t.Fatal(err)
	}
	if ts.Time <= first {
		t.Errorf("second fetch at %v, not after %v", ts.Time, first)
	}
	if pswitch.Err != nil || pswitch.Value.Float64() < 0 {
		t.Errorf("pswitch rate: %v, %v", pswitch.Value.Float64(), pswitch.Err)
	}
}
