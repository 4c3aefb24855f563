package pmapi

import (
	"encoding/hex"
	"reflect"
	"testing"
	"time"
)

// goldenEvents returns the event arrays of type typ in the format golden.
func goldenEvents(t testing.TB, typ Type) []Atom {
	tt, ok := t.(*testing.T)
	if !ok {
		tt = &testing.T{}
	}
	var atoms []Atom
	for _, r := range readGoldenFile(tt, goldenFormat, "V") {
		if r[0] != typ.numString() {
			continue
		}
		b, err := hex.DecodeString(r[2])
		if err != nil {
			t.Fatal(err)
		}
		atoms = append(atoms, Blob(typ, string(b)))
	}
	return atoms
}

func (t Type) numString() string { return itoa10(int(t)) }

func itoa10(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa10(n/10) + string(rune('0'+n%10))
}

func TestDecodeEvents(t *testing.T) {
	p1, p2 := NewPMID(29, 0, 127), NewPMID(29, 0, 134)
	for _, typ := range []Type{TypeEvent, TypeHighresEvent} {
		atoms := goldenEvents(t, typ)
		if len(atoms) != 4 {
			t.Fatalf("%d %v arrays in the golden, want 4", len(atoms), typ)
		}
		frac := int64(555941000)
		if typ == TypeHighresEvent {
			frac = 555941984
		}
		recs, err := DecodeEvents(atoms[2])
		if err != nil {
			t.Fatal(err)
		}
		want := []EventRecord{
			{Time: TimeOf(1415844041, frac), Flags: EventFlagStart | EventFlagID,
				Params: []EventParam{{p1, U32(4)}}},
			{Time: TimeOf(1415844042, frac)},
			{Time: TimeOf(1415844043, frac), Flags: EventFlagEnd,
				Params: []EventParam{{p2, String("twelve")}}},
			{Time: TimeOf(1415844044, frac), Flags: EventFlagMissed, Missed: 7},
			{Time: TimeOf(1415844045, frac), Flags: EventFlagPoint,
				Params: []EventParam{{p1, I32(16)}}},
		}
		if !reflect.DeepEqual(recs, want) {
			t.Errorf("%v: DecodeEvents =\n%+v\nwant\n%+v", typ, recs, want)
		}
		if recs, err := DecodeEvents(atoms[0]); err != nil || len(recs) != 0 {
			t.Errorf("%v: empty array gives %v, %v", typ, recs, err)
		}
	}
}

func TestDecodeEventsErrors(t *testing.T) {
	good := goldenEvents(t, TypeEvent)[1].Str()
	for _, c := range []struct {
		name string
		a    Atom
		want Errno
	}{
		{"not an event", I32(1), ErrType},
		{"no count", Blob(TypeEvent, "\x00\x00"), ErrTooSmall},
		{"negative count", Blob(TypeEvent, "\xff\xff\xff\xff"), ErrTooSmall},
		{"truncated record", Blob(TypeEvent, good[:10]), ErrTooBig},
		{"truncated parameter", Blob(TypeEvent, good[:len(good)-4]), ErrTooBig},
		{"missed with other flags", Blob(TypeEvent, "\x00\x00\x00\x01"+
			"\x00\x00\x00\x01\x00\x00\x00\x00\x80\x00\x00\x01\x00\x00\x00\x03"), ErrConv},
		{"nested event", Blob(TypeEvent, "\x00\x00\x00\x01"+
			"\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x01"+
			"\x07\x40\x00\x01\x09\x00\x00\x08\x00\x00\x00\x00"), ErrType},
	} {
		if _, err := DecodeEvents(c.a); Code(err) != c.want {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
}

func TestEventFlagsString(t *testing.T) {
	for flags, want := range map[uint32]string{
		0:                                 "",
		EventFlagPoint:                    "point",
		0x1a:                              "start,id,parent",
		EventFlagMissed | EventFlagPoint:  "missed",
		EventFlagStart | EventFlagEnd | 1: "point,start,end",
	} {
		if got := EventFlagsString(flags); got != want {
			t.Errorf("EventFlagsString(%#x) = %q, want %q", flags, got, want)
		}
	}
}

// FuzzEvents checks that no event array makes the decoder or the summary
// panic, and that what decodes has as many records as its count says.
func FuzzEvents(f *testing.F) {
	for _, typ := range []Type{TypeEvent, TypeHighresEvent} {
		for _, a := range goldenEvents(f, typ) {
			f.Add(a.Str(), typ == TypeHighresEvent)
		}
	}
	f.Fuzz(func(t *testing.T, b string, highres bool) {
		typ := TypeEvent
		if highres {
			typ = TypeHighresEvent
		}
		a := Blob(typ, b)
		EventSummary(a, time.UTC)
		recs, err := DecodeEvents(a)
		if err == nil && len(recs) != int(int32(new(eventBytes).withBytes(b).u32(0))) {
			t.Errorf("decoded %d records from an array that says otherwise", len(recs))
		}
	})
}

func (e *eventBytes) withBytes(b string) *eventBytes { e.b = b; return e }
