//go:build !linux

package pmcd

import "net"

// newTransport is the connection itself, read through the runtime's
// network poller.
func newTransport(nc net.Conn) transport { return nc }
