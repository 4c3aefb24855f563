package fetchgroup

import (
	"github.com/gopcp/pmie/pmapi"
)

type (
	// nower tells an archive context's current time.
	nower interface {
		Now() pmapi.Time
	}
)

// addProfile is pmAddProfile, where the context keeps a profile: insts of
// indom, or all of them if insts is empty.
func addProfile(ctx pmapi.Context, indom pmapi.InDom, insts ...int32) error {
	_, err := pmapi.AddProfile(ctx, indom, insts...)
	return err
}

// delProfile is pmDelProfile of a whole instance domain; its error is of
// no use to anyone, as in libpcp.
func delProfile(ctx pmapi.Context, indom pmapi.InDom) {
	_, _ = pmapi.DelProfile(ctx, indom)
}

// metric is what Extend* learn of a metric by name.
type metric struct {
	id   pmapi.PMID
	desc pmapi.Desc
	inst int32 // for a single instance of a metric with an instance domain
}

// lookupMetric looks a metric name up and its descriptor.
func (g *Group) lookupMetric(name string) (metric, error) {
	id, err := g.ctx.LookupName(name)
	if err != nil {
		return metric{}, code(err)
	}
	desc, err := g.ctx.LookupDesc(id)
	if err != nil {
		return metric{}, code(err)
	}
	return metric{id: id, desc: desc, inst: pmapi.InNull}, nil
}

// lookupItem looks up a metric and, for one with an instance domain, the
// named instance (which must be given exactly then), which it adds to
// the instance profile.
func (g *Group) lookupItem(name, instance string) (metric, error) {
	m, err := g.lookupMetric(name)
	if err != nil {
		return m, err
	}
	if (m.desc.InDom == pmapi.InDomNull) != (instance == "") {
		return m, pmapi.ErrInDom
	}
	if m.desc.InDom == pmapi.InDomNull {
		return m, nil
	}
	if m.inst, err = pmapi.LookupInDom(g.ctx, m.desc.InDom, instance); err != nil {
		return m, code(err)
	}
	return m, code(addProfile(g.ctx, m.desc.InDom, m.inst))
}

// lookupItemAnywhen is lookupItem, tried again at the end of an
// archive where it fails.
func (g *Group) lookupItemAnywhen(name, instance string) (metric, error) {
	m, _, err := g.anywhen(func() (metric, metric, error) {
		m, err := g.lookupItem(name, instance)
		return m, metric{}, err
	})
	return m, err
}

// anywhen runs lookup and, where that fails on an archive, again at the
// archive's end (where an instance seen only later may be found),
// putting the archive back where it was after.
func (g *Group) anywhen(lookup func() (metric, metric, error)) (metric, metric, error) {
	m, f, err := lookup()
	if err == nil || g.ctx.Source().Kind != pmapi.SourceArchive {
		return m, f, err
	}
	s, ok := g.ctx.(pmapi.Seeker)
	if !ok {
		return m, f, err
	}
	// where the archive is now: as it says, or else as last set
	origin := g.origin
	if n, ok := g.ctx.(nower); ok {
		origin = n.Now()
	} else if !g.originSet {
		origin, _ = s.Bounds()
	}
	_, end := s.Bounds()
	if err := s.SetMode(pmapi.ModeBack, end, 0); err != nil {
		return m, f, code(err)
	}
	m, f, err = lookup()
	rerr := s.SetMode(g.mode, origin, g.delta)
	if err != nil {
		return m, f, err
	}
	return m, f, code(rerr)
}

// code is err as the Errno libpcp would return for it (nil stays nil).
func code(err error) error {
	if err == nil {
		return nil
	}
	return pmapi.Code(err)
}
