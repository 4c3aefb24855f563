package stomp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// Client is pmie's connection to its JMS server. Start makes it, as pmie
// does before evaluating: CONNECT with the login and passcode, an
// acknowledgement awaited, then pmie's "SUB" frame for the topic and a
// hello message, another acknowledgement awaited. Send sends a SEND
// frame for each stomp action and waits for nothing. A connection lost
// is made again at the next Send, but not within a minute of the last
// attempt (each attempt, even one refused as too soon, counting as one);
// meanwhile Send fails with pmie's "Bad file descriptor". Messages are
// pmie's, the steps of connecting (Info) only when Verbose.
//
// Where pmie would wait for ever, the client gives up after the timeout
// (BoundWait when that is 0 or less): connecting to an address, a write
// the server does not take. A server that closes the connection while
// its acknowledgement is awaited fails the connection (pmie reads the end
// of the connection for ever).
type Client struct {
	Cfg     *Config
	Verbose bool
	Info    func(msg string)
	Error   func(msg string)
	// Now is the time, for the minute between attempts to connect again;
	// nil is time.Now.
	Now func() time.Time

	mu      sync.Mutex
	conn    *net.TCPConn
	started bool  // the first connection was attempted
	last    int64 // when, in seconds, the last attempt to connect again was
}

// BoundWait is how long the client waits to connect, or for a write to be
// taken, when the configuration's timeout is 0 or less (where pmie waits
// without end).
const BoundWait = 2 * time.Second

// ackMax bounds what is read of one acknowledgement: pmie reads for as
// long as more has arrived.
const ackMax = 1 << 20

// Start makes the first connection; false means pmie is to exit with
// status 1 (its messages said).
func (c *Client) Start() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.started = true
	if !c.connect() {
		c.disconnect()
		return false
	}
	c.info("Initial STOMP protocol setup complete")
	return true
}

// Send sends msg to the topic, connecting again first if the connection
// was lost and a minute has passed since the last attempt; it reports
// whether the frame was written.
func (c *Client) Send(msg string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		c.reconnect()
	}
	return c.write(formatted("SEND\ndestination:/topic/"+c.Cfg.Topic+"\n\n")) && c.write(msg) && c.write(frameEnd)
}

// Close ends the connection.
func (c *Client) Close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.disconnect()
}

// reconnect connects again, unless the last attempt was less than a
// minute ago (pmie counts that attempt too, from now).
func (c *Client) reconnect() {
	if !c.started {
		// a stomp action that came with a reload: connect as at start,
		// but without exiting
		c.started = true
		if !c.connect() {
			c.disconnect()
		}
		return
	}
	now := c.now()
	soon := now < c.last+60
	c.last = now
	if soon {
		return
	}
	if !c.connect() {
		c.disconnect()
		return
	}
	c.Info("Reconnected to STOMP protocol server")
}

func (c *Client) now() int64 {
	if c.Now != nil {
		return c.Now().Unix()
	}
	return time.Now().Unix()
}

// connect connects and greets the server, saying what fails.
func (c *Client) connect() bool {
	cfg := c.Cfg
	c.info(fmt.Sprintf("Connecting to %s, port %d", cfg.Host, cfg.Port))
	if !c.dial() {
		c.Error("Could not connect to the message server")
		return false
	}
	c.info("Connected; sending stomp connect message")
	if !c.frame("CONNECT\nlogin:" + cfg.User + "\npasscode:" + cfg.Pass + "\n\n") {
		c.Error("Could not sent STOMP CONNECT frame to server")
		return false
	}
	c.info("Sent; waiting for server ACK")
	if !c.readAck() {
		c.Error("Could not read STOMP ACK frame.")
		return false
	}
	c.info("ACK; sending initial PMIE topic and hello")
	if !c.frame("SUB\ndestination:/topic/" + cfg.Topic + "\n\n") {
		c.Error("Could not read TOPIC frame.")
		return false
	}
	hello := "SEND\ndestination:/topic/" + cfg.Topic + "\n\nINFO: PMIE: Established initial connection"
	if !c.frame(hello) {
		c.Error("Could not send HELLO frame.")
		return false
	}
	c.info("Sent; waiting for server ACK")
	if !c.readAck() {
		c.Error("Could not read STOMP ACK frame")
		return false
	}
	return true
}

func (c *Client) info(msg string) {
	if c.Verbose {
		c.Info(msg)
	}
}

