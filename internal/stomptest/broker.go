// Package stomptest is a STOMP broker stand-in for tests: it listens on a
// loopback port, records every byte each client sends, and answers as
// its Behaviour says (a broker that acknowledges, one that says nothing,
// one that closes the connection), so that what pmie's stomp action
// sends can be compared with what real pmie sent to the same broker.
package stomptest

import (
	"bytes"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Behaviour is how the broker answers each connection. Frames are
// counted as they arrive, each ended by a NUL byte.
type Behaviour struct {
	// Replies is how many of the first frames of a connection are
	// answered: a CONNECT with CONNECTED, anything else with an ERROR
	// frame (pmie's SUB is no STOMP command); SEND frames asking for no
	// receipt are not answered, as a broker does not, but count.
	Replies int
	// CloseAt closes the connection once that many frames have arrived
	// (after answering the last, if it is answered); 0 closes it as it
	// is accepted; -1 never.
	CloseAt int
	// Delay is how long the broker waits before each answer.
	Delay time.Duration
	// StallAt stops reading once that many frames have arrived, until
	// the connection is closed (0: never), so that the client's writes
	// fill the connection and wait.
	StallAt int
}

// ParseBehaviour reads a behaviour as the golden cases give it: words
// "replies=N", "close-at=N", "stall-at=N" and "delay=DURATION",
// separated by spaces;
// "" is the default, which answers the first two frames and never
// closes.
func ParseBehaviour(s string) (Behaviour, error) {
	b := Behaviour{Replies: 2, CloseAt: -1}
	for _, w := range strings.Fields(s) {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return b, fmt.Errorf("broker behaviour %q: want KEY=VALUE", w)
		}
		var err error
		switch k {
		case "replies":
			b.Replies, err = strconv.Atoi(v)
		case "close-at":
			b.CloseAt, err = strconv.Atoi(v)
		case "stall-at":
			b.StallAt, err = strconv.Atoi(v)
		case "delay":
			b.Delay, err = time.ParseDuration(v)
		default:
			err = fmt.Errorf("unknown key")
		}
		if err != nil {
			return b, fmt.Errorf("broker behaviour %q: %v", w, err)
		}
	}
	return b, nil
}

// Broker is a listening broker stand-in.
type Broker struct {
	ln net.Listener
	b  Behaviour

	mu      sync.Mutex
	conns   []*conn
	changed func() // called after each change of the record, if set
	wg      sync.WaitGroup
	done    chan struct{} // closed by Close
	closing sync.Once
}

type conn struct {
	c      net.Conn
	got    bytes.Buffer
	end    string // how the connection ended, once it has
	frames int
}

// Start listens on addr ("127.0.0.1:0" for any free port) and serves
// each connection as b says.
func Start(addr string, b Behaviour) (*Broker, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	br := &Broker{ln: ln, b: b, done: make(chan struct{})}
	br.wg.Add(1)
	go br.accept()
	return br, nil
}

// OnChange has f called after each change of the record (for a recorder
// that writes it out as it grows). It must be set before any client
// connects.
func (br *Broker) OnChange(f func()) { br.changed = f }

// Port is the port the broker listens on.
func (br *Broker) Port() int { return br.ln.Addr().(*net.TCPAddr).Port }

// Close stops listening and closes every connection; once closed, it
// does nothing more.
func (br *Broker) Close() {
	br.closing.Do(func() {
		close(br.done)
		br.ln.Close()
		br.mu.Lock()
		for _, c := range br.conns {
			c.c.Close()
		}
		br.mu.Unlock()
		br.wg.Wait()
	})
}

func (br *Broker) accept() {
	defer br.wg.Done()
	for {
		c, err := br.ln.Accept()
		if err != nil {
			return
		}
		cn := &conn{c: c}
		br.mu.Lock()
		select {
		case <-br.done:
			// taken as Close closed the rest: no one would close it
			br.mu.Unlock()
			c.Close()
			return
		default:
		}
		br.conns = append(br.conns, cn)
		br.mu.Unlock()
		br.note()
		br.wg.Add(1)
		go br.serve(cn)
	}
}

