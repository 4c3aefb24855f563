package archive

import (
	"github.com/gopcp/pmie/pmapi"
)

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
	if indom == pmapi.InDomNull && len(insts) > 0 {
		return pmapi.ErrProfileSpec
	}
	c.interp.wantIDs = c.interp.wantIDs[:0] // the want list depends on the profile
	if add {
		c.prof.Add(indom, insts)
	} else {
		c.prof.Del(indom, insts)
	}
	return nil
}
