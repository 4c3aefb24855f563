package waker

import (
	"os"
	"syscall"
	"time"
	"unsafe"
)

// timerFD is a timer descriptor (CLOCK_MONOTONIC) read through the
// runtime's poller. Its system calls are raw: a system call made the
// runtime's way wakes the monitor thread, which is what it is for not to
// do.
type timerFD struct {
	f      *os.File
	rc     syscall.RawConn
	fd     uintptr
	buf    [8]byte
	readFn func(uintptr) bool
}

// itimerspec is the kernel's struct itimerspec.
type itimerspec struct {
	interval, value syscall.Timespec
}

const clockMonotonic = 1

// newTimerFD makes a timer descriptor, or returns nil.
func newTimerFD() *timerFD {
	fd, _, e := syscall.RawSyscall(syscall.SYS_TIMERFD_CREATE, clockMonotonic, syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if e != 0 {
		return nil
	}
	f := os.NewFile(fd, "timerfd")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil
	}
	t := &timerFD{f: f, rc: rc, fd: fd}
	t.readFn = t.read
	return t
}

// block waits until the timer expires; it reports false if the
// descriptor failed.
func (t *timerFD) block() bool { return t.rc.Read(t.readFn) == nil }

// fire makes the timer expire at once.
func (t *timerFD) fire() { t.arm(time.Nanosecond) }

// arm sets the timer to expire once, d from now.
func (t *timerFD) arm(d time.Duration) bool {
	spec := itimerspec{value: syscall.NsecToTimespec(d.Nanoseconds())}
	_, _, e := syscall.RawSyscall6(syscall.SYS_TIMERFD_SETTIME, t.fd, 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0)
	return e == 0
}

// read takes the expiry count, reporting false (wait for the poller)
// while the timer has not expired.
func (t *timerFD) read(fd uintptr) bool {
	for {
		_, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&t.buf[0])), uintptr(len(t.buf)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		return true
	}
}

func (t *timerFD) close() { t.f.Close() }
