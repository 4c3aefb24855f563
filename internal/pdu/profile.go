package pdu

import (
	"github.com/gopcp/pmie/pmapi"
)

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
func EncodeProfile(ctx int32, p *pmapi.Profile) []byte {
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
func DecodeProfile(p []byte) (ctx int32, prof *pmapi.Profile, err error) {
	d := newDecoder(p, Profile)
	ctx = d.i32()
	prof = &pmapi.Profile{ExcludeAll: d.i32() == profileExclude}
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
		ip := pmapi.InDomProfile{InDom: pmapi.InDom(d.u32()), Exclude: d.i32() == profileExclude}
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
