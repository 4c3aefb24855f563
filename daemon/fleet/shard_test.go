package fleet

import (
	"fmt"
	"testing"
)

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		bad  bool
	}{
		{in: "1/2", want: Shard{1, 2}},
		{in: " 3 / 3 ", want: Shard{3, 3}},
		{in: "1/1", want: Shard{1, 1}},
		{in: "0/2", bad: true},
		{in: "3/2", bad: true},
		{in: "2", bad: true},
		{in: "a/b", bad: true},
		{in: "1/0", bad: true},
		{in: "1/70000", bad: true},
	} {
		got, err := ParseShard(c.in)
		if (err != nil) != c.bad || (!c.bad && got != c.want) {
			t.Errorf("ParseShard(%q) = %v, %v", c.in, got, err)
		}
		if !c.bad && got.String() != fmt.Sprintf("%d/%d", c.want.Index, c.want.Count) {
			t.Errorf("String() = %q", got.String())
		}
	}
}

func hostNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("host%04d.example.com", i)
	}
	return out
}

// Every host is owned by exactly one shard, and shards get about equal
// shares.
func TestEveryHostOneShard(t *testing.T) {
	hosts := hostNames(10000)
	for _, n := range []int{1, 2, 3, 5, 8} {
		count := make([]int, n+1)
		for _, h := range hosts {
			owners := 0
			for i := 1; i <= n; i++ {
				if (Shard{i, n}).Owns(h) {
					owners++
					count[i]++
				}
			}
			if owners != 1 {
				t.Fatalf("%d shards: %s owned by %d", n, h, owners)
			}
		}
		for i := 1; i <= n; i++ {
			share := float64(count[i]) / float64(len(hosts))
			if d := share - 1/float64(n); d > 0.03 || d < -0.03 {
				t.Errorf("%d shards: shard %d has %.3f of the hosts", n, i, share)
			}
		}
	}
	if !(Shard{}).Owns("anything") {
		t.Error("the whole fleet does not own a host")
	}
}

// Adding a shard moves only the hosts the new shard takes: no host moves
// between the old shards.
func TestAddingAShardMovesOnlyItsHosts(t *testing.T) {
	hosts := hostNames(5000)
	for n := 1; n < 8; n++ {
		moved := 0
		for _, h := range hosts {
			before, after := Owner(h, n), Owner(h, n+1)
			if before != after {
				if after != n+1 {
					t.Fatalf("%s moved from shard %d to %d going from %d to %d shards", h, before, after, n, n+1)
				}
				moved++
			}
		}
		share := float64(moved) / float64(len(hosts))
		if d := share - 1/float64(n+1); d > 0.03 || d < -0.03 {
			t.Errorf("%d -> %d shards moved %.3f of the hosts", n, n+1, share)
		}
	}
}

// The hash is part of the contract between replicas and versions: these
// owners must never change.
func TestOwnersAreFixed(t *testing.T) {
	got := ""
	for _, h := range []string{"alpha", "beta", "gamma", "delta", "web01:44321", "local:"} {
		got += fmt.Sprintf("%s=%d,%d ", h, Owner(h, 2), Owner(h, 7))
	}
	const want = "alpha=2,4 beta=1,1 gamma=2,6 delta=1,1 web01:44321=1,4 local:=2,3 "
	if got != want {
		t.Errorf("owners changed:\n got %s\nwant %s", got, want)
	}
}

// Members' phases lie in (0, 1], spread evenly, whichever shard owns
// them.
func TestPhase(t *testing.T) {
	const n, bins = 4000, 8
	var count [2][bins]int
	for i := range n {
		id := fmt.Sprintf("host%04d.example.com", i)
		p := Phase(id)
		if p <= 0 || p > 1 || Phase(id) != p {
			t.Fatalf("Phase(%q) = %v", id, p)
		}
		count[Owner(id, 2)-1][min(int(p*bins), bins-1)]++
	}
	for s := range count {
		for b, k := range count[s] {
			if want := n / 2 / bins; k < want*3/4 || k > want*5/4 {
				t.Errorf("shard %d: %d members in phase bin %d, about %d expected", s+1, k, b, want)
			}
		}
	}
}
