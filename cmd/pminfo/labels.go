package main

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"

	"github.com/gopcp/pmie/pmapi"
)

// instCache is pminfo's cache of the most recently used instance domain:
// its instances and their label sets. It is keyed by instance domain
// alone, so for an archive the instances are those of the time of the
// first lookup, not of each metric's fetch, exactly as pminfo does.
type instCache struct {
	nameInDom pmapi.InDom
	insts     []pmapi.Instance
	err       error

	labelInDom pmapi.InDom
	sets       []pmapi.LabelSet
	labelErr   error
}

// newInstCache starts, as pminfo does, with the null instance domain
// "cached" and nothing in it.
func newInstCache() instCache {
	return instCache{nameInDom: pmapi.InDomNull, err: pmapi.ErrInDom,
		labelInDom: pmapi.InDomNull, labelErr: pmapi.ErrInDom}
}

func (c *instCache) update(ctx pmapi.Context, indom pmapi.InDom) {
	if indom == c.nameInDom {
		return
	}
	c.insts, c.err = ctx.InDom(indom)
	c.nameInDom = indom
}

// count is the number of instances, or -1 if they could not be had.
func (c *instCache) count(ctx pmapi.Context, indom pmapi.InDom) int {
	c.update(ctx, indom)
	if c.err != nil {
		return -1
	}
	return len(c.insts)
}

func (c *instCache) name(ctx pmapi.Context, indom pmapi.InDom, inst int32) (string, bool) {
	c.update(ctx, indom)
	for _, in := range c.insts {
		if in.ID == inst {
			return in.Name, true
		}
	}
	return "", false
}

// inst is the instance at index i, or PM_IN_NULL.
func (c *instCache) inst(ctx pmapi.Context, indom pmapi.InDom, i int) int32 {
	c.update(ctx, indom)
	if i >= 0 && i < len(c.insts) {
		return c.insts[i].ID
	}
	return pmapi.InNull
}

func (c *instCache) updateLabels(ctx pmapi.Context, indom pmapi.InDom) {
	c.update(ctx, indom)
	if indom == c.labelInDom {
		return
	}
	c.sets, c.labelErr = ctx.Labels(pmapi.LabelInstances, uint32(indom))
	c.labelInDom = indom
}

// labelCount is the number of instance label sets (0 or less if none).
func (c *instCache) labelCount(ctx pmapi.Context, indom pmapi.InDom) int {
	c.updateLabels(ctx, indom)
	if c.labelErr != nil {
		return -1
	}
	return len(c.sets)
}

func (c *instCache) labelSet(ctx pmapi.Context, indom pmapi.InDom, i int) *pmapi.LabelSet {
	c.updateLabels(ctx, indom)
	if i >= 0 && i < len(c.sets) {
		return &c.sets[i]
	}
	return nil
}

// labelCache keeps the label sets pminfo last looked up at each level of
// the hierarchy, each keyed as pminfo keys it.
type labelCache struct {
	context       *pmapi.LabelSet
	contextLoaded bool

	domain    int64
	domainSet *pmapi.LabelSet

	indom    pmapi.InDom
	indomSet *pmapi.LabelSet

	cluster    pmapi.PMID
	clusterSet *pmapi.LabelSet

	item    pmapi.PMID
	itemSet *pmapi.LabelSet
}

// newLabelCache starts with pminfo's initial keys: nothing yet looked up.
func newLabelCache() labelCache {
	return labelCache{domain: -1, indom: pmapi.InDomNull, cluster: pmapi.PMIDNull, item: pmapi.PMIDNull}
}

// first is the first set of a lookup, or nil.
func first(sets []pmapi.LabelSet, err error) *pmapi.LabelSet {
	if err != nil || len(sets) == 0 {
		return nil
	}
	return &sets[0]
}

// contextLabels are the context's labels, looked up once; a context with
// none gets {"hostname":...} from its host name, as pminfo makes.
func (p *pminfo) contextLabels() *pmapi.LabelSet {
	c := &p.labels
	if !c.contextLoaded {
		c.contextLoaded = true
		c.context = first(p.ctx.Labels(pmapi.LabelContext, 0))
		if c.context == nil {
			host := p.ctx.Source().Host
			c.context = &pmapi.LabelSet{Inst: pmapi.InNull, Labels: []pmapi.Label{
				{Name: "hostname", Value: `"` + host + `"`, Flags: pmapi.LabelContext}}}
		}
	}
	return c.context
}

func (p *pminfo) domainLabels(domain uint32) *pmapi.LabelSet {
	c := &p.labels
	if c.domain != int64(domain) {
		c.domainSet = first(p.ctx.Labels(pmapi.LabelDomain, uint32(pmapi.NewPMID(domain, 0, 0))))
		c.domain = int64(domain)
	}
	return c.domainSet
}

func (p *pminfo) indomLabelSet(indom pmapi.InDom) *pmapi.LabelSet {
	c := &p.labels
	if indom != c.indom {
		c.indomSet = first(p.ctx.Labels(pmapi.LabelInDom, uint32(indom)))
		c.indom = indom
	}
	return c.indomSet
}

func (p *pminfo) clusterLabels(id pmapi.PMID) *pmapi.LabelSet {
	c := &p.labels
	if id.Domain() != c.cluster.Domain() || id.Cluster() != c.cluster.Cluster() {
		c.clusterSet = first(p.ctx.Labels(pmapi.LabelCluster, uint32(id)))
		c.cluster = id
	}
	return c.clusterSet
}

func (p *pminfo) itemLabels(id pmapi.PMID) *pmapi.LabelSet {
	c := &p.labels
	if id != c.item {
		c.itemSet = first(p.ctx.Labels(pmapi.LabelItem, uint32(id)))
		c.item = id
	}
	return c.itemSet
}

