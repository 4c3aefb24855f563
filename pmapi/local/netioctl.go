//go:build linux

package local

import (
	"encoding/binary"
	"runtime"
	"syscall"
	"unsafe"
)

// The ioctls the PMDA asks network interfaces with.
const (
	siocGIFFlags = 0x8913
	siocGIFMTU   = 0x8921
	siocEthtool  = 0x8946
	siocGIWRate  = 0x8b21
	ethtoolGSet  = 1
)

// ioctlBuf is a struct ifreq (a 16-byte name and a 24-byte union) and the
// struct ethtool_cmd its data field points at for SIOCETHTOOL. It lives
// on the heap, pinned, so the kernel can be given its address.
type ioctlBuf struct {
	ifr  [40]byte
	ecmd [44]byte
}

// netIoctl asks the kernel about interfaces through a datagram socket.
// Its methods do nothing, reporting failure, on a nil receiver.
type netIoctl struct {
	fd     int
	buf    *ioctlBuf
	pinner runtime.Pinner
}

func newNetIoctl() *netIoctl {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	n := &netIoctl{fd: fd, buf: new(ioctlBuf)}
	n.pinner.Pin(n.buf)
	return n
}

// call runs one ioctl on the named interface, with the union cleared.
func (n *netIoctl) call(name string, req uintptr) bool {
	b := &n.buf.ifr
	*b = [40]byte{}
	copy(b[:15], name)
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(n.fd), req, uintptr(unsafe.Pointer(b)))
	return errno == 0
}

func (n *netIoctl) mtu(name string) (uint32, bool) {
	if n == nil || !n.call(name, siocGIFMTU) {
		return 0, false
	}
	return uint32(int32(binary.NativeEndian.Uint32(n.buf.ifr[16:]))), true
}

func (n *netIoctl) flags(name string) (uint16, bool) {
	if n == nil || !n.call(name, siocGIFFlags) {
		return 0, false
	}
	return binary.NativeEndian.Uint16(n.buf.ifr[16:]), true
}

// speed is the link speed in Mbit/s, from ethtool, or for a wireless
// interface its bit rate rounded to Mbit/s.
func (n *netIoctl) speed(name string) (uint32, bool) {
	if n == nil {
		return 0, false
	}
	e := &n.buf.ecmd
	*e = [44]byte{}
	binary.NativeEndian.PutUint32(e[0:], ethtoolGSet)
	b := &n.buf.ifr
	*b = [40]byte{}
	copy(b[:15], name)
	binary.NativeEndian.PutUint64(b[16:], uint64(uintptr(unsafe.Pointer(e))))
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(n.fd), siocEthtool, uintptr(unsafe.Pointer(b)))
	if errno == 0 {
		lo := uint32(binary.NativeEndian.Uint16(e[12:]))
		hi := uint32(binary.NativeEndian.Uint16(e[28:]))
		return hi<<16 | lo, true
	}
	if n.call(name, siocGIWRate) {
		v := int32(binary.NativeEndian.Uint32(n.buf.ifr[16:]))
		return uint32((v + 500000) / 1000000), true
	}
	return 0, false
}

func (n *netIoctl) close() {
	if n == nil {
		return
	}
	syscall.Close(n.fd)
	n.pinner.Unpin()
}
