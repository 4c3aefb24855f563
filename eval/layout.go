package eval

// Evaluating a rule touches each of its nodes and their value buffers.
// Built node by node, they lie scattered over the heap, and a live pmie,
// evaluating between waits while other processes have the processor's
// caches, then misses the cache (and, in a virtual machine, the address
// translation cache) at nearly every node: measured, a fifth of its CPU
// time with 250 rules at 100 msec. So, once a Group's trees are settled,
// compact moves their nodes into one block, in the order they are
// evaluated, and their value buffers into blocks of their own in the same
// order. Nodes and buffers made later (a buffer reallocated when a
// metric's instances change) are ordinary allocations.

// compact moves the nodes of g's rules, and their value buffers, into
// blocks laid out in evaluation order. size is g.size().
func (g *Group) compact(size int) {
	order := make([]*Node, 0, size)
	index := make(map[*Node]int, size)
	var walk func(x *Node)
	walk = func(x *Node) {
		if x == nil {
			return
		}
		if _, ok := index[x]; ok {
			return
		}
		index[x] = len(order)
		order = append(order, x)
		walk(x.Arg1)
		walk(x.Arg2)
	}
	for _, r := range g.Rules {
		walk(r.Root)
	}
	nodes := make([]Node, len(order))
	for i, x := range order {
		nodes[i] = *x
	}
	moved := func(p *Node) *Node {
		if i, ok := index[p]; ok && p != nil {
			return &nodes[i]
		}
		return p
	}
	b := newBuffers(order)
	for i := range nodes {
		y := &nodes[i]
		y.Arg1, y.Arg2, y.Parent = moved(y.Arg1), moved(y.Arg2), moved(y.Parent)
		if len(y.more) > 0 {
			more := make([]*Node, len(y.more))
			for k, p := range y.more {
				more[k] = moved(p)
			}
			y.more = more
		}
		if y.Op == OpFetch && y.metrics != nil {
			for _, m := range y.metrics.m {
				if m.node == order[i] {
					m.node = y
				}
			}
		}
		if y.Op != OpVar { // a variable's buffer is its Clock's
			b.take(y)
		}
	}
	for _, r := range g.Rules {
		r.Root = moved(r.Root)
	}
}

// buffers are blocks that nodes' value buffers are moved into.
type buffers struct {
	f []float64 // numbers and timestamps
	t []Truth
	s []int // sample slots
}

// newBuffers makes blocks big enough for the buffers of nodes.
func newBuffers(nodes []*Node) *buffers {
	nf, nt, ns := 0, 0, 0
	for _, x := range nodes {
		if x.Op == OpVar {
			continue
		}
		nf += len(x.num) + len(x.stamp)
		nt += len(x.tru)
		ns += len(x.slot)
	}
	return &buffers{f: make([]float64, 0, nf), t: make([]Truth, 0, nt), s: make([]int, 0, ns)}
}

// take moves x's buffers into the blocks, each with no room to grow into
// the next.
func (b *buffers) take(x *Node) {
	x.num = carve(&b.f, x.num)
	x.stamp = carve(&b.f, x.stamp)
	x.tru = carve(&b.t, x.tru)
	x.slot = carve(&b.s, x.slot)
}

// carve copies s to the end of the block and returns the copy.
func carve[T any](block *[]T, s []T) []T {
	if len(s) == 0 {
		return s
	}
	start := len(*block)
	*block = append(*block, s...)
	return (*block)[start:len(*block):len(*block)]
}
