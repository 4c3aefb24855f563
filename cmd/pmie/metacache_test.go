package main

import (
	"testing"

	"github.com/gopcp/pmie/derive"
	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/source"
)

// TestMetaCache checks that a second connection to a host is seen
// through derived metrics from the answers the first was given, without
// a request to pmcd, with the same metrics, and asks pmcd again once
// stopped.
func TestMetaCache(t *testing.T) {
	host := pmcdtest.Start(t, pmcdtest.Sample("metacache"))
	reg := derive.NewRegistry()
	for name, expr := range map[string]string{"my.ncpu": "hinv.ncpu * 2", "my.load": "kernel.all.load + 1"} {
		if err := reg.Register(name, expr); err != nil {
			t.Fatal(err)
		}
	}
	o := &source.Opener{}
	open := func() pmapi.Context {
		c, err := o.Open(source.Host(host.Spec()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	c := newMetaCache()
	first, _ := derive.Wrap(&recording{Context: open(), c: c}, reg)
	raw := open()
	_, before := host.Stats()
	ans := &answering{Context: raw, c: c}
	second, diags := derive.Wrap(ans, reg)
	_, after := host.Stats()
	if after != before || len(diags) != 0 {
		t.Errorf("checking the definitions again took %d requests to pmcd (%v)", after-before, diags)
	}
	for _, name := range []string{"my.ncpu", "my.load"} {
		id1, err1 := first.LookupName(name)
		id2, err2 := second.LookupName(name)
		if err1 != nil || id1 != id2 || err2 != nil {
			t.Errorf("%s: %v %v, then %v %v", name, id1, err1, id2, err2)
		}
	}
	ans.stop()
	if _, err := ans.LookupName("hinv.ncpu"); err != nil {
		t.Fatal(err)
	}
	if _, again := host.Stats(); again == after {
		t.Errorf("stopped, it still answers from the cache")
	}
	var r pmapi.Result
	id, _ := second.LookupName("my.ncpu")
	if err := second.Fetch([]pmapi.PMID{id}, &r); err != nil || len(r.Sets) != 1 || len(r.Sets[0].Values) != 1 {
		t.Errorf("fetch over the second connection: %v %+v", err, r)
	}
}
