package rules

import (
	"strings"
	"testing"

	"github.com/gopcp/pmie/actions"
	"github.com/gopcp/pmie/eval"
)

// TestActorAllocatesNothing checks that an action handed to the runner,
// reported as pmie's archive mode reports it, allocates nothing, and
// that what it writes is pmie's line.
func TestActorAllocatesNothing(t *testing.T) {
	var out strings.Builder
	r := &actions.Runner{Replay: true, Out: &out, Ctime: func(int64) string { return "Thu Jan  1 00:00:10 1970" }}
	act := Actor(r)
	f := &eval.Firing{Kind: eval.OpPrint, Rule: "busy", Time: 10, Text: []byte("busy disk sda 130")}
	if act(f) != eval.True {
		t.Fatal("print action failed")
	}
	if want := "print Thu Jan  1 00:00:10 1970: busy disk sda 130\n"; out.String() != want {
		t.Errorf("reported %q, want %q", out.String(), want)
	}
	out.Grow(1 << 16)
	if n := testing.AllocsPerRun(100, func() { act(f) }); n != 0 {
		t.Errorf("%v allocations an action, want none", n)
	}
}
