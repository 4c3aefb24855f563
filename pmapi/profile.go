package pmapi

import "slices"

// InDomProfile is the part of a profile for one instance domain. With
// Exclude false, Insts are the instances left out (all others are in);
// with Exclude true, Insts are the only instances let in.
type InDomProfile struct {
	InDom   InDom
	Exclude bool
	Insts   []int32
}

// Profile is an instance profile (pmProfile): which instances a fetch
// returns. The zero Profile includes everything.
type Profile struct {
	// ExcludeAll is the default for instance domains without an entry.
	ExcludeAll bool
	InDoms     []InDomProfile
}

func (p *Profile) find(indom InDom) *InDomProfile {
	for i := range p.InDoms {
		if p.InDoms[i].InDom == indom {
			return &p.InDoms[i]
		}
	}
	return nil
}

func (p *Profile) entry(indom InDom) *InDomProfile {
	if ip := p.find(indom); ip != nil {
		return ip
	}
	p.InDoms = append(p.InDoms, InDomProfile{InDom: indom, Exclude: true})
	return &p.InDoms[len(p.InDoms)-1]
}

// Add is pmAddProfile: it lets insts of indom in, or all of its instances
// if insts is empty, or everything if indom is InDomNull.
func (p *Profile) Add(indom InDom, insts []int32) { p.change(indom, insts, true) }

// Del is pmDelProfile: it leaves insts of indom out, or all of its
// instances if insts is empty, or everything if indom is InDomNull.
func (p *Profile) Del(indom InDom, insts []int32) { p.change(indom, insts, false) }

func (p *Profile) change(indom InDom, insts []int32, include bool) {
	if indom == InDomNull {
		*p = Profile{ExcludeAll: !include}
		return
	}
	ip := p.entry(indom)
	switch {
	case len(insts) == 0:
		*ip = InDomProfile{InDom: indom, Exclude: !include}
	case ip.Exclude == include:
		// the list holds the exceptions to the state we are moving to
		ip.Insts = union(ip.Insts, insts)
	default:
		ip.Insts = subtract(ip.Insts, insts)
	}
}

// Uniform reports, when p lets every instance of indom in or keeps every
// one out, which (in), with ok set; ok is false when it depends on the
// instance.
func (p *Profile) Uniform(indom InDom) (in, ok bool) {
	ip := p.find(indom)
	switch {
	case ip == nil:
		return !p.ExcludeAll, true
	case len(ip.Insts) == 0:
		return !ip.Exclude, true
	}
	return false, false
}

// Contains is __pmInProfile: whether inst of indom is let in.
func (p *Profile) Contains(indom InDom, inst int32) bool {
	ip := p.find(indom)
	if ip == nil {
		return !p.ExcludeAll
	}
	return slices.Contains(ip.Insts, inst) == ip.Exclude
}

func union(list, add []int32) []int32 {
	for _, x := range add {
		if !slices.Contains(list, x) {
			list = append(list, x)
		}
	}
	return list
}

func subtract(list, drop []int32) []int32 {
	return slices.DeleteFunc(list, func(x int32) bool { return slices.Contains(drop, x) })
}

// The instance profile calls of the contexts that keep one: archives and
// the derived-metric layer take a slice, pmcd's client a variadic list.
type (
	sliceProfiler interface {
		AddProfile(indom InDom, insts []int32) error
		DelProfile(indom InDom, insts []int32) error
	}
	variadicProfiler interface {
		AddProfile(indom InDom, insts ...int32)
		DelProfile(indom InDom, insts ...int32)
	}
	// profileKeeper is a context that hands its profile to another (a
	// layer over it), and so keeps one only if that one does.
	profileKeeper interface {
		KeepsProfile() bool
	}
)

// KeepsProfile reports whether ctx keeps an instance profile: whether
// AddProfile and DelProfile change what its fetches return.
func KeepsProfile(ctx Context) bool {
	if k, ok := ctx.(profileKeeper); ok {
		return k.KeepsProfile()
	}
	switch ctx.(type) {
	case sliceProfiler, variadicProfiler:
		return true
	}
	return false
}

// AddProfile is pmAddProfile on ctx, where ctx keeps an instance profile:
// later fetches return insts of indom too, or all of its instances if
// insts is empty (every instance of every domain, for InDomNull). It
// reports whether ctx keeps a profile; a context that does not (the
// embedded collector) returns every instance.
func AddProfile(ctx Context, indom InDom, insts ...int32) (bool, error) {
	return changeProfile(ctx, indom, insts, true)
}

// DelProfile is pmDelProfile on ctx, where ctx keeps an instance profile:
// later fetches leave out insts of indom, or all of its instances if
// insts is empty (every instance of every domain, for InDomNull). It
// reports whether ctx keeps a profile.
func DelProfile(ctx Context, indom InDom, insts ...int32) (bool, error) {
	return changeProfile(ctx, indom, insts, false)
}

// changeProfile is AddProfile (add) or DelProfile.
func changeProfile(ctx Context, indom InDom, insts []int32, add bool) (bool, error) {
	if !KeepsProfile(ctx) {
		return false, nil
	}
	switch p := ctx.(type) {
	case sliceProfiler:
		if add {
			return true, p.AddProfile(indom, insts)
		}
		return true, p.DelProfile(indom, insts)
	case variadicProfiler:
		if add {
			p.AddProfile(indom, insts...)
		} else {
			p.DelProfile(indom, insts...)
		}
	}
	return true, nil
}