// merged merges sets (nil ones skipped), reporting a failure on stderr
// with what. It returns "" when there is nothing to print.
func (p *pminfo) merged(sets []*pmapi.LabelSet, keep func(pmapi.Label) bool, what string) string {
	json, err := pmapi.MergeLabels(sets, keep)
	if err != nil {
		fmt.Fprintf(p.errw, "%s: %s labels merge failed: %s\n", p.prog, what, errText(err))
		return ""
	}
	return json
}

// indomLabels prints an instance domain's merged labels (-l on an indom).
func (p *pminfo) indomLabels(indom pmapi.InDom) {
	sets := []*pmapi.LabelSet{p.contextLabels(), p.domainLabels(indom.Domain()), p.indomLabelSet(indom)}
	if json := p.merged(sets, nil, "indom "+indom.String()); json != "" {
		fmt.Fprintf(p.out, "    labels %s\n", json)
	}
}

// metricLabels prints a metric's merged labels: context, domain,
// instance domain, cluster and item.
func (p *pminfo) metricLabels(d pmapi.Desc) {
	sets := []*pmapi.LabelSet{p.contextLabels(), p.domainLabels(d.PMID.Domain())}
	if d.InDom != pmapi.InDomNull {
		sets = append(sets, p.indomLabelSet(d.InDom))
	}
	sets = append(sets, p.clusterLabels(d.PMID), p.itemLabels(d.PMID))
	if json := p.merged(sets, nil, "metric "+d.PMID.String()); json != "" {
		fmt.Fprintf(p.out, "    labels %s\n", json)
	}
}

// instanceCount is how many instances pminfo reports labels or series
// for: the number of instance label sets, or failing that of instances.
func (p *pminfo) instanceCount(indom pmapi.InDom) int {
	if n := p.insts.labelCount(p.ctx, indom); n > 0 {
		return n
	}
	return p.insts.count(p.ctx, indom)
}

// instanceLabels prints each instance's labels merged down the whole
// hierarchy.
func (p *pminfo) instanceLabels(indom pmapi.InDom, d pmapi.Desc) {
	if indom == pmapi.InDomNull {
		return
	}
	n := p.instanceCount(indom)
	base := []*pmapi.LabelSet{p.contextLabels(), p.domainLabels(indom.Domain()), p.indomLabelSet(indom),
		p.clusterLabels(d.PMID), p.itemLabels(d.PMID)}
	for j := 0; j < n; j++ {
		inst, name, json := p.instanceMerge(indom, j, base, nil)
		if json == "" {
			continue
		}
		if name == "" {
			name = "DISAPPEARED"
		}
		fmt.Fprintf(p.out, "    inst [%d or \"%s\"] labels %s\n", inst, name, json)
	}
}

// instanceMerge merges base with the j'th instance's label set, giving
// the instance, its name ("" if unknown) and the merged labels.
func (p *pminfo) instanceMerge(indom pmapi.InDom, j int, base []*pmapi.LabelSet, keep func(pmapi.Label) bool) (int32, string, string) {
	sets := base
	set := p.insts.labelSet(p.ctx, indom, j)
	if set != nil {
		sets = append(append([]*pmapi.LabelSet(nil), base...), set)
	}
	json := p.merged(sets, keep, indom.String()+" instances")
	if json == "" {
		return 0, "", ""
	}
	inst := p.insts.inst(p.ctx, indom, j)
	if set != nil {
		inst = set.Inst
	}
	name, _ := p.insts.name(p.ctx, indom, inst)
	return inst, name, json
}

// intrinsic keeps the labels that identify a series (not optional ones).
func intrinsic(l pmapi.Label) bool { return l.Flags&pmapi.LabelOptional == 0 }

func sha1Hex(s string) string {
	h := sha1.Sum([]byte(s))
	return hex.EncodeToString(h[:])
}

// metricSeries prints the source and series identifiers of a metric (-s).
func (p *pminfo) metricSeries(name string, d pmapi.Desc) {
	if json := p.merged([]*pmapi.LabelSet{p.contextLabels()}, intrinsic, "context"); json != "" {
		fmt.Fprintf(p.out, "    Source: %s\n", sha1Hex(`{"series":"source","labels":`+json+`}`))
	}
	sets := []*pmapi.LabelSet{p.contextLabels(), p.domainLabels(d.PMID.Domain()), p.indomLabelSet(d.InDom),
		p.clusterLabels(d.PMID), p.itemLabels(d.PMID)}
	if json := p.merged(sets, intrinsic, "metric "+d.PMID.String()); json != "" {
		id := fmt.Sprintf(`{"series":"metric","name":"%s","labels":%s,"semantics":"%s","type":"%s","units":"%s"}`,
			name, json, d.Sem, d.Type, d.Units)
		fmt.Fprintf(p.out, "    Series: %s\n", sha1Hex(id))
	}
}

// instanceSeries prints the series identifier of each instance (-s).
func (p *pminfo) instanceSeries(indom pmapi.InDom) {
	if indom == pmapi.InDomNull {
		return
	}
	base := []*pmapi.LabelSet{p.contextLabels(), p.domainLabels(indom.Domain()), p.indomLabelSet(indom)}
	n := p.instanceCount(indom)
	for j := 0; j < n; j++ {
		inst, name, json := p.instanceMerge(indom, j, base, nil)
		if json == "" {
			continue
		}
		hashName, shown := name, name
		if name == "" {
			hashName, shown = "???", "DISAPPEARED"
		}
		id := fmt.Sprintf(`{"series":"instance","name":"%s","labels":%s}`, hashName, json)
		fmt.Fprintf(p.out, "    inst [%d or \"%s\"] series %s\n", inst, shown, sha1Hex(id))
	}
}
