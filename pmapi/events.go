package pmapi

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Event array values.
//
// An Atom of TypeEvent or TypeHighresEvent (made with Blob) holds an event
// array exactly as archive volumes and PDUs carry it, less the 4-byte
// type/length word that starts every value block: a 32-bit record count,
// then the packed records. Each record is a timestamp (two 32-bit fields,
// seconds and microseconds, or for TypeHighresEvent two 64-bit fields,
// seconds and nanoseconds), 32-bit flags and a 32-bit parameter count, then
// the parameters: a PMID, a word holding the type in its top 8 bits and
// the length (including this word) in its low 24, and the value, padded to
// a multiple of 4 bytes. Every field is big-endian (network order).

// The event record flags (PM_EVENT_FLAG_*).
const (
	EventFlagPoint  uint32 = 1 << 0
	EventFlagStart  uint32 = 1 << 1
	EventFlagEnd    uint32 = 1 << 2
	EventFlagID     uint32 = 1 << 3
	EventFlagParent uint32 = 1 << 4
	EventFlagMissed uint32 = 1 << 31
)

// EventFlagsString is pmEventFlagsStr(3): "missed", or the names of the
// other flags joined by commas ("start,id,parent").
func EventFlagsString(flags uint32) string {
	if flags&EventFlagMissed != 0 {
		return "missed"
	}
	var names []string
	for _, f := range []struct {
		bit  uint32
		name string
	}{{EventFlagPoint, "point"}, {EventFlagStart, "start"}, {EventFlagEnd, "end"},
		{EventFlagID, "id"}, {EventFlagParent, "parent"}} {
		if flags&f.bit != 0 {
			names = append(names, f.name)
		}
	}
	return strings.Join(names, ",")
}

// EventRecord is one record of an event array.
type EventRecord struct {
	Time  Time
	Flags uint32
	// Missed is, for a record with EventFlagMissed, how many records were
	// missed; such a record has no Params.
	Missed int32
	Params []EventParam
}

// EventParam is one parameter of an event record.
type EventParam struct {
	PMID PMID
	Atom Atom
}

// eventBytes reads the big-endian fields of an event array; reads past
// the end give zeros, and past reports whether any read did.
type eventBytes struct {
	b    string
	past bool
}

func (e *eventBytes) u32(off int) uint32 {
	if off < 0 || off+4 > len(e.b) {
		e.past = true
		return 0
	}
	return binary.BigEndian.Uint32([]byte(e.b[off : off+4]))
}

func (e *eventBytes) u64(off int) uint64 {
	return uint64(e.u32(off))<<32 | uint64(e.u32(off+4))
}

// recordHeader is the size of a record's timestamp, flags and count.
func recordHeader(highres bool) int {
	if highres {
		return 24
	}
	return 16
}

// stamp reads the timestamp of the record at off.
func (e *eventBytes) stamp(off int, highres bool) Time {
	if highres {
		return TimeOf(int64(e.u64(off)), int64(e.u64(off+8)))
	}
	return TimeOf(int64(int32(e.u32(off))), int64(int32(e.u32(off+4)))*1000)
}

// paramSize is the bytes a parameter with length word ln takes: its PMID
// and its length rounded up to 4 bytes.
func paramSize(ln uint32) int { return 4 + int((ln+3)&^3) }

// FormatEventStamp prints t as pmPrintStamp (HH:MM:SS.mmm) or, for
// highres, pmPrintHighResStamp (HH:MM:SS.nnnnnnnnn) do, in loc.
func FormatEventStamp(t Time, highres bool, loc *time.Location) string {
	lt := t.Std().In(loc)
	if highres {
		return fmt.Sprintf("%02d:%02d:%02d.%09d", lt.Hour(), lt.Minute(), lt.Second(), t.Nsec())
	}
	return fmt.Sprintf("%02d:%02d:%02d.%03d", lt.Hour(), lt.Minute(), lt.Second(), t.Nsec()/1e6)
}

