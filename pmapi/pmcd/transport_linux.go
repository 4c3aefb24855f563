package pmcd

import (
	"io"
	"net"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// rawConn is a connection to pmcd whose reads and writes are made with
// raw system calls on its descriptor, waiting through the runtime's
// network poller (which also enforces the deadlines). The runtime's own
// reads and writes enter a system call the scheduler's way, and each such
// entry wakes the runtime's monitor thread if it sleeps; with a reply
// every 100 msec that, the failed read before the reply and reading the
// header and body apart made a live pmie wake several threads a dozen
// times an evaluation, most of its CPU time. Here a request is a write
// and, mostly, one read (the reply is read ahead into a buffer, header
// and body at once), and no thread but the one waiting for pmcd wakes.
// Reads and writes of a socket that is ready do not block.
//
// A Unix domain socket (local: and unix: connections) is watched for
// input only: the runtime's poller watches every descriptor for output
// too, and a Unix socket signals room for output each time its peer
// reads, so that pmcd taking each request woke the thread waiting for the
// reply (a third wake-up an evaluation, besides the timer and the reply).
// Such a socket is taken out of the runtime's poller into an epoll
// instance of its own that watches it for input (and for output only
// while a write waits for room); the poller watches that instance, which
// signals only input. Writes, like reads, go through the instance's
// RawConn.Read, so that Close waits for them to end before it closes the
// socket.
type rawConn struct {
	rc      syscall.RawConn // waits for input: the socket's, or its epoll instance's
	nc      net.Conn        // the connection, when the poller watches it
	sock    int             // the socket, when outside the runtime's poller; else -1
	ep      *os.File        // the epoll instance watching sock
	epfd    int             // its descriptor (ep.Fd would make ep blocking)
	out     bool            // ep watches sock for output too
	network string

	buf  []byte // read ahead: buf[r:w] not yet read
	r, w int

	// the system call in progress, for readFd and writeFd (method values
	// made once, so that a call allocates nothing)
	p                       []byte
	n                       int
	errno                   syscall.Errno
	readFn, writeFn, sendFn func(fd uintptr) bool
}

// readAhead is how much one read of the socket may take.
const readAhead = 64 << 10

// newTransport reads and writes nc with raw system calls, if its
// descriptor can be had; a Unix socket is taken out of the runtime's
// poller, if it can be.
func newTransport(nc net.Conn) transport {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nc
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nc
	}
	c := &rawConn{nc: nc, rc: rc, sock: -1, network: "tcp", buf: make([]byte, readAhead)}
	if a := nc.RemoteAddr(); a != nil {
		c.network = a.Network()
	}
	c.readFn, c.writeFn, c.sendFn = c.readFd, c.writeFd, c.sendFd
	if _, unix := nc.(*net.UnixConn); unix {
		c.watchInput()
	}
	return c
}

// watchInput moves c's socket out of the runtime's poller into an epoll
// instance watching it for input, which the poller watches in its place.
// If any step fails, c stays as it was.
func (c *rawConn) watchInput() {
	sock := -1
	c.rc.Control(func(fd uintptr) {
		if d, _, e := syscall.RawSyscall(syscall.SYS_FCNTL, fd, syscall.F_DUPFD_CLOEXEC, 0); e == 0 {
			sock = int(d)
		}
	})
	if sock < 0 {
		return
	}
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		syscall.Close(sock)
		return
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP, Fd: int32(sock)}
	if syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, sock, &ev) != nil || syscall.SetNonblock(epfd, true) != nil {
		syscall.Close(epfd)
		syscall.Close(sock)
		return
	}
	ep := os.NewFile(uintptr(epfd), "pmcd-epoll")
	rc, err := ep.SyscallConn()
	if err != nil || ep.SetReadDeadline(time.Time{}) != nil {
		// not in the runtime's poller: no waits with deadlines
		ep.Close()
		syscall.Close(sock)
		return
	}
	c.nc.Close() // its descriptor leaves the poller; sock is the socket now
	c.nc, c.ep, c.epfd, c.rc, c.sock = nil, ep, epfd, rc, sock
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
		return &net.OpError{Op: "read", Net: c.network, Err: c.errno}
	case c.n == 0:
		return io.EOF
	}
	c.r, c.w = 0, c.n
	return nil
}

// target is the descriptor to read or write, given the one the poller
// waited for.
func (c *rawConn) target(fd uintptr) uintptr {
	if c.sock >= 0 {
		return uintptr(c.sock)
	}
	return fd
}

// readFd reads into c.p, reporting false (wait, then try again) when
// there is nothing to read yet.
func (c *rawConn) readFd(fd uintptr) bool {
	return c.rawCall(syscall.SYS_READ, c.target(fd), 0)
}

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
		var err error
		if c.sock < 0 {
			err = c.rc.Write(c.writeFn)
		} else {
			// through the epoll instance's reads: they are what waits
			err = c.rc.Read(c.sendFn)
			if c.out {
				c.out = false
				if werr := c.watch(syscall.EPOLLIN | syscall.EPOLLRDHUP); err == nil && werr != nil {
					err = &net.OpError{Op: "write", Net: c.network, Err: werr}
				}
			}
		}
		if err != nil {
			return done, err
		}
		if c.errno != 0 {
			return done, &net.OpError{Op: "write", Net: c.network, Err: c.errno}
		}
		done += c.n
	}
	return done, nil
}

// sendFd writes c.p to a socket outside the poller like writeFd; when
// the socket has no room, it has the epoll instance watch for room too,
// and reports false (wait, then try again).
func (c *rawConn) sendFd(fd uintptr) bool {
	if c.writeFd(fd) {
		return true
	}
	if !c.out {
		if err := c.watch(syscall.EPOLLIN | syscall.EPOLLRDHUP | syscall.EPOLLOUT); err != nil {
			c.errno = err.(syscall.Errno)
			return true
		}
		c.out = true
	}
	return false
}

// watch sets the events the epoll instance watches the socket for.
func (c *rawConn) watch(events uint32) error {
	ev := syscall.EpollEvent{Events: events, Fd: int32(c.sock)}
	return syscall.EpollCtl(c.epfd, syscall.EPOLL_CTL_MOD, c.sock, &ev)
}

// writeFd writes c.p (without SIGPIPE), reporting false when the socket
// cannot take any of it yet.
func (c *rawConn) writeFd(fd uintptr) bool {
	return c.rawCall(syscall.SYS_SENDTO, c.target(fd), syscall.MSG_NOSIGNAL)
}

// Close closes the connection; it ends a read waiting for it. A socket
// outside the poller is closed once no read or write can be using it
// (closing its epoll instance waits for them).
func (c *rawConn) Close() error {
	if c.sock < 0 {
		return c.nc.Close()
	}
	if err := c.ep.Close(); err != nil {
		return err
	}
	return syscall.Close(c.sock)
}

// The deadlines of a socket outside the poller are one, its epoll
// instance's, for reads and writes alike: the last set. conn sets the
// deadline of each read and write before it, and never reads and writes
// at once.

func (c *rawConn) SetDeadline(t time.Time) error {
	if c.sock < 0 {
		return c.nc.SetDeadline(t)
	}
	return c.ep.SetReadDeadline(t)
}

func (c *rawConn) SetReadDeadline(t time.Time) error {
	if c.sock < 0 {
		return c.nc.SetReadDeadline(t)
	}
	return c.ep.SetReadDeadline(t)
}

func (c *rawConn) SetWriteDeadline(t time.Time) error {
	if c.sock < 0 {
		return c.nc.SetWriteDeadline(t)
	}
	return c.ep.SetReadDeadline(t)
}