func (br *Broker) note() {
	if br.changed != nil {
		br.changed()
	}
}

// serve records what the client sends and answers it.
func (br *Broker) serve(cn *conn) {
	defer br.wg.Done()
	defer cn.c.Close()
	if br.b.CloseAt == 0 {
		br.finish(cn, "closed by the broker")
		return
	}
	var pending []byte // the frame being received
	buf := make([]byte, 4096)
	for {
		n, err := cn.c.Read(buf)
		br.mu.Lock()
		cn.got.Write(buf[:n])
		br.mu.Unlock()
		br.note()
		for _, ch := range buf[:n] {
			pending = append(pending, ch)
			if ch != 0 {
				continue
			}
			cn.frames++
			if cn.frames <= br.b.Replies {
				time.Sleep(br.b.Delay)
				cn.c.Write(answer(pending))
			}
			pending = pending[:0]
			if cn.frames == br.b.CloseAt {
				br.finish(cn, "closed by the broker")
				return
			}
			if cn.frames == br.b.StallAt {
				<-br.done
				br.finish(cn, "stalled")
				return
			}
		}
		if err != nil {
			br.finish(cn, "closed by the client")
			return
		}
	}
}

func (br *Broker) finish(cn *conn, how string) {
	br.mu.Lock()
	if cn.end == "" {
		cn.end = how
	}
	br.mu.Unlock()
	br.note()
}

// answer is a broker's answer to a frame: CONNECTED to CONNECT, nothing
// to a SEND that asks for no receipt, ERROR to anything else.
func answer(frame []byte) []byte {
	cmd, _, _ := bytes.Cut(bytes.TrimLeft(frame, "\r\n"), []byte("\n"))
	switch string(cmd) {
	case "CONNECT", "STOMP":
		return []byte("CONNECTED\nsession:stomptest\n\n\x00\n")
	case "SEND":
		if !bytes.Contains(frame, []byte("\nreceipt:")) {
			return nil
		}
		return []byte("RECEIPT\n\n\x00\n")
	}
	return []byte("ERROR\nmessage:Unknown STOMP action: " + string(cmd) + "\n\n\x00\n")
}

// Settle waits, up to d, until the broker has taken at least n
// connections (one the client has given up on may wait to be taken) and
// every one has ended (a client's end is seen a moment after it closes),
// and reports whether that came.
func (br *Broker) Settle(n int, d time.Duration) bool {
	for end := time.Now().Add(d); ; time.Sleep(10 * time.Millisecond) {
		br.mu.Lock()
		done := len(br.conns) >= n
		for _, cn := range br.conns {
			done = done && cn.end != ""
		}
		br.mu.Unlock()
		if done || time.Now().After(end) {
			return done
		}
	}
}

// Record is what the broker has seen, one connection after another:
// "connection N", then each frame the client sent as a quoted Go string
// on a line of its own (a frame ending after the NUL and the newline
// that follows it, as pmie writes them), then how the connection ended,
// once it has.
func (br *Broker) Record() string {
	br.mu.Lock()
	defer br.mu.Unlock()
	var sb strings.Builder
	for i, cn := range br.conns {
		fmt.Fprintf(&sb, "connection %d\n", i+1)
		rest := cn.got.Bytes()
		for len(rest) > 0 {
			n := bytes.Index(rest, []byte("\x00\n"))
			if n < 0 {
				n = len(rest)
			} else {
				n += 2
			}
			sb.WriteString(strconv.Quote(string(rest[:n])) + "\n")
			rest = rest[n:]
		}
		if cn.end != "" {
			sb.WriteString(cn.end + "\n")
		}
	}
	return sb.String()
}
