package pmcd

import (
	"io"
	"net"
	"syscall"
	"time"
	"unsafe"
)

// rawConn is a connection to pmcd whose reads and writes are made with
// raw system calls on its descriptor (still the runtime network poller's,
// which waits for it to be readable and enforces the deadlines). The
// runtime's own reads and writes enter a system call the scheduler's way,
// and each such entry wakes the runtime's monitor thread if it sleeps;
// with a reply every 100 msec that, the failed read before the reply and
// reading the header and body apart made a live pmie wake several threads
// a dozen times an evaluation, most of its CPU time. Here a request is a
// write and, mostly, one read (the reply is read ahead into a buffer,
// header and body at once), and no thread but the one waiting for pmcd
// wakes. Reads and writes of a socket that is ready do not block.
type rawConn struct {
	nc   net.Conn
	rc   syscall.RawConn
	buf  []byte // read ahead: buf[r:w] not yet read
	r, w int

	// the system call in progress, for readFd and writeFd (method values
	// made once, so that a call allocates nothing)
	p               []byte
	n               int
	errno           syscall.Errno
	readFn, writeFn func(fd uintptr) bool
}

// readAhead is how much one read of the socket may take.
const readAhead = 64 << 10

// newTransport reads and writes nc with raw system calls, if its
// descriptor can be had.
func newTransport(nc net.Conn) transport {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nc
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nc
	}
	c := &rawConn{nc: nc, rc: rc, buf: make([]byte, readAhead)}
	c.readFn, c.writeFn = c.readFd, c.writeFd
	return c
}

func (c *rawConn) Read(p []byte) (int, error) {
	if c.r == c.w {
		if err := c.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, c.buf[c.r:c.w])
	c.r += n
	return n, nil
}

// fill reads what the socket has, waiting (through the poller) until it
// has something or the read deadline passes.
func (c *rawConn) fill() error {
	c.p, c.n, c.errno = c.buf, 0, 0
	if err := c.rc.Read(c.readFn); err != nil {
		return err
	}
	switch {
	case c.errno != 0:
		return &net.OpError{Op: "read", Net: c.nc.RemoteAddr().Network(), Err: c.errno}
	case c.n == 0:
		return io.EOF
	}
	c.r, c.w = 0, c.n
	return nil
}

// readFd reads into c.p, reporting false (wait, then try again) when
// there is nothing to read yet.
func (c *rawConn) readFd(fd uintptr) bool { return c.rawCall(syscall.SYS_READ, fd, 0) }

// rawCall makes system call trap (read, or sendto with flags) on fd over
// c.p, again if a signal interrupts it, leaving its count or error in
// c.n or c.errno; it reports false when the socket is not ready.
func (c *rawConn) rawCall(trap, fd, flags uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall6(trap, fd, uintptr(unsafe.Pointer(&c.p[0])), uintptr(len(c.p)), flags, 0, 0)
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		case 0:
			c.n = int(n)
		default:
			c.errno = e
		}
		return true
	}
}

func (c *rawConn) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		c.p, c.n, c.errno = p[done:], 0, 0
		if err := c.rc.Write(c.writeFn); err != nil {
			return done, err
		}
		if c.errno != 0 {
			return done, &net.OpError{Op: "write", Net: c.nc.RemoteAddr().Network(), Err: c.errno}
		}
		done += c.n
	}
	return done, nil
}

// writeFd writes c.p (without SIGPIPE), reporting false when the socket
// cannot take any of it yet.
func (c *rawConn) writeFd(fd uintptr) bool {
	return c.rawCall(syscall.SYS_SENDTO, fd, syscall.MSG_NOSIGNAL)
}

func (c *rawConn) Close() error                       { return c.nc.Close() }
func (c *rawConn) SetDeadline(t time.Time) error      { return c.nc.SetDeadline(t) }
func (c *rawConn) SetReadDeadline(t time.Time) error  { return c.nc.SetReadDeadline(t) }
func (c *rawConn) SetWriteDeadline(t time.Time) error { return c.nc.SetWriteDeadline(t) }
