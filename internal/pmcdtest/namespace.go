package pmcdtest

import (
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// Metric is one metric the stand-in serves.
type Metric struct {
	Name    string
	Desc    pmapi.Desc
	OneLine string
	Help    string
	Labels  []pmapi.Label // item level
	// Values are what a fetch returns (Inst InNull for a singular
	// metric). Server.SetValues replaces them while serving.
	Values []pmapi.Value
	// Err, if set, is returned for the metric by fetches instead.
	Err pmapi.Errno
}

// InDom is one instance domain the stand-in serves.
type InDom struct {
	InDom      pmapi.InDom
	Instances  []pmapi.Instance
	OneLine    string
	Help       string
	Labels     []pmapi.Label
	InstLabels map[int32][]pmapi.Label
}

// Namespace is everything a stand-in serves.
type Namespace struct {
	Hostname string // pmcd.hostname, also served as a metric
	Timezone string // pmcd.timezone, likewise
	Metrics  []Metric
	InDoms   []InDom
	// Labels of the context, domain and cluster levels.
	ContextLabels []pmapi.Label
	DomainLabels  map[uint32][]pmapi.Label
	ClusterLabels map[pmapi.PMID][]pmapi.Label // keyed by PMID with item 0
}

// node is one name in the namespace tree.
type node struct {
	name string // last component
	kids []*node
	leaf *Metric
}

func (n *node) child(name string) *node {
	for _, k := range n.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

// tree is the namespace as served: names in the order metrics were given.
type tree struct {
	root   node
	byPMID map[pmapi.PMID][]*Metric
	indoms map[pmapi.InDom]*InDom
}

func newTree(ns *Namespace) *tree {
	t := &tree{byPMID: map[pmapi.PMID][]*Metric{}, indoms: map[pmapi.InDom]*InDom{}}
	for i := range ns.Metrics {
		m := &ns.Metrics[i]
		n := &t.root
		for _, part := range strings.Split(m.Name, ".") {
			k := n.child(part)
			if k == nil {
				k = &node{name: part}
				n.kids = append(n.kids, k)
			}
			n = k
		}
		n.leaf = m
		t.byPMID[m.Desc.PMID] = append(t.byPMID[m.Desc.PMID], m)
	}
	for i := range ns.InDoms {
		t.indoms[ns.InDoms[i].InDom] = &ns.InDoms[i]
	}
	return t
}

// find returns the node called name ("" is the root), or nil.
func (t *tree) find(name string) *node {
	n := &t.root
	if name == "" {
		return n
	}
	for _, part := range strings.Split(name, ".") {
		if n = n.child(part); n == nil {
			return nil
		}
	}
	return n
}

// leaves appends the full names of the leaves at or below n.
func (n *node) leaves(prefix string, out []string) []string {
	if n.leaf != nil {
		return append(out, prefix)
	}
	for _, k := range n.kids {
		full := k.name
		if prefix != "" {
			full = prefix + "." + k.name
		}
		out = k.leaves(full, out)
	}
	return out
}

// metric returns the first metric with id.
func (t *tree) metric(id pmapi.PMID) *Metric {
	if ms := t.byPMID[id]; len(ms) > 0 {
		return ms[0]
	}
	return nil
}

// hasDomain reports whether any metric or instance domain is in domain.
func (t *tree) hasDomain(domain uint32) bool {
	for id := range t.byPMID {
		if id.Domain() == domain {
			return true
		}
	}
	for id := range t.indoms {
		if id.Domain() == domain {
			return true
		}
	}
	return false
}

// Sample is a small namespace shaped like part of Linux's: singular and
// instanced metrics of several types, help text and labels. Its values
// are fixed; tests change them with Server.SetValues.
func Sample(hostname string) Namespace {
	load := pmapi.NewInDom(60, 2)
	disks := pmapi.NewInDom(60, 1)
	count := pmapi.Units{DimCount: 1}
	kb := pmapi.Units{DimSpace: 1, ScaleSpace: pmapi.SpaceKByte}
	return Namespace{
		Hostname:      hostname,
		Timezone:      "UTC",
		ContextLabels: []pmapi.Label{{Name: "hostname", Value: `"` + hostname + `"`, Flags: pmapi.LabelContext}},
		DomainLabels:  map[uint32][]pmapi.Label{60: {{Name: "agent", Value: `"linux"`, Flags: pmapi.LabelDomain}}},
		InDoms: []InDom{
			{InDom: load, Instances: []pmapi.Instance{{ID: 1, Name: "1 minute"}, {ID: 5, Name: "5 minute"}, {ID: 15, Name: "15 minute"}},
				OneLine: "set of load average intervals"},
			{InDom: disks, Instances: []pmapi.Instance{{ID: 0, Name: "sda"}, {ID: 1, Name: "sdb"}},
				InstLabels: map[int32][]pmapi.Label{0: {{Name: "device_type", Value: `"block"`, Flags: pmapi.LabelInstances | pmapi.LabelOptional}}}},
		},
		Metrics: []Metric{
			{Name: "hinv.ncpu", Desc: pmapi.Desc{PMID: pmapi.NewPMID(60, 0, 32), Type: pmapi.TypeU32, InDom: pmapi.InDomNull, Sem: pmapi.SemDiscrete, Units: pmapi.Units{}},
				OneLine: "number of CPUs in the system", Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.U32(4)}}},
			{Name: "hinv.physmem", Desc: pmapi.Desc{PMID: pmapi.NewPMID(60, 1, 9), Type: pmapi.TypeU64, InDom: pmapi.InDomNull, Sem: pmapi.SemDiscrete, Units: pmapi.Units{DimSpace: 1, ScaleSpace: pmapi.SpaceMByte}},
				Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.U64(16384)}}},
			{Name: "kernel.all.load", Desc: pmapi.Desc{PMID: pmapi.NewPMID(60, 2, 0), Type: pmapi.TypeFloat, InDom: load, Sem: pmapi.SemInstant},
				OneLine: "1, 5 and 15 minute load average", Help: "Load average over 1, 5 and 15 minutes.",
				Values: []pmapi.Value{{Inst: 1, Atom: pmapi.F32(0.5)}, {Inst: 5, Atom: pmapi.F32(0.25)}, {Inst: 15, Atom: pmapi.F32(0.125)}}},
			{Name: "kernel.all.nprocs", Desc: pmapi.Desc{PMID: pmapi.NewPMID(60, 2, 3), Type: pmapi.Type32, InDom: pmapi.InDomNull, Sem: pmapi.SemInstant, Units: count},
				Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.I32(123)}}},
			{Name: "kernel.all.pswitch", Desc: pmapi.Desc{PMID: pmapi.NewPMID(60, 0, 13), Type: pmapi.TypeU64, InDom: pmapi.InDomNull, Sem: pmapi.SemCounter, Units: count},
				Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.U64(1 << 40)}}},
			{Name: "kernel.uname.release", Desc: pmapi.Desc{PMID: pmapi.NewPMID(60, 12, 0), Type: pmapi.TypeString, InDom: pmapi.InDomNull, Sem: pmapi.SemDiscrete},
				Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.String("6.1.0-test")}}},
			{Name: "disk.dev.read", Desc: pmapi.Desc{PMID: pmapi.NewPMID(60, 0, 4), Type: pmapi.TypeU64, InDom: disks, Sem: pmapi.SemCounter, Units: count},
				Labels: []pmapi.Label{{Name: "units", Value: `"count"`, Flags: pmapi.LabelItem}},
				Values: []pmapi.Value{{Inst: 0, Atom: pmapi.U64(1000)}, {Inst: 1, Atom: pmapi.U64(2000)}}},
			{Name: "disk.dev.read_bytes", Desc: pmapi.Desc{PMID: pmapi.NewPMID(60, 0, 38), Type: pmapi.TypeU32, InDom: disks, Sem: pmapi.SemCounter, Units: kb},
				Values: []pmapi.Value{{Inst: 0, Atom: pmapi.U32(10)}, {Inst: 1, Atom: pmapi.U32(20)}}},
			{Name: "mem.util.free", Desc: pmapi.Desc{PMID: pmapi.NewPMID(60, 1, 2), Type: pmapi.TypeU64, InDom: pmapi.InDomNull, Sem: pmapi.SemInstant, Units: kb},
				Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.U64(123456)}}},
			{Name: "sample.double", Desc: pmapi.Desc{PMID: pmapi.NewPMID(29, 0, 1), Type: pmapi.TypeDouble, InDom: pmapi.InDomNull, Sem: pmapi.SemInstant},
				Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.F64(3.25)}}},
			{Name: "sample.negative", Desc: pmapi.Desc{PMID: pmapi.NewPMID(29, 0, 2), Type: pmapi.Type64, InDom: pmapi.InDomNull, Sem: pmapi.SemInstant},
				Values: []pmapi.Value{{Inst: pmapi.InNull, Atom: pmapi.I64(-42)}}},
			{Name: "sample.broken", Desc: pmapi.Desc{PMID: pmapi.NewPMID(29, 0, 3), Type: pmapi.Type32, InDom: pmapi.InDomNull, Sem: pmapi.SemInstant},
				Err: pmapi.ErrAgain},
		},
	}
}
