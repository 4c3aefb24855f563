package stomptest

import (
	"net"
	"testing"
	"time"
)

// TestParseBehaviour checks the golden cases' behaviour words, and that a
// word it does not know is an error.
func TestParseBehaviour(t *testing.T) {
	b, err := ParseBehaviour("replies=1 close-at=4 stall-at=2 delay=300ms")
	if err != nil || b != (Behaviour{Replies: 1, CloseAt: 4, StallAt: 2, Delay: 300 * time.Millisecond}) {
		t.Errorf("got %+v, %v", b, err)
	}
	if b, err := ParseBehaviour(""); err != nil || b != (Behaviour{Replies: 2, CloseAt: -1}) {
		t.Errorf("default: got %+v, %v", b, err)
	}
	for _, bad := range []string{"replies", "replies=x", "colour=red", "delay=5"} {
		if _, err := ParseBehaviour(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestRecord checks what the broker answers and records: CONNECTED to
// CONNECT, ERROR to an unknown command, nothing to a SEND, and each
// frame on a line of its own.
func TestRecord(t *testing.T) {
	br, err := Start("127.0.0.1:0", Behaviour{Replies: 3, CloseAt: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	c, err := net.Dial("tcp", br.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]byte("CONNECT\n\n\x00\nSUB\n\n\x00\nSEND\n\nhi\x00\n"))
	want := "CONNECTED\nsession:stomptest\n\n\x00\nERROR\nmessage:Unknown STOMP action: SUB\n\n\x00\n"
	got := make([]byte, len(want))
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for n := 0; n < len(want); {
		m, err := c.Read(got[n:])
		if err != nil {
			t.Fatal(err)
		}
		n += m
	}
	if string(got) != want {
		t.Errorf("answered %q, want %q", got, want)
	}
	c.Close()
	if !br.Settle(1, 10*time.Second) {
		t.Fatal("the connection's end was not seen")
	}
	rec := "connection 1\n\"CONNECT\\n\\n\\x00\\n\"\n\"SUB\\n\\n\\x00\\n\"\n\"SEND\\n\\nhi\\x00\\n\"\nclosed by the client\n"
	if br.Record() != rec {
		t.Errorf("record:\n%s\nwant:\n%s", br.Record(), rec)
	}
}
