package archive

import (
	"slices"
	"sort"
	"sync"

	"github.com/gopcp/pmie/pmapi"
)

// indomSnap is one timestamped observation of an instance domain. Its
// instances are sorted by identifier, as libpcp keeps them.
type indomSnap struct {
	time  pmapi.Time
	seq   int              // load order, to order records with equal times
	delta bool             // a v3 delta record not yet resolved
	insts []pmapi.Instance // sorted by ID; for a delta, the additions
	dels  []int32          // for a delta, the deletions
}

// indomHistory is every observation of one instance domain, oldest first.
type indomHistory struct {
	snaps    []*indomSnap
	sorted   bool
	mu       sync.Mutex // guards union and hasUnion (contexts share an archive's metadata: reopen.go)
	union    []int32    // pmGetInDomArchive's instance list, built on demand
	hasUnion bool
}

// loadInDom decodes an instance domain record (v2, v3 or v3 delta).
func (m *meta) loadInDom(f *file, off int, typ uint32, b []byte) error {
	var t pmapi.Time
	hdr := 16
	if typ == metaInDomV2 {
		if len(b) < 16 {
			return f.errorf(int64(off), pmapi.ErrLogRec, "instance domain record too short (%d bytes)", len(b))
		}
		t = stamp2(b)
	} else {
		hdr = 20
		if len(b) < 20 {
			return f.errorf(int64(off), pmapi.ErrLogRec, "instance domain record too short (%d bytes)", len(b))
		}
		t = stamp3(b)
	}
	indom := pmapi.InDom(be.Uint32(b[hdr-8:]))
	n := int(int32(be.Uint32(b[hdr-4:])))
	if n <= 0 {
		// libpcp ignores instance domains with no instances.
		return nil
	}
	if n > (len(b)-hdr)/8 {
		return f.errorf(int64(off+8+hdr-4), pmapi.ErrLogRec, "instance domain %s: %d instances do not fit in a %d byte record", indom, n, len(b)+12)
	}
	ids := b[hdr : hdr+4*n]
	idx := b[hdr+4*n : hdr+8*n]
	names := b[hdr+8*n:]
	s := &indomSnap{time: t, seq: m.seq, delta: typ == metaInDomDelta}
	m.seq++
	s.insts = make([]pmapi.Instance, 0, n)
	for i := 0; i < n; i++ {
		id := int32(be.Uint32(ids[4*i:]))
		if id < 0 {
			return f.errorf(int64(off+8+hdr+4*i), pmapi.ErrLogRec, "instance domain %s: bad instance identifier %d", indom, id)
		}
		x := int32(be.Uint32(idx[4*i:]))
		if x == -1 && s.delta {
			s.dels = append(s.dels, id)
			continue
		}
		if x < 0 || int(x) >= len(names) {
			return f.errorf(int64(off+8+hdr+4*n+4*i), pmapi.ErrLogRec, "instance domain %s: bad name offset %d for instance %d", indom, x, id)
		}
		s.insts = append(s.insts, pmapi.Instance{ID: id, Name: cstring(names[x:])})
	}
	sortInstances(s.insts)
	slices.Sort(s.dels)
	m.addInDom(indom, s)
	return nil
}

func sortInstances(insts []pmapi.Instance) {
	sort.SliceStable(insts, func(i, j int) bool { return insts[i].ID < insts[j].ID })
}

// addInDom adds an observation, dropping it if an identical one has the
// same timestamp (common when the archives of a context share instance
// domains); the surviving copy then counts as the latest of its time.
func (m *meta) addInDom(indom pmapi.InDom, s *indomSnap) {
	h := m.indoms[indom]
	if h == nil {
		h = &indomHistory{}
		m.indoms[indom] = h
	}
	h.sorted = false
	h.hasUnion = false
	for _, old := range h.snaps {
		if old.time == s.time && old.delta == s.delta && slices.Equal(old.insts, s.insts) && slices.Equal(old.dels, s.dels) {
			old.seq = s.seq
			return
		}
	}
	h.snaps = append(h.snaps, s)
}

// sort orders the observations by time and resolves delta records
// against the observation before them.
func (h *indomHistory) sort() {
	if h.sorted {
		return
	}
	h.sorted = true
	sort.SliceStable(h.snaps, func(i, j int) bool {
		a, b := h.snaps[i], h.snaps[j]
		if a.time != b.time {
			return a.time < b.time
		}
		return a.seq < b.seq
	})
	var prev []pmapi.Instance
	for _, s := range h.snaps {
		if s.delta {
			s.insts = applyDelta(prev, s.insts, s.dels)
			s.delta, s.dels = false, nil
		}
		prev = s.insts
	}
}

// applyDelta returns prev with the instances dels removed and adds
// added, in identifier order.
func applyDelta(prev, adds []pmapi.Instance, dels []int32) []pmapi.Instance {
	out := make([]pmapi.Instance, 0, len(prev)+len(adds))
	i, j := 0, 0
	for i < len(prev) || j < len(adds) {
		switch {
		case j == len(adds) || (i < len(prev) && prev[i].ID < adds[j].ID):
			if _, gone := slices.BinarySearch(dels, prev[i].ID); !gone {
				out = append(out, prev[i])
			}
			i++
		case i == len(prev) || adds[j].ID < prev[i].ID:
			out = append(out, adds[j])
			j++
		default: // the same identifier: the addition's name wins
			out = append(out, adds[j])
			i++
			j++
		}
	}
	return out
}

// atFunc is the latest observation whose time before(t) accepts.
func (h *indomHistory) atFunc(before func(pmapi.Time) bool) *indomSnap {
	h.sort()
	i := sort.Search(len(h.snaps), func(i int) bool { return !before(h.snaps[i].time) })
	if i == 0 {
		return nil
	}
	return h.snaps[i-1]
}

// allInstances is every instance ever in the domain, in the order
// pmGetInDomArchive gives them: newest observation first, each in
// identifier order, each instance where it first appears.
func (h *indomHistory) allInstances() []int32 {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.hasUnion {
		return h.union
	}
	h.sort()
	seen := make(map[int32]bool)
	h.union = h.union[:0]
	for i := len(h.snaps) - 1; i >= 0; i-- {
		for _, in := range h.snaps[i].insts {
			if !seen[in.ID] {
				seen[in.ID] = true
				h.union = append(h.union, in.ID)
			}
		}
	}
	h.hasUnion = true
	return h.union
}

// maxInstances is the size of the largest observation.
func (h *indomHistory) maxInstances() int {
	h.sort()
	n := 0
	for _, s := range h.snaps {
		n = max(n, len(s.insts))
	}
	return n
}

// lifetimes gives, for instance domains that ever have at least
// threshold instances, each instance's first and last observation times
// relative to base, as libpcp's time_caliper works them out: birth is
// the earliest observation holding the instance, death the observation
// after the latest one holding it (or -1 if it is in the newest).
func (h *indomHistory) lifetimes(base func(pmapi.Time) float64) map[int32][2]float64 {
	h.sort()
	out := make(map[int32][2]float64)
	next := -1.0
	for i := len(h.snaps) - 1; i >= 0; i-- {
		t := base(h.snaps[i].time)
		for _, in := range h.snaps[i].insts {
			life, ok := out[in.ID]
			if !ok {
				life[1] = next
			}
			life[0] = t
			out[in.ID] = life
		}
		next = t
	}
	return out
}
