package pdu

import (
	"encoding/binary"
	"slices"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// A LABEL reply is: ident, type, a padding word and a count of label sets;
// then each set as instance, label count (or error code), offset of its
// JSON text from the start of the PDU and that text's length, followed by
// one 8-byte index entry per label (name offset and length, flags, value
// offset and length, offsets relative to the set's JSON text); then all
// the JSON texts.

// Limits of pmapi.h: labels per set and bytes of JSON per set.
const (
	maxLabels   = 1<<8 - 1
	maxJSONLen  = 1<<16 - 1
	labelSetLen = 16
	labelLen    = 8
)

// EncodeLabelReq builds a LABEL_REQ. ident is a domain number, PMID or
// InDom as level requires (ignored for the context level).
func EncodeLabelReq(ident uint32, level pmapi.LabelFlag) []byte {
	if level&pmapi.LabelContext != 0 {
		ident = uint32(pmapi.PMIDNull)
	}
	e := newEncoder(LabelReq, 0, 8)
	e.u32(ident)
	e.i32(int32(level))
	return e.finish()
}

// DecodeLabelReq decodes a LABEL_REQ.
func DecodeLabelReq(p []byte) (ident uint32, level pmapi.LabelFlag, err error) {
	d := newDecoder(p, LabelReq)
	ident = d.u32()
	level = pmapi.LabelFlag(d.i32())
	return ident, level, d.end(false)
}

// labelJSON renders labels as the JSON object PCP sends, with each label's
// name and value offsets within it.
func labelJSON(labels []pmapi.Label) (string, [][4]int) {
	var b strings.Builder
	idx := make([][4]int, len(labels))
	b.WriteByte('{')
	for i, l := range labels {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		idx[i][0], idx[i][1] = b.Len(), len(l.Name)
		b.WriteString(l.Name)
		b.WriteString(`":`)
		idx[i][2], idx[i][3] = b.Len(), len(l.Value)
		b.WriteString(l.Value)
	}
	b.WriteByte('}')
	return b.String(), idx
}

// EncodeLabels builds a LABEL reply.
func EncodeLabels(ident uint32, level pmapi.LabelFlag, sets []pmapi.LabelSet) []byte {
	e := newEncoder(Label, 0, 16+labelSetLen*len(sets))
	e.u32(ident)
	e.i32(int32(level))
	e.i32(0)
	e.i32(int32(len(sets)))
	jsonAt := len(e.b)
	for _, s := range sets {
		jsonAt += labelSetLen + labelLen*len(s.Labels)
	}
	var texts []string
	for _, s := range sets {
		js, idx := labelJSON(s.Labels)
		if len(s.Labels) == 0 {
			js = ""
		}
		e.i32(s.Inst)
		e.i32(int32(len(s.Labels)))
		e.i32(int32(jsonAt))
		e.i32(int32(len(js)))
		for i, l := range s.Labels {
			e.b = binary.BigEndian.AppendUint16(e.b, uint16(idx[i][0]))
			e.b = append(e.b, uint8(idx[i][1]), uint8(l.Flags))
			e.b = binary.BigEndian.AppendUint16(e.b, uint16(idx[i][2]))
			e.b = binary.BigEndian.AppendUint16(e.b, uint16(idx[i][3]))
		}
		texts = append(texts, js)
		jsonAt += len(js)
	}
	for _, t := range texts {
		e.b = append(e.b, t...)
	}
	return e.finish()
}

// DecodeLabels decodes a LABEL reply. Each set's labels come sorted by
// name; a set whose count is an error code has no labels.
func DecodeLabels(p []byte) (ident uint32, level pmapi.LabelFlag, sets []pmapi.LabelSet, err error) {
	d := newDecoder(p, Label)
	ident = d.u32()
	level = pmapi.LabelFlag(d.i32())
	d.i32()
	n := d.count("label set count", labelSetLen)
	for i := 0; i < n && d.err == nil; i++ {
		sets = append(sets, d.labelSet())
	}
	if err := d.end(false); err != nil {
		return 0, 0, nil, err
	}
	return ident, level, sets, nil
}

func (d *decoder) labelSet() pmapi.LabelSet {
	s := pmapi.LabelSet{Inst: d.i32()}
	nlabels := d.i32()
	jsonOff := int(d.i32())
	jsonLen := int(d.i32())
	if d.err != nil {
		return s
	}
	if nlabels <= 0 {
		return s // none, or an error code in place of the count
	}
	if nlabels > maxLabels || int(nlabels) > d.left()/labelLen ||
		jsonLen < 0 || jsonLen > maxJSONLen || jsonOff < 0 || jsonOff > len(d.p)-jsonLen {
		d.fail("label set of %d labels, JSON at %d length %d", nlabels, jsonOff, jsonLen)
		return s
	}
	js := d.p[jsonOff : jsonOff+jsonLen]
	for range nlabels {
		e := d.p[d.off : d.off+labelLen]
		d.off += labelLen
		name, nameLen := int(binary.BigEndian.Uint16(e)), int(e[2])
		val, valLen := int(binary.BigEndian.Uint16(e[4:])), int(binary.BigEndian.Uint16(e[6:]))
		if name+nameLen > len(js) || val+valLen > len(js) {
			d.fail("label index outside its JSON text")
			return s
		}
		s.Labels = append(s.Labels, pmapi.Label{
			Name:  string(js[name : name+nameLen]),
			Value: string(js[val : val+valLen]),
			Flags: pmapi.LabelFlag(e[3]),
		})
	}
	slices.SortStableFunc(s.Labels, func(a, b pmapi.Label) int { return strings.Compare(a.Name, b.Name) })
	return s
}
