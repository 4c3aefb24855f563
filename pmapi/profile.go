package pmapi

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
