package pdu

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/gopcp/pmie/pmapi"
)

// Type is a PDU type (PDU_*).
type Type uint32

// The PDU types of PCP 6.0.3.
const (
	Error         Type = 0x7000
	Result        Type = 0x7001
	Profile       Type = 0x7002
	Fetch         Type = 0x7003
	DescReq       Type = 0x7004
	Desc          Type = 0x7005
	InstanceReq   Type = 0x7006
	Instance      Type = 0x7007
	TextReq       Type = 0x7008
	Text          Type = 0x7009
	Creds         Type = 0x700c
	PMNSIDs       Type = 0x700d
	PMNSNames     Type = 0x700e
	PMNSChild     Type = 0x700f
	PMNSTraverse  Type = 0x7010
	Attr          Type = 0x7011
	LabelReq      Type = 0x7012
	Label         Type = 0x7013
	HighResFetch  Type = 0x7014
	HighResResult Type = 0x7015
	DescIDs       Type = 0x7016
	Descs         Type = 0x7017
)

var typeNames = map[Type]string{
	Error: "ERROR", Result: "RESULT", Profile: "PROFILE", Fetch: "FETCH",
	DescReq: "DESC_REQ", Desc: "DESC", InstanceReq: "INSTANCE_REQ",
	Instance: "INSTANCE", TextReq: "TEXT_REQ", Text: "TEXT", Creds: "CREDS",
	PMNSIDs: "PMNS_IDS", PMNSNames: "PMNS_NAMES", PMNSChild: "PMNS_CHILD",
	PMNSTraverse: "PMNS_TRAVERSE", Attr: "ATTR", LabelReq: "LABEL_REQ",
	Label: "LABEL", HighResFetch: "HIGHRES_FETCH",
	HighResResult: "HIGHRES_RESULT", DescIDs: "DESC_IDS", Descs: "DESCS",
}

// String is the name PCP gives t ("FETCH"), or "TYPE-n?" if it has none.
func (t Type) String() string {
	if s, ok := typeNames[t]; ok {
		return s
	}
	return fmt.Sprintf("TYPE-%d?", int32(t))
}

// HeaderLen is the size of the PDU header in bytes.
const HeaderLen = 12

// DefaultMaxLen is the largest PDU Read accepts unless told otherwise. It
// is far above anything pmcd sends for a sane request (a whole-namespace
// traversal is ~100 KB) but keeps a corrupt length from costing memory.
const DefaultMaxLen = 64 << 20

// Header is the first three words of every PDU.
type Header struct {
	Len  int
	Type Type
	From int32
}

// ParseHeader decodes the header at the start of p.
func ParseHeader(p []byte) (Header, error) {
	if len(p) < HeaderLen {
		return Header{}, malformed(0, "PDU shorter than its header")
	}
	return Header{
		Len:  int(int32(binary.BigEndian.Uint32(p))),
		Type: Type(binary.BigEndian.Uint32(p[4:])),
		From: int32(binary.BigEndian.Uint32(p[8:])),
	}, nil
}

// SetFrom puts from in the header of p, a whole PDU (as the encoders give
// it, from 0), as its sender: a client names its context there, pmcd 0 or
// the PMDA's domain. It returns p.
func SetFrom(p []byte, from int32) []byte {
	binary.BigEndian.PutUint32(p[8:], uint32(from))
	return p
}

// FormatError is a PDU that does not follow the protocol. Its pmapi.Code is
// pmapi.ErrIPC, or pmapi.ErrTooBig for a PDU over the size limit.
type FormatError struct {
	Type Type // 0 when the header itself is bad
	Msg  string
	Code pmapi.Errno
}

func (e *FormatError) Error() string {
	if e.Type == 0 {
		return "bad PDU: " + e.Msg
	}
	return "bad " + e.Type.String() + " PDU: " + e.Msg
}

// Unwrap gives the PCP error code, so pmapi.Code and errors.Is see it.
func (e *FormatError) Unwrap() error { return e.Code }

func malformed(t Type, format string, args ...any) error {
	return &FormatError{Type: t, Msg: fmt.Sprintf(format, args...), Code: pmapi.ErrIPC}
}

