package archive

import (
	"slices"

	"github.com/gopcp/pmie/pmapi"
)

// profile is an instance profile: which instances of each instance
// domain fetches return (libpcp's pmProfile). Each instance domain has a
// default (include or exclude all) and a list of exceptions to it.
type profile struct {
	excludeAll bool // the default for instance domains not listed
	indoms     map[pmapi.InDom]*indomProfile
}

type indomProfile struct {
	exclude bool    // excluded unless listed; else included unless listed
	list    []int32 // the exceptions
}

// in reports whether inst of indom is in the profile.
func (p *profile) in(indom pmapi.InDom, inst int32) bool {
	ip := p.indoms[indom]
	if ip == nil {
		return !p.excludeAll
	}
	return slices.Contains(ip.list, inst) == ip.exclude
}

// uniform reports, when every instance of indom is in the profile or
// every one is out of it, which (in), with ok set; ok is false when it
// depends on the instance.
func (p *profile) uniform(indom pmapi.InDom) (in, ok bool) {
	ip := p.indoms[indom]
	switch {
	case ip == nil:
		return !p.excludeAll, true
	case len(ip.list) == 0:
		return !ip.exclude, true
	}
	return false, false
}

// entry returns the profile of indom, making it with default exclude if
// it has none.
func (p *profile) entry(indom pmapi.InDom, exclude bool) *indomProfile {
	if p.indoms == nil {
		p.indoms = make(map[pmapi.InDom]*indomProfile)
	}
	ip := p.indoms[indom]
	if ip == nil {
		ip = &indomProfile{exclude: exclude}
		p.indoms[indom] = ip
	}
	return ip
}

// AddProfile is pmAddProfile: it adds instances of indom to those that
// fetches return; with no instances, all of them. With indom
// PM_INDOM_NULL and no instances, it makes every instance of every
// domain not otherwise listed return again.
//
// As in libpcp, the first change to a domain's profile starts from
// "exclude all": AddProfile(indom, some) leaves only some.
func (c *Context) AddProfile(indom pmapi.InDom, insts []int32) error {
	return c.changeProfile(indom, insts, true)
}

// DelProfile is pmDelProfile: it takes instances of indom out of those
// that fetches return; with no instances, all of them. With indom
// PM_INDOM_NULL and no instances, every domain not otherwise listed.
//
// As in libpcp, the first change to a domain's profile starts from
// "exclude all", so DelProfile(indom, some) on a fresh profile leaves
// none.
func (c *Context) DelProfile(indom pmapi.InDom, insts []int32) error {
	return c.changeProfile(indom, insts, false)
}

func (c *Context) changeProfile(indom pmapi.InDom, insts []int32, add bool) error {
	p := &c.prof
	c.interp.wantIDs = c.interp.wantIDs[:0] // the want list depends on the profile
	if indom == pmapi.InDomNull {
		if len(insts) > 0 {
			return pmapi.ErrProfileSpec
		}
		*p = profile{excludeAll: !add}
		return nil
	}
	ip := p.entry(indom, true)
	if len(insts) == 0 {
		ip.exclude, ip.list = !add, nil
		return nil
	}
	// Adding to an exclusion list or taking from an inclusion list
	// removes exceptions; the other two add them.
	if add == ip.exclude {
		for _, in := range insts {
			if !slices.Contains(ip.list, in) {
				ip.list = append(ip.list, in)
			}
		}
	} else {
		ip.list = slices.DeleteFunc(ip.list, func(in int32) bool { return slices.Contains(insts, in) })
	}
	return nil
}
