package pdu

import "github.com/gopcp/pmie/pmapi"

// Leaf and NonLeaf are the PMNS status values of a names PDU
// (PMNS_LEAF_STATUS, PMNS_NONLEAF_STATUS).
const (
	Leaf    int32 = 0
	NonLeaf int32 = 1
)

// EncodeNames builds a PMNS_NAMES PDU: names to look up (client), or the
// answer to a children, traversal or PMID-to-names request (pmcd). status,
// when not nil, gives each name's Leaf/NonLeaf status.
func EncodeNames(names []string, status []int32) []byte {
	size := 12
	strBytes := 0
	for _, n := range names {
		size += 8 + len(n) + 3
		strBytes += len(n) + 1
	}
	e := newEncoder(PMNSNames, 0, size)
	e.i32(int32(strBytes))
	if status != nil {
		e.i32(int32(len(names)))
	} else {
		e.i32(0)
	}
	e.i32(int32(len(names)))
	for i, n := range names {
		if status != nil {
			e.i32(status[i])
		}
		e.i32(int32(len(n)))
		e.str(n)
	}
	return e.finish()
}

// DecodeNames decodes a PMNS_NAMES PDU. status is nil when the PDU has no
// status words.
func DecodeNames(p []byte) (names []string, status []int32, err error) {
	d := newDecoder(p, PMNSNames)
	d.i32() // total string bytes: only a hint for C's allocation
	nstatus := d.i32()
	per := 4
	if nstatus != 0 {
		per = 8
	}
	n := d.count("name count", per)
	if d.err == nil && nstatus != 0 && int(nstatus) != n {
		d.fail("%d status words for %d names", nstatus, n)
	}
	names = make([]string, 0, n)
	if nstatus != 0 {
		status = make([]int32, 0, n)
	}
	for i := 0; i < n && d.err == nil; i++ {
		if nstatus != 0 {
			status = append(status, d.i32())
		}
		l := d.i32()
		names = append(names, d.str(int(l)))
	}
	if d.err != nil {
		return nil, nil, d.err
	}
	return names, status, nil
}

// EncodeNameReq builds a PMNS_CHILD (subtype 1 asks for leaf status too)
// or PMNS_TRAVERSE (subtype 0) request for name.
func EncodeNameReq(t Type, name string, subtype int32) []byte {
	e := newEncoder(t, 0, 8+len(name)+3)
	e.i32(subtype)
	e.i32(int32(len(name)))
	e.str(name)
	return e.finish()
}

// DecodeNameReq decodes a PMNS_CHILD or PMNS_TRAVERSE request.
func DecodeNameReq(p []byte) (t Type, name string, subtype int32, err error) {
	h, err := ParseHeader(p)
	if err != nil {
		return 0, "", 0, err
	}
	if h.Type != PMNSChild && h.Type != PMNSTraverse {
		return 0, "", 0, malformed(h.Type, "not a PMNS name request")
	}
	d := newDecoder(p, h.Type)
	subtype = d.i32()
	name = d.str(int(d.i32()))
	return h.Type, name, subtype, d.end(false)
}

// EncodeIDs builds a PMNS_IDS PDU (status is the number of names found in
// a reply, 0 in a request) or, with t DescIDs, a request for several
// descriptors (status -1).
func EncodeIDs(t Type, status int32, ids []pmapi.PMID) []byte {
	e := newEncoder(t, 0, 8+4*len(ids))
	e.i32(status)
	e.i32(int32(len(ids)))
	for _, id := range ids {
		e.u32(uint32(id))
	}
	return e.finish()
}

// DecodeIDs decodes a PMNS_IDS or DESC_IDS PDU of type t.
func DecodeIDs(p []byte, t Type) (status int32, ids []pmapi.PMID, err error) {
	d := newDecoder(p, t)
	status = d.i32()
	ids = d.pmids()
	if err := d.end(false); err != nil {
		return 0, nil, err
	}
	return status, ids, nil
}

// pmids reads a count and that many PMIDs; there must be at least one.
func (d *decoder) pmids() []pmapi.PMID {
	n := d.count("PMID count", 4)
	if d.err == nil && n == 0 {
		d.fail("no PMIDs")
	}
	ids := make([]pmapi.PMID, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		ids = append(ids, pmapi.PMID(d.u32()))
	}
	return ids
}