// EventSummary is what pmPrintValue prints for an event array: the number
// of records, how many were missed, and the first and last timestamps in
// loc, such as "[2 event records timestamps 06:50:48.566...06:50:48.566]".
//
// Like libpcp it finds the last record by walking the array without
// stepping over records that report missed events, so after one of those
// the "last" timestamp is that record's.
func EventSummary(a Atom, loc *time.Location) string {
	highres := a.Type == TypeHighresEvent
	e := &eventBytes{b: a.str}
	n := int32(e.u32(0))
	first := e.stamp(4, highres)
	base := 4
	missed := int32(0)
	for r := int32(0); r < n-1; r++ {
		flags := e.u32(base + recordHeader(highres) - 8)
		nparams := int32(e.u32(base + recordHeader(highres) - 4))
		if e.past {
			break // a damaged array: stop rather than walk on
		}
		if flags&EventFlagMissed != 0 {
			// libpcp stays on this record for every remaining step
			missed += nparams * (n - 1 - r)
			break
		}
		base += recordHeader(highres)
		for p := int32(0); p < nparams && !e.past; p++ {
			base += paramSize(e.u32(base+4) & 0xffffff)
		}
		if e.past {
			break // a damaged array: stop rather than walk on
		}
	}
	var b strings.Builder
	b.WriteString("[" + strconv.Itoa(int(n)) + " event record")
	if n != 1 {
		b.WriteByte('s')
	}
	if missed > 0 {
		b.WriteString(" (" + strconv.Itoa(int(missed)) + " missed)")
	}
	if n > 0 {
		b.WriteString(" timestamp")
		if n > 1 {
			b.WriteByte('s')
		}
		b.WriteString(" " + FormatEventStamp(first, highres, loc))
		if n > 1 {
			b.WriteString("..." + FormatEventStamp(e.stamp(base, highres), highres, loc))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// DecodeEvents unpacks an event array as pmUnpackEventRecords(3) and
// pmUnpackHighResEventRecords(3) do, with their checks: ErrType for an
// atom that is not an event array or a parameter that is one, ErrTooSmall
// for a negative count, a short array or a parameter shorter than its
// header, ErrTooBig for records that run
// past its end, and ErrConv for a record that has other flags besides
// EventFlagMissed.
func DecodeEvents(a Atom) ([]EventRecord, error) {
	if a.Type != TypeEvent && a.Type != TypeHighresEvent {
		return nil, ErrType
	}
	highres := a.Type == TypeHighresEvent
	e := &eventBytes{b: a.str}
	if len(a.str) < 4 {
		return nil, ErrTooSmall
	}
	n := int32(e.u32(0))
	if n < 0 {
		return nil, ErrTooSmall
	}
	recs := make([]EventRecord, 0, min(int(n), len(a.str)/16))
	base := 4
	for r := int32(0); r < n; r++ {
		hdr := recordHeader(highres)
		if base+hdr > len(a.str) {
			return nil, ErrTooBig
		}
		rec := EventRecord{
			Time:  e.stamp(base, highres),
			Flags: e.u32(base + hdr - 8),
		}
		nparams := int32(e.u32(base + hdr - 4))
		base += hdr
		if rec.Flags&EventFlagMissed != 0 {
			if rec.Flags != EventFlagMissed {
				return nil, ErrConv
			}
			rec.Missed = nparams
			nparams = 0
		}
		for p := int32(0); p < nparams; p++ {
			if base+8 > len(a.str) {
				return nil, ErrTooBig
			}
			word := e.u32(base + 4)
			if word&0xffffff < 4 {
				return nil, ErrTooSmall // shorter than its own length word
			}
			size := paramSize(word & 0xffffff)
			if base+size > len(a.str) {
				return nil, ErrTooBig
			}
			atom, err := paramAtom(Type(word>>24), a.str[base+8:base+size], word&0xffffff)
			if err != nil {
				return nil, err
			}
			rec.Params = append(rec.Params, EventParam{PMID: PMID(e.u32(base)), Atom: atom})
			base += size
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// paramAtom makes the value of one event parameter of type t from its
// bytes (padded) and its length word ln.
func paramAtom(t Type, b string, ln uint32) (Atom, error) {
	need := map[Type]int{Type32: 4, TypeU32: 4, TypeFloat: 4, Type64: 8, TypeU64: 8, TypeDouble: 8}[t]
	if len(b) < need {
		return Atom{}, ErrTooBig
	}
	be := []byte(b)
	switch t {
	case Type32:
		return I32(int32(binary.BigEndian.Uint32(be))), nil
	case TypeU32:
		return U32(binary.BigEndian.Uint32(be)), nil
	case Type64:
		return I64(int64(binary.BigEndian.Uint64(be))), nil
	case TypeU64:
		return U64(binary.BigEndian.Uint64(be)), nil
	case TypeFloat:
		return F32(math.Float32frombits(binary.BigEndian.Uint32(be))), nil
	case TypeDouble:
		return F64(math.Float64frombits(binary.BigEndian.Uint64(be))), nil
	case TypeString, TypeAggregate, TypeAggregateStatic:
		n := int(ln) - 4
		if n < 0 || n > len(b) {
			return Atom{}, ErrTooBig
		}
		if t == TypeString {
			return String(strings.TrimSuffix(b[:n], "\x00")), nil
		}
		return Blob(t, b[:n]), nil
	}
	return Atom{}, ErrType
}
