package pmcd

import (
	"io"
	"time"
)

// transport is the byte stream of a connection to pmcd, with deadlines as
// net.Conn has them. newTransport makes it from the connection dialled.
type transport interface {
	io.ReadWriter
	Close() error
	SetDeadline(t time.Time) error
	SetReadDeadline(t time.Time) error
	SetWriteDeadline(t time.Time) error
}