// Read reads one PDU from r. It reads the 12-byte header first, checks the
// length it gives against HeaderLen and maxLen (DefaultMaxLen if maxLen is
// 0), and only then reads the rest into buf, which it grows as needed and
// returns (the PDU is p[:Header.Len]). A PDU over the limit is an error
// wrapping pmapi.ErrTooBig, and nothing of its body is read. End of input
// before the first byte is io.EOF; part of a PDU is io.ErrUnexpectedEOF.
func Read(r io.Reader, buf []byte, maxLen int) (p []byte, err error) {
	if maxLen <= 0 {
		maxLen = DefaultMaxLen
	}
	if cap(buf) < HeaderLen {
		buf = make([]byte, 0, 1024)
	}
	buf = buf[:HeaderLen]
	if _, err := io.ReadFull(r, buf); err != nil {
		return buf[:0], err
	}
	h, _ := ParseHeader(buf)
	if h.Len < HeaderLen {
		return buf[:0], malformed(0, "length %d in header is less than %d", h.Len, HeaderLen)
	}
	if h.Len > maxLen {
		return buf[:0], &FormatError{Type: h.Type,
			Msg:  fmt.Sprintf("length %d exceeds the limit of %d bytes", h.Len, maxLen),
			Code: pmapi.ErrTooBig}
	}
	if cap(buf) < h.Len {
		nb := make([]byte, h.Len)
		copy(nb, buf)
		buf = nb
	}
	buf = buf[:h.Len]
	if _, err := io.ReadFull(r, buf[HeaderLen:]); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return buf[:0], err
	}
	return buf, nil
}

// encoder builds one PDU. The length word is filled in by finish.
type encoder struct {
	b []byte
}

func newEncoder(t Type, from int32, size int) *encoder {
	return encoderOn(make([]byte, 0, HeaderLen+size), t, from)
}

// encoderOn builds a PDU in buf's storage (from its start), which grows
// as need be.
func encoderOn(buf []byte, t Type, from int32) *encoder {
	e := &encoder{b: buf[:0]}
	e.u32(0)
	e.u32(uint32(t))
	e.i32(from)
	return e
}

func (e *encoder) u32(v uint32) { e.b = binary.BigEndian.AppendUint32(e.b, v) }
func (e *encoder) i32(v int32)  { e.u32(uint32(v)) }
func (e *encoder) u64(v uint64) { e.b = binary.BigEndian.AppendUint64(e.b, v) }

// pad appends zero bytes up to the next word boundary.
func (e *encoder) pad() {
	for len(e.b)%4 != 0 {
		e.b = append(e.b, 0)
	}
}

// str appends s and pads it to a word boundary.
func (e *encoder) str(s string) {
	e.b = append(e.b, s...)
	e.pad()
}

func (e *encoder) finish() []byte {
	binary.BigEndian.PutUint32(e.b, uint32(len(e.b)))
	return e.b
}

// decoder reads the words of one PDU, remembering the first failure so
// that callers can check once at the end.
type decoder struct {
	t   Type
	p   []byte
	off int
	err error
}

// newDecoder checks that p is a whole PDU of type t and positions the
// decoder after the header. It is a value, which the caller keeps on its
// stack: a live pmie decodes a result at every fetch.
func newDecoder(p []byte, t Type) decoder {
	d := decoder{t: t, p: p, off: HeaderLen}
	h, err := ParseHeader(p)
	switch {
	case err != nil:
		d.err = err
	case h.Type != t:
		d.err = malformed(t, "PDU has type %s", h.Type)
	case h.Len != len(p):
		d.err = malformed(t, "header length %d but %d bytes", h.Len, len(p))
	}
	return d
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = malformed(d.t, format, args...)
	}
}

func (d *decoder) left() int { return len(d.p) - d.off }

func (d *decoder) u32() uint32 {
	if d.err != nil {
		return 0
	}
	if d.left() < 4 {
		d.fail("truncated at byte %d", d.off)
		return 0
	}
	v := binary.BigEndian.Uint32(d.p[d.off:])
	d.off += 4
	return v
}

func (d *decoder) i32() int32 { return int32(d.u32()) }

func (d *decoder) u64() uint64 {
	hi := d.u32()
	return uint64(hi)<<32 | uint64(d.u32())
}

// count reads a non-negative element count, each element taking at least
// minBytes of what is left, so a corrupt count cannot drive allocation.
func (d *decoder) count(what string, minBytes int) int {
	n := d.i32()
	if d.err != nil {
		return 0
	}
	if n < 0 || (minBytes > 0 && int(n) > d.left()/minBytes) {
		d.fail("%s %d does not fit in the PDU", what, n)
		return 0
	}
	return int(n)
}

// str reads n bytes of string and skips its padding.
func (d *decoder) str(n int) string {
	if d.err != nil {
		return ""
	}
	if n < 0 || n > d.left() {
		d.fail("string length %d at byte %d overruns the PDU", n, d.off)
		return ""
	}
	s := string(d.p[d.off : d.off+n])
	d.off += n
	if pad := (4 - n%4) % 4; pad <= d.left() {
		d.off += pad
	} else {
		d.off = len(d.p)
	}
	return s
}

// end checks that the whole PDU was consumed, when exact is set, and
// returns the first error.
func (d *decoder) end(exact bool) error {
	if d.err == nil && exact && d.left() != 0 {
		d.fail("%d bytes left over", d.left())
	}
	return d.err
}
