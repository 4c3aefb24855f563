package pdu

import (
	"slices"

	"github.com/gopcp/pmie/pmapi"
)

// InstProfile is the part of a profile for one instance domain. With
// Exclude false, Insts are the instances left out (all others are in);
// with Exclude true, Insts are the only instances let in.
type InstProfile struct {
	InDom   pmapi.InDom
	Exclude bool
	Insts   []int32
}

// Prof is an instance profile (pmProfile): which instances a fetch
// returns. The zero Prof includes everything.
type Prof struct {
	// ExcludeAll is the default for instance domains without an entry.
	ExcludeAll bool
	InDoms     []InstProfile
}

func (p *Prof) find(indom pmapi.InDom) *InstProfile {
	for i := range p.InDoms {
		if p.InDoms[i].InDom == indom {
			return &p.InDoms[i]
		}
	}
	return nil
}

func (p *Prof) entry(indom pmapi.InDom) *InstProfile {
	if ip := p.find(indom); ip != nil {
		return ip
	}
	p.InDoms = append(p.InDoms, InstProfile{InDom: indom, Exclude: true})
	return &p.InDoms[len(p.InDoms)-1]
}

// Add is pmAddProfile: it lets insts of indom in, or all of its instances
// if insts is empty, or everything if indom is InDomNull.
func (p *Prof) Add(indom pmapi.InDom, insts []int32) { p.change(indom, insts, true) }

// Del is pmDelProfile: it leaves insts of indom out, or all of its
// instances if insts is empty, or everything if indom is InDomNull.
func (p *Prof) Del(indom pmapi.InDom, insts []int32) { p.change(indom, insts, false) }

func (p *Prof) change(indom pmapi.InDom, insts []int32, include bool) {
	if indom == pmapi.InDomNull {
		*p = Prof{ExcludeAll: !include}
		return
	}
	ip := p.entry(indom)
	switch {
	case len(insts) == 0:
		*ip = InstProfile{InDom: indom, Exclude: !include}
	case ip.Exclude == include:
		// the list holds the exceptions to the state we are moving to
		ip.Insts = union(ip.Insts, insts)
	default:
		ip.Insts = subtract(ip.Insts, insts)
	}
}

// Contains is __pmInProfile: whether inst of indom is let in.
func (p *Prof) Contains(indom pmapi.InDom, inst int32) bool {
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

// Clone returns a deep copy of p.
func (p *Prof) Clone() *Prof {
	q := &Prof{ExcludeAll: p.ExcludeAll, InDoms: slices.Clone(p.InDoms)}
	for i := range q.InDoms {
		q.InDoms[i].Insts = slices.Clone(q.InDoms[i].Insts)
	}
	return q
}

const (
	profileInclude = 0 // PM_PROFILE_INCLUDE
	profileExclude = 1 // PM_PROFILE_EXCLUDE
)

func state(exclude bool) int32 {
	if exclude {
		return profileExclude
	}
	return profileInclude
}

// EncodeProfile builds a PROFILE PDU for context slot ctx. pmcd sends no
// reply to it.
func EncodeProfile(ctx int32, p *Prof) []byte {
	size := 16 + 16*len(p.InDoms)
	for _, ip := range p.InDoms {
		size += 4 * len(ip.Insts)
	}
	e := newEncoder(Profile, 0, size)
	e.i32(ctx)
	e.i32(state(p.ExcludeAll))
	e.i32(int32(len(p.InDoms)))
	e.i32(0)
	for _, ip := range p.InDoms {
		e.u32(uint32(ip.InDom))
		e.i32(state(ip.Exclude))
		e.i32(int32(len(ip.Insts)))
		e.i32(0)
	}
	for _, ip := range p.InDoms {
		for _, in := range ip.Insts {
			e.i32(in)
		}
	}
	return e.finish()
}

// DecodeProfile decodes a PROFILE PDU.
func DecodeProfile(p []byte) (ctx int32, prof *Prof, err error) {
	d := newDecoder(p, Profile)
	ctx = d.i32()
	prof = &Prof{ExcludeAll: d.i32() == profileExclude}
	n := d.i32()
	d.i32()
	if d.err == nil && (ctx < 0 || n < 0 || int(n) > d.left()/16) {
		d.fail("context %d, %d instance domains", ctx, n)
	}
	if d.err != nil {
		return 0, nil, d.err
	}
	counts := make([]int, 0, n)
	for i := 0; i < int(n) && d.err == nil; i++ {
		ip := InstProfile{InDom: pmapi.InDom(d.u32()), Exclude: d.i32() == profileExclude}
		counts = append(counts, d.count("instance count", 4))
		d.i32()
		prof.InDoms = append(prof.InDoms, ip)
	}
	for i, c := range counts {
		if d.err != nil || c > d.left()/4 {
			d.fail("instance list overruns the PDU")
			break
		}
		for range c {
			prof.InDoms[i].Insts = append(prof.InDoms[i].Insts, d.i32())
		}
	}
	if err := d.end(false); err != nil {
		return 0, nil, err
	}
	return ctx, prof, nil
}

// EncodeFetch builds a FETCH or HIGHRES_FETCH (t) request for ids in
// context slot ctx.
func EncodeFetch(t Type, ctx int32, ids []pmapi.PMID) []byte {
	return EncodeFetchIn(make([]byte, 0, HeaderLen+16+4*len(ids)), t, ctx, ids)
}

// EncodeFetchIn is EncodeFetch building the request in buf's storage
// (growing it as need be), for a client that fetches again and again.
func EncodeFetchIn(buf []byte, t Type, ctx int32, ids []pmapi.PMID) []byte {
	e := encoderOn(buf, t, 0)
	e.i32(ctx)
	e.u64(0) // a timestamp no longer used
	e.i32(int32(len(ids)))
	for _, id := range ids {
		e.u32(uint32(id))
	}
	return e.finish()
}

// DecodeFetch decodes a FETCH or HIGHRES_FETCH request.
func DecodeFetch(p []byte) (t Type, ctx int32, ids []pmapi.PMID, err error) {
	h, err := ParseHeader(p)
	if err != nil {
		return 0, 0, nil, err
	}
	if h.Type != Fetch && h.Type != HighResFetch {
		return 0, 0, nil, malformed(h.Type, "not a fetch request")
	}
	d := newDecoder(p, h.Type)
	ctx = d.i32()
	d.u64()
	ids = d.pmids()
	if err := d.end(true); err != nil {
		return 0, 0, nil, err
	}
	return h.Type, ctx, ids, nil
}
