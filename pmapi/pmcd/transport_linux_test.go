package pmcd

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// unixPair dials a Unix socket listened on in a temporary directory and
// returns our transport over the client's end and the server's end.
func unixPair(t *testing.T) (*rawConn, net.Conn) {
	t.Helper()
	l, err := net.Listen("unix", filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	nc, err := net.Dial("unix", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c, ok := newTransport(nc).(*rawConn)
	if !ok || c.sock < 0 {
		t.Fatalf("a Unix socket's transport is %T, not a rawConn with a socket of its own", newTransport(nc))
	}
	return c, srv
}

// openFDs counts the process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip(err)
	}
	return len(ents)
}

// TestUnixTransport checks the transport of a Unix socket taken out of
// the runtime's poller: what is written arrives whole, also when the
// peer reads late (the write waits for room); what the peer writes is
// read whole; deadlines end waits for input and for room; Close ends a
// read waiting; the epoll instance never reports room for output (what
// the socket is taken out of the poller for); and nothing is left open.
func TestUnixTransport(t *testing.T) {
	before := openFDs(t)
	c, srv := unixPair(t)

	// 4 MB is more than a Unix socket holds: the write waits for room
	big := bytes.Repeat([]byte("0123456789abcdef"), 256<<10)
	got := make(chan []byte, 1)
	go func() {
		time.Sleep(100 * time.Millisecond)
		b, _ := io.ReadAll(io.LimitReader(srv, int64(len(big))))
		got <- b
	}()
	c.SetWriteDeadline(time.Now().Add(time.Minute))
	if n, err := c.Write(big); err != nil || n != len(big) {
		t.Fatalf("Write of %d bytes: %d, %v", len(big), n, err)
	}
	if b := <-got; !bytes.Equal(b, big) {
		t.Fatalf("the peer read %d bytes, not the %d written", len(b), len(big))
	}
	if c.out {
		t.Error("the epoll instance still watches for output after the write")
	}
	var evs [4]syscall.EpollEvent
	if n, err := syscall.EpollWait(c.epfd, evs[:], 0); err != nil || n != 0 {
		t.Errorf("epoll instance after the peer read everything: %d events (%+v), %v; want none", n, evs[:max(n, 0)], err)
	}

	// the peer's writes, read back whole
	go func() {
		for i := 0; i < 8; i++ {
			srv.Write(big[:len(big)/8])
			time.Sleep(5 * time.Millisecond)
		}
	}()
	c.SetReadDeadline(time.Now().Add(time.Minute))
	back := make([]byte, len(big))
	if _, err := io.ReadFull(c, back); err != nil || !bytes.Equal(back, bytes.Repeat(big[:len(big)/8], 8)) {
		t.Fatalf("reading what the peer wrote: %v", err)
	}

	// deadlines: for input that does not come, for room that does not
	c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := c.Read(back[:1]); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read with nothing to read: %v, want the deadline passed", err)
	}
	c.SetWriteDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := c.Write(big); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("write that the peer never reads: %v, want the deadline passed", err)
	}

	// Close ends a read waiting
	c.SetReadDeadline(time.Time{})
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(back[:1])
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("read waiting when the transport closed: no error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end the read waiting")
	}
	srv.Close()
	if after := openFDs(t); after != before {
		t.Errorf("%d descriptors open before, %d after", before, after)
	}
}