// wait is how long to wait to connect or for a write.
func (c *Client) wait() time.Duration {
	if c.Cfg.Timeout <= 0 {
		return BoundWait
	}
	return time.Duration(c.Cfg.Timeout) * time.Second
}

// dial connects to the first of the host's addresses that takes the
// connection, as pmie tries them in turn.
func (c *Client) dial() bool {
	port := c.Cfg.Port
	if port < 0 {
		port = 0 // libpcp leaves the address's port, none
	}
	port &= 0xffff
	ctx, cancel := context.WithTimeout(context.Background(), c.wait())
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, c.Cfg.Host)
	cancel()
	if err != nil || c.Cfg.Host == "" {
		return false
	}
	for _, a := range addrs {
		d := net.Dialer{Timeout: c.wait()}
		conn, err := d.Dial("tcp", net.JoinHostPort(a.IP.String(), strconv.Itoa(port)))
		if err != nil {
			continue
		}
		c.conn = conn.(*net.TCPConn)
		c.conn.SetNoDelay(false) // as pmie's socket, which sets no option
		return true
	}
	return false
}

func (c *Client) disconnect() {
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

// formatted is a frame's text as pmie formats it, in its 4096-byte buffer.
func formatted(s string) string {
	if len(s) > lineMax-1 {
		return s[:lineMax-1]
	}
	return s
}

// frameEnd ends a frame: its NUL, and the newline pmie sends after it.
const frameEnd = "\x00\n"

// frame writes a frame that is all head (as formatted makes it), then its
// end, each piece with a write of its own.
func (c *Client) frame(head string) bool {
	return c.write(formatted(head)) && c.write(frameEnd)
}

// write writes one piece of a frame, as pmie writes each with a send(2)
// of its own: a server that has gone is seen at the piece after the one
// that found it gone.
func (c *Client) write(s string) bool {
	var err error = syscall.EBADF
	if c.conn != nil {
		c.conn.SetWriteDeadline(time.Now().Add(c.wait()))
		_, err = c.conn.Write([]byte(s))
	}
	if err == nil {
		return true
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = syscall.ETIMEDOUT
	}
	c.Error(fmt.Sprintf("Write error to JMS server %s:%d - %s", c.Cfg.Host, c.Cfg.Port, pmapi.Strerror(err)))
	c.disconnect()
	return false
}

// errClosed is said of a server that closed the connection while its
// acknowledgement was awaited.
var errClosed = errors.New("Server closed the connection")

// readAck waits for the server's acknowledgement, up to the timeout, and
// reads all that has come; what it says is not looked at.
func (c *Client) readAck() bool {
	cfg := c.Cfg
	fail := func(what string, err error) bool {
		c.Error(fmt.Sprintf("%s %s:%d - %s", what, cfg.Host, cfg.Port, pmapi.Strerror(err)))
		c.disconnect()
		return false
	}
	if cfg.Timeout < 0 {
		return fail("Error waiting for server", syscall.EINVAL)
	}
	rc, err := c.conn.SyscallConn()
	if err != nil {
		return fail("Error recving from server", err)
	}
	buf := make([]byte, 4096)
	// read reads what has come; with wait, it first waits for something
	read := func(wait bool) (int, error) {
		var n int
		var rerr error
		err := rc.Read(func(fd uintptr) bool {
			n, rerr = syscall.Read(int(fd), buf)
			return !(wait && rerr == syscall.EAGAIN)
		})
		if err != nil {
			return 0, err
		}
		return n, rerr
	}
	if cfg.Timeout > 0 {
		c.conn.SetReadDeadline(time.Now().Add(time.Duration(cfg.Timeout) * time.Second))
	}
	n, err := read(cfg.Timeout > 0)
	c.conn.SetReadDeadline(time.Time{})
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded) || err == syscall.EAGAIN:
		// errno as connecting left it
		return fail("Timed out waiting for server", syscall.EINPROGRESS)
	case err != nil:
		return fail("Error recving from server", err)
	case n == 0:
		return fail("Error recving from server", errClosed)
	}
	for got := n; got < ackMax; got += n {
		n, err = read(false)
		switch {
		case err == syscall.EAGAIN:
			return true
		case err != nil:
			return fail("Error recving from server", err)
		case n == 0:
			return fail("Error recving from server", errClosed)
		}
	}
	return true
}
