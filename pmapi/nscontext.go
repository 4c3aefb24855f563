package pmapi

// nsContext is a context whose namespace comes from a namespace file (-n
// or -N): names are looked up there, everything else in the context
// underneath, as libpcp does once pmLoadASCIINameSpace has been called.
type nsContext struct {
	Context
	ns *Namespace
}

func (c nsContext) LookupName(name string) (PMID, error) { return c.ns.LookupName(name) }

func (c nsContext) NameAll(id PMID) ([]string, error) { return c.ns.NameAll(id) }

func (c nsContext) Children(name string) ([]Child, error) { return c.ns.Children(name) }

// AddProfile, DelProfile and KeepsProfile are the context underneath's.
func (c nsContext) AddProfile(indom InDom, insts []int32) error {
	_, err := AddProfile(c.Context, indom, insts...)
	return err
}

func (c nsContext) DelProfile(indom InDom, insts []int32) error {
	_, err := DelProfile(c.Context, indom, insts...)
	return err
}

func (c nsContext) KeepsProfile() bool { return KeepsProfile(c.Context) }

// nsSeekContext is an nsContext over a context that can be positioned in
// time.
type nsSeekContext struct {
	nsContext
	Seeker
}

// InDomAt is the context underneath's.
func (c nsSeekContext) InDomAt(indom InDom, t Time) ([]Instance, error) {
	return InDomAt(c.nsContext.Context, indom, t)
}

// WithNamespace puts ns over ctx: names are resolved in ns, metadata and
// values come from ctx. A Seeker stays one.
func WithNamespace(ctx Context, ns *Namespace) Context {
	if s, ok := ctx.(Seeker); ok {
		return nsSeekContext{nsContext{ctx, ns}, s}
	}
	return nsContext{ctx, ns}
}
