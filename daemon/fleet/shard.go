package fleet

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard is one of Count shards (Index from 1 to Count): the part of a
// fleet one pmie evaluates. The zero Shard is the whole fleet.
type Shard struct {
	Index, Count int
}

// ParseShard reads a shard as "I/N" (shard I of N, 1 <= I <= N).
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("a shard is I/N, shard I of N shards (1/2, 2/2), not %q", s)
	}
	if count < 1 || count > MaxShards || index < 1 || index > count {
		return Shard{}, fmt.Errorf("shard %d/%d: I/N needs 1 <= I <= N <= %d", index, count, MaxShards)
	}
	return Shard{Index: index, Count: count}, nil
}

// MaxShards bounds the shard count.
const MaxShards = 1 << 16

// String is the shard as ParseShard reads it ("" for the whole fleet).
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count)
}

// Owns reports whether the shard evaluates host: the whole fleet owns
// every host, shard I of N the hosts whose Owner among N shards is I.
func (s Shard) Owns(host string) bool {
	return s.Count == 0 || Owner(host, s.Count) == s.Index
}

// Owner is the shard, from 1 to n, that owns host among n shards, by
// rendezvous (highest random weight) hashing: each shard gives host a
// weight, a hash of the host's name and the shard's number, and the
// highest weight wins. Every replica, and every version of pmie, agrees
// on it, since the hash is fixed (FNV-1a over the name, a NUL and the
// shard's decimal number, then SplitMix64's finaliser). Going from n to
// n+1 shards moves only the hosts whose weight for the new shard beats
// their weights for all the others: those the new shard takes, about
// one in n+1, and no host moves between old shards.
func Owner(host string, n int) int {
	best, owner := uint64(0), 1
	for i := 1; i <= n; i++ {
		if w := weight(host, i); i == 1 || w > best {
			best, owner = w, i
		}
	}
	return owner
}

// weight is shard i's weight for host.
func weight(host string, i int) uint64 {
	f := fnv.New64a()
	f.Write([]byte(host))
	f.Write([]byte{0})
	f.Write(strconv.AppendInt(nil, int64(i), 10))
	h := f.Sum64()
	// SplitMix64's finaliser spreads the bits FNV leaves clustered
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

// Phase is where in its interval a member is evaluated, a fraction in
// (0, 1] fixed by its ID (rules.Config.Phase): a fleet's members spread
// evenly over their intervals rather than all fetched and evaluated at
// the same instant, and every replica of a shard evaluates a host at the
// same point of the interval. It uses weight with shard number 0, which
// no shard has, so a shard's hosts are not bunched in time.
func Phase(id string) float64 {
	return float64(weight(id, 0)>>11+1) / (1 << 53)
}
