package pdu

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/gopcp/pmie/pmapi"
)

// A fetch result is: a timestamp, a count of value sets, then for each set
// its PMID, its value count (or a negative error code) and, when there are
// values, a format word and (instance, value) pairs. A value is either the
// 32-bit value itself ("in situ") or the word offset from the start of the
// PDU of a value block: one word holding type (top 8 bits) and length (low
// 24 bits, header word included), then the value's bytes, padded. The value
// blocks follow the last value set.

// The value formats (PM_VAL_*).
const (
	valInsitu = 0
	valDPtr   = 1
	valSPtr   = 2
)

// valHdrLen is the size of a value block's type/length word.
const valHdrLen = 4

// resultHeadLen is the size of what precedes the value sets: the header
// then, for RESULT, a 32-bit timeval and the count; for HIGHRES_RESULT the
// count, then 64-bit seconds and nanoseconds.
func resultHeadLen(t Type) int {
	if t == HighResResult {
		return HeaderLen + 4 + 16
	}
	return HeaderLen + 8 + 4
}

// insitu reports whether values of type t travel in situ.
func insitu(t pmapi.Type) bool { return t == pmapi.Type32 || t == pmapi.TypeU32 }

// EncodeResult builds a RESULT or HIGHRES_RESULT (t) from r. Value sets
// with a non-nil Err carry its PCP code instead of values.
func EncodeResult(t Type, r *pmapi.Result) []byte {
	e := newEncoder(t, 0, 64)
	if t == HighResResult {
		e.i32(int32(len(r.Sets)))
		e.u64(uint64(r.Time.Sec()))
		e.u64(uint64(r.Time.Nsec()))
	} else {
		e.i32(int32(r.Time.Sec()))
		e.i32(int32(r.Time.Nsec() / 1000))
		e.i32(int32(len(r.Sets)))
	}
	// Lay out the value sets first, noting where each value block's
	// offset word goes; the blocks follow.
	var fix []int // where each value block's offset goes
	var blocks [][]byte
	for _, vs := range r.Sets {
		e.u32(uint32(vs.PMID))
		if vs.Err != nil {
			e.i32(int32(pmapi.Code(vs.Err)))
			continue
		}
		e.i32(int32(len(vs.Values)))
		if len(vs.Values) == 0 {
			continue
		}
		in := true
		for _, v := range vs.Values {
			in = in && insitu(v.Atom.Type)
		}
		if in {
			e.i32(valInsitu)
		} else {
			e.i32(valDPtr)
		}
		for _, v := range vs.Values {
			e.i32(v.Inst)
			if in {
				e.u32(uint32(v.Atom.Uint64()))
				continue
			}
			fix = append(fix, len(e.b))
			e.u32(0)
			blocks = append(blocks, valueBlock(v.Atom))
		}
	}
	for i, b := range blocks {
		binary.BigEndian.PutUint32(e.b[fix[i]:], uint32(len(e.b)/4))
		e.b = append(e.b, b...)
		e.pad()
	}
	return e.finish()
}

// valueBlock encodes a as a value block (unpadded).
func valueBlock(a pmapi.Atom) []byte {
	var body []byte
	switch a.Type {
	case pmapi.Type32, pmapi.TypeU32:
		body = binary.BigEndian.AppendUint32(nil, uint32(a.Uint64()))
	case pmapi.TypeFloat:
		body = binary.BigEndian.AppendUint32(nil, math.Float32bits(a.Float32()))
	case pmapi.Type64, pmapi.TypeU64:
		body = binary.BigEndian.AppendUint64(nil, a.Uint64())
	case pmapi.TypeDouble:
		body = binary.BigEndian.AppendUint64(nil, math.Float64bits(a.Float64()))
	case pmapi.TypeString:
		body = append([]byte(a.Str()), 0)
	default:
		body = []byte(a.Str())
	}
	b := binary.BigEndian.AppendUint32(nil, uint32(a.Type)<<24|uint32(valHdrLen+len(body)))
	return append(b, body...)
}

// DecodeResult decodes a RESULT or HIGHRES_RESULT into r, reusing its
// storage. Values sent in situ carry no type; typeOf gives the type of a
// metric's descriptor (Type32, TypeU32 or TypeFloat make sense; anything
// else is taken as Type32).
func DecodeResult(p []byte, r *pmapi.Result, typeOf func(pmapi.PMID) pmapi.Type) error {
	h, err := ParseHeader(p)
	if err != nil {
		return err
	}
	if h.Type != Result && h.Type != HighResResult {
		return malformed(h.Type, "not a fetch result")
	}
	d := newDecoder(p, h.Type)
	var n int
	if h.Type == HighResResult {
		n = d.count("value set count", 8)
		sec := int64(d.u64())
		nsec := int64(d.u64())
		r.Time = pmapi.TimeOf(sec, nsec)
	} else {
		sec := int64(d.i32())
		usec := int64(d.i32())
		r.Time = pmapi.TimeOf(sec, usec*1000)
		n = d.count("value set count", 8)
	}
	sets := r.Sets[:0]
	for i := 0; i < n && d.err == nil; i++ {
		var vs pmapi.ValueSet
		if i < cap(sets) {
			vs.Values = sets[:cap(sets)][i].Values[:0] // reuse the old storage
		}
		d.valueSet(&vs, typeOf)
		sets = append(sets, vs)
	}
	if d.err != nil {
		r.Sets = sets[:0]
		return d.err
	}
	r.Sets = sets
	return nil
}

