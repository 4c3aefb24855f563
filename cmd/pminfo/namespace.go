package main

import "github.com/gopcp/pmie/pmapi"

// nsContext is a context whose namespace comes from a -n or -N file: names
// are looked up there, everything else in the context underneath.
type nsContext struct {
	pmapi.Context
	ns *pmapi.Namespace
}

func (c nsContext) LookupName(name string) (pmapi.PMID, error) { return c.ns.LookupName(name) }

func (c nsContext) NameAll(id pmapi.PMID) ([]string, error) { return c.ns.NameAll(id) }

func (c nsContext) Children(name string) ([]pmapi.Child, error) { return c.ns.Children(name) }

// noContext is what lies under a namespace file when pminfo needs no
// source (-n with only -m): every query fails as libpcp's do without a
// current context.
type noContext struct{}

func (noContext) Source() pmapi.Source                        { return pmapi.Source{} }
func (noContext) LookupName(string) (pmapi.PMID, error)       { return pmapi.PMIDNull, pmapi.ErrNoContext }
func (noContext) NameAll(pmapi.PMID) ([]string, error)        { return nil, pmapi.ErrNoContext }
func (noContext) Children(string) ([]pmapi.Child, error)      { return nil, pmapi.ErrNoContext }
func (noContext) LookupDesc(pmapi.PMID) (pmapi.Desc, error)   { return pmapi.Desc{}, pmapi.ErrNoContext }
func (noContext) InDom(pmapi.InDom) ([]pmapi.Instance, error) { return nil, pmapi.ErrNoContext }
func (noContext) Text(uint32, pmapi.TextKind) (string, error) { return "", pmapi.ErrNoContext }
func (noContext) Labels(pmapi.LabelFlag, uint32) ([]pmapi.LabelSet, error) {
	return nil, pmapi.ErrNoContext
}
func (noContext) Fetch([]pmapi.PMID, *pmapi.Result) error { return pmapi.ErrNoContext }
func (noContext) Close() error                            { return nil }

// nsSeekContext is an nsContext over a context that can be positioned in
// time.
type nsSeekContext struct {
	nsContext
	pmapi.Seeker
}

// nsSeeker puts ns over ctx, keeping ctx's Seeker if it has one.
func nsSeeker(ctx pmapi.Context, ns *pmapi.Namespace) pmapi.Context {
	if s, ok := ctx.(pmapi.Seeker); ok {
		return nsSeekContext{nsContext{ctx, ns}, s}
	}
	return nsContext{ctx, ns}
}
