package eval

import "math"

// Sample is one value of a node: a number, a truth or a string, or
// unknown (what pmie prints as "?" or "unknown").
type Sample struct {
	Known bool
	Num   float64 // numeric nodes
	Truth Truth   // truth-valued nodes (Unknown when not Known)
	Str   string  // string-valued metrics and string constants
}

// Member is one host and instance of a node's value, with its samples,
// newest first: what pmie -V prints on one line.
type Member struct {
	Host, Inst       string
	HasHost, HasInst bool
	Samples          []Sample
}

// Members lists x's values member by member, in the order pmie -v prints
// them, each named by its host and instance where the node has them (as
// -V names them). A node with no values has no members.
func (x *Node) Members() []Member {
	if x.nvals <= 0 || x.sem == SemRegex {
		return nil
	}
	if x.sem == SemChar {
		return []Member{{Samples: []Sample{{Known: true, Str: x.text}}}}
	}
	out := make([]Member, x.tspan)
	var hi hostInst
	for i := range out {
		m := &out[i]
		if x.metrics != nil {
			lookupHostInst(x, i, &hi)
			m.Host, m.Inst, m.HasHost, m.HasInst = hi.Host, hi.Inst, hi.hasHost, hi.hasInst
		}
		m.Samples = make([]Sample, x.nsmpls)
		for k := range m.Samples {
			m.Samples[k] = x.sample(i, k)
		}
	}
	return out
}

// IsTruth reports whether x's values are truths.
func (x *Node) IsTruth() bool { return x.sem == SemBoolean }

// sample is value i of sample k of x.
func (x *Node) sample(i, k int) Sample {
	switch {
	case x.sem == SemBoolean:
		t := x.truthAt(i, k)
		return Sample{Known: t != Unknown, Truth: t}
	case (x.sem == SemInstant || x.sem == SemDiscrete) && x.Op == OpFetch && x.store == storeStr:
		s, ok := x.strAt(i, k)
		return Sample{Known: ok && x.valid > k, Str: s}
	}
	v, ok := x.numAt(i, k)
	return Sample{Known: ok, Num: v}
}

// numAt is value i of sample k of a numeric node, if known.
func (x *Node) numAt(i, k int) (float64, bool) {
	if x.valid <= k || x.store != storeNum || k >= len(x.slot) {
		return 0, false
	}
	off := x.slot[k] + i
	if off >= len(x.num) || math.IsNaN(x.num[off]) {
		return 0, false
	}
	return x.num[off], true
}

// truthAt is value i of sample k of a truth-valued node.
func (x *Node) truthAt(i, k int) Truth {
	if x.valid == 0 || x.store != storeTruth || k >= len(x.slot) {
		return Unknown
	}
	if off := x.slot[k] + i; off < len(x.tru) {
		return x.tru[off]
	}
	return Unknown
}

// strAt is value i of sample k of a string-valued metric.
func (x *Node) strAt(i, k int) (string, bool) {
	if k < len(x.slot) {
		if off := x.slot[k] + i; off < len(x.str) {
			return x.str[off], true
		}
	}
	return "", false
}