func (d *decoder) valueSet(vs *pmapi.ValueSet, typeOf func(pmapi.PMID) pmapi.Type) {
	vs.PMID = pmapi.PMID(d.u32())
	numval := d.i32()
	if d.err != nil {
		return
	}
	if numval < 0 {
		vs.Err = pmapi.Errno(numval)
		return
	}
	if numval == 0 {
		return
	}
	valfmt := d.i32()
	if d.err == nil && int(numval) > d.left()/8 {
		d.fail("%d values for %s overrun the PDU", numval, vs.PMID)
		return
	}
	if d.err == nil && valfmt != valInsitu && valfmt != valDPtr && valfmt != valSPtr {
		d.fail("value format %d for %s", valfmt, vs.PMID)
		return
	}
	ityp := pmapi.TypeUnknown
	if valfmt == valInsitu && typeOf != nil {
		ityp = typeOf(vs.PMID)
	}
	for j := 0; j < int(numval) && d.err == nil; j++ {
		inst := d.i32()
		w := d.u32()
		var a pmapi.Atom
		switch {
		case valfmt == valInsitu && !pmapi.InsituFits(ityp):
			a = pmapi.Mismatch(true, w, "")
		case valfmt == valInsitu:
			a = pmapi.Insitu(ityp, w)
		default:
			a = d.typedBlock(int(w), typeOf, vs.PMID)
		}
		vs.Values = append(vs.Values, pmapi.Value{Inst: inst, Atom: a})
	}
}

// typedBlock decodes the value block at word offset off as a value of
// the metric's type (typeOf, nil or TypeUnknown when not known): a block
// stored otherwise than that type needs is a pmapi.Mismatch, as libpcp's
// pmExtractValue refuses it (a metric whose type changed since the client
// looked its descriptor up).
func (d *decoder) typedBlock(off int, typeOf func(pmapi.PMID) pmapi.Type, id pmapi.PMID) pmapi.Atom {
	a, vtype, body := d.block(off)
	if typeOf == nil || d.err != nil {
		return a
	}
	if t := typeOf(id); !pmapi.BlockFits(t, vtype, len(body)) {
		return pmapi.Mismatch(false, 0, string(pmapi.HostOrder(vtype, body)))
	}
	return a
}

// block decodes the value block at word offset off, giving also the
// block's own type and the bytes after its header.
func (d *decoder) block(off int) (a pmapi.Atom, vtype pmapi.Type, body []byte) {
	if d.err != nil {
		return pmapi.Atom{}, 0, nil
	}
	start := off * 4
	if off < 0 || off > len(d.p)/4 || start < resultHeadLen(d.t) || start+valHdrLen > len(d.p) {
		d.fail("value block offset %d outside the PDU", off)
		return pmapi.Atom{}, 0, nil
	}
	w := binary.BigEndian.Uint32(d.p[start:])
	vtype, vlen := pmapi.Type(w>>24), int(w&0xffffff)
	if vlen < valHdrLen || start+vlen > len(d.p) {
		d.fail("value block length %d at byte %d", vlen, start)
		return pmapi.Atom{}, 0, nil
	}
	body = d.p[start+valHdrLen : start+vlen]
	if len(body) < fixedSize(vtype) {
		d.fail("%d-byte value block for type %s", len(body), vtype)
		return pmapi.Atom{}, 0, nil
	}
	return blockAtom(vtype, body), vtype, body
}

// blockAtom is the value of a block of type vtype whose bytes after the
// header are body, long enough for the type.
func blockAtom(vtype pmapi.Type, body []byte) pmapi.Atom {
	switch vtype {
	case pmapi.Type32:
		return pmapi.I32(int32(binary.BigEndian.Uint32(body)))
	case pmapi.TypeU32:
		return pmapi.U32(binary.BigEndian.Uint32(body))
	case pmapi.TypeFloat:
		return pmapi.F32(math.Float32frombits(binary.BigEndian.Uint32(body)))
	case pmapi.Type64:
		return pmapi.I64(int64(binary.BigEndian.Uint64(body)))
	case pmapi.TypeU64:
		return pmapi.U64(binary.BigEndian.Uint64(body))
	case pmapi.TypeDouble:
		return pmapi.F64(math.Float64frombits(binary.BigEndian.Uint64(body)))
	case pmapi.TypeString:
		str, _, _ := bytes.Cut(body, []byte{0})
		return pmapi.String(string(str))
	}
	return pmapi.Blob(vtype, string(body))
}

// fixedSize is the size of a value of numeric type t, 0 for other types.
func fixedSize(t pmapi.Type) int {
	switch t {
	case pmapi.Type32, pmapi.TypeU32, pmapi.TypeFloat:
		return 4
	case pmapi.Type64, pmapi.TypeU64, pmapi.TypeDouble:
		return 8
	}
	return 0
}
