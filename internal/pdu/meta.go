package pdu

import "github.com/gopcp/pmie/pmapi"

// This file holds the metadata PDUs: descriptors, instance domains and
// help text.

// EncodeDescReq builds a DESC_REQ for id.
func EncodeDescReq(id pmapi.PMID) []byte {
	e := newEncoder(DescReq, 0, 4)
	e.u32(uint32(id))
	return e.finish()
}

// DecodeDescReq decodes a DESC_REQ.
func DecodeDescReq(p []byte) (pmapi.PMID, error) {
	d := newDecoder(p, DescReq)
	id := pmapi.PMID(d.u32())
	return id, d.end(true)
}

// descLen is the wire size of a pmDesc: pmid, type, indom, sem, units.
const descLen = 20

func (e *encoder) desc(ds pmapi.Desc) {
	e.u32(uint32(ds.PMID))
	e.i32(int32(ds.Type))
	e.u32(uint32(ds.InDom))
	e.i32(int32(ds.Sem))
	e.u32(ds.Units.Pack())
}

func (d *decoder) desc() pmapi.Desc {
	var ds pmapi.Desc
	ds.PMID = pmapi.PMID(d.u32())
	ds.Type = pmapi.Type(d.i32())
	ds.InDom = pmapi.InDom(d.u32())
	ds.Sem = pmapi.Sem(d.i32())
	ds.Units = pmapi.UnpackUnits(d.u32())
	return ds
}

// EncodeDesc builds a DESC reply.
func EncodeDesc(ds pmapi.Desc) []byte {
	e := newEncoder(Desc, 0, descLen)
	e.desc(ds)
	return e.finish()
}

// DecodeDesc decodes a DESC reply.
func DecodeDesc(p []byte) (pmapi.Desc, error) {
	d := newDecoder(p, Desc)
	ds := d.desc()
	return ds, d.end(true)
}

// EncodeDescs builds a DESCS reply: one descriptor per PMID asked for,
// with PMID PMIDNull where there is none.
func EncodeDescs(ds []pmapi.Desc) []byte {
	e := newEncoder(Descs, 0, 4+descLen*len(ds))
	e.i32(int32(len(ds)))
	for _, x := range ds {
		e.desc(x)
	}
	return e.finish()
}

// DecodeDescs decodes a DESCS reply.
func DecodeDescs(p []byte) ([]pmapi.Desc, error) {
	d := newDecoder(p, Descs)
	n := d.count("descriptor count", descLen)
	if d.err == nil && n == 0 {
		d.fail("no descriptors")
	}
	ds := make([]pmapi.Desc, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		ds = append(ds, d.desc())
	}
	if err := d.end(true); err != nil {
		return nil, err
	}
	return ds, nil
}

// InstanceQuery is an INSTANCE_REQ: all instances of InDom (Inst is
// InNull and Name empty), the name of one instance (Inst), or the number
// of one name (Name, with Inst InNull).
type InstanceQuery struct {
	InDom pmapi.InDom
	Inst  int32
	Name  string
}

// EncodeInstanceReq builds an INSTANCE_REQ.
func EncodeInstanceReq(q InstanceQuery) []byte {
	e := newEncoder(InstanceReq, 0, 20+len(q.Name)+3)
	e.u32(uint32(q.InDom))
	e.u64(0) // a timestamp no longer used
	e.i32(q.Inst)
	e.i32(int32(len(q.Name)))
	e.str(q.Name)
	return e.finish()
}

// DecodeInstanceReq decodes an INSTANCE_REQ.
func DecodeInstanceReq(p []byte) (InstanceQuery, error) {
	d := newDecoder(p, InstanceReq)
	var q InstanceQuery
	q.InDom = pmapi.InDom(d.u32())
	d.u64()
	q.Inst = d.i32()
	q.Name = d.str(int(d.i32()))
	return q, d.end(false)
}

// EncodeInstances builds an INSTANCE reply.
func EncodeInstances(indom pmapi.InDom, insts []pmapi.Instance) []byte {
	size := 8
	for _, in := range insts {
		size += 8 + len(in.Name) + 3
	}
	e := newEncoder(Instance, 0, size)
	e.u32(uint32(indom))
	e.i32(int32(len(insts)))
	for _, in := range insts {
		e.i32(in.ID)
		e.i32(int32(len(in.Name)))
		e.str(in.Name)
	}
	return e.finish()
}

// DecodeInstances decodes an INSTANCE reply.
func DecodeInstances(p []byte) (pmapi.InDom, []pmapi.Instance, error) {
	d := newDecoder(p, Instance)
	indom := pmapi.InDom(d.u32())
	n := d.count("instance count", 8)
	insts := make([]pmapi.Instance, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		id := d.i32()
		name := d.str(int(d.i32()))
		insts = append(insts, pmapi.Instance{ID: id, Name: name})
	}
	if err := d.end(false); err != nil {
		return 0, nil, err
	}
	return indom, insts, nil
}

// EncodeTextReq builds a TEXT_REQ; kind is PM_TEXT_ONELINE or _HELP or'd
// with PM_TEXT_PMID or _INDOM.
func EncodeTextReq(ident uint32, kind pmapi.TextKind) []byte {
	e := newEncoder(TextReq, 0, 8)
	e.u32(ident)
	e.i32(int32(kind))
	return e.finish()
}

// DecodeTextReq decodes a TEXT_REQ.
func DecodeTextReq(p []byte) (ident uint32, kind pmapi.TextKind, err error) {
	d := newDecoder(p, TextReq)
	ident = d.u32()
	kind = pmapi.TextKind(d.i32())
	return ident, kind, d.end(false)
}

// EncodeText builds a TEXT reply.
func EncodeText(ident uint32, text string) []byte {
	e := newEncoder(Text, 0, 8+len(text)+3)
	e.u32(ident)
	e.i32(int32(len(text)))
	e.str(text)
	return e.finish()
}

// DecodeText decodes a TEXT reply.
func DecodeText(p []byte) (ident uint32, text string, err error) {
	d := newDecoder(p, Text)
	ident = d.u32()
	text = d.str(int(d.i32()))
	return ident, text, d.end(false)
}
