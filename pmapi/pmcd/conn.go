package pmcd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/gopcp/pmie/internal/nss"
	"github.com/gopcp/pmie/internal/pdu"
	"github.com/gopcp/pmie/pmapi"
)

// Error is a request or connection that failed for want of a working
// connection to pmcd: it could not be made, it broke, timed out, or pmcd
// broke the protocol. Its Unwrap gives the PCP error code (ErrIPC,
// ErrTimeout, ErrTooBig, a negated errno...), so pmapi.Code sees it.
// Errors that pmcd itself reports (an unknown name, say) are returned as
// plain pmapi.Errno values instead.
type Error struct {
	Spec string
	Op   string      // "connect", "fetch", "lookup name", ...
	Code pmapi.Errno // what PCP would report
	Err  error       // the cause, when there is more to say than Code
	down bool        // no connection attempt was made: still waiting to retry
}

func (e *Error) Error() string {
	msg := e.Code.Error()
	if e.Err != nil {
		msg = e.Err.Error()
	}
	if e.down {
		return fmt.Sprintf("pmcd %s: %s: not connected (last error: %s)", e.Spec, e.Op, msg)
	}
	return fmt.Sprintf("pmcd %s: %s: %s", e.Spec, e.Op, msg)
}

// Unwrap gives the PCP error code.
func (e *Error) Unwrap() error { return e.Code }

// Is makes errors.Is(err, ErrDown) true for requests refused because the
// connection is down and no reconnection was due.
func (e *Error) Is(target error) bool { return target == ErrDown && e.down }

// ErrDown matches (with errors.Is) the errors of requests made while the
// connection to pmcd is down, between reconnection attempts.
var ErrDown = errors.New("pmcd connection is down")

// codeOf maps a transport failure to the PCP code libpcp would give it.
func codeOf(err error) pmapi.Errno {
	var ne net.Error
	var fe *pdu.FormatError
	var en syscall.Errno
	switch {
	case errors.As(err, &fe):
		return fe.Code
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return pmapi.ErrTimeout
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, net.ErrClosed):
		return pmapi.ErrIPC
	case errors.As(err, &en):
		return pmapi.Errno(-int32(en))
	}
	if c := pmapi.Code(err); c != pmapi.ErrGeneric && c != 0 {
		return c
	}
	return pmapi.ErrIPC
}

// conn is one established, handshaken connection to pmcd. It runs one
// request at a time.
type conn struct {
	nc       transport
	buf      []byte
	req      []byte // the last fetch request, its storage reused
	maxLen   int
	timeout  time.Duration
	features pdu.Features
}

// dialConn connects as sp says and completes the handshake.
func dialConn(sp Spec, cfg *Config) (*conn, error) {
	if sp.Socket != "" {
		c, err := dialOne("unix", sp.Socket, sp, cfg)
		if err == nil || !sp.Fallback {
			return c, err
		}
		sp = Spec{Raw: sp.Raw, Host: "localhost", Ports: DefaultPorts()}
	}
	var err error
	for _, port := range sp.Ports {
		var c *conn
		c, err = dialOne("tcp", net.JoinHostPort(sp.Host, strconv.Itoa(port)), sp, cfg)
		if err == nil {
			return c, nil
		}
		var ue *UnsupportedError
		if errors.As(err, &ue) {
			break
		}
	}
	return nil, err
}

func dialOne(network, addr string, sp Spec, cfg *Config) (*conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), cfg.connectTimeout())
	defer cancel()
	var d net.Dialer
	nc, err := nss.Dial(ctx, &d, network, addr)
	if err != nil {
		return nil, dialError(err)
	}
	c := &conn{nc: newTransport(nc), maxLen: cfg.MaxPDU, timeout: cfg.timeout()}
	if err := c.handshake(sp, cfg.connectTimeout()); err != nil {
		c.nc.Close()
		return nil, err
	}
	return c, nil
}

// dialError gives a failure to connect the errno libpcp reports for it:
// EHOSTUNREACH for a name that does not resolve, ETIMEDOUT when the
// connection timeout passes.
func dialError(err error) error {
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &dns):
		return fmt.Errorf("%v: %w", err, syscall.EHOSTUNREACH)
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%v: %w", err, syscall.ETIMEDOUT)
	}
	return err
}

// handshake reads pmcd's greeting, checks that nothing it demands is
// beyond us, and answers with our version and wanted features.
func (c *conn) handshake(sp Spec, wait time.Duration) error {
	c.nc.SetDeadline(time.Now().Add(max(wait, c.timeout)))
	p, err := pdu.Read(c.nc, c.buf, c.maxLen)
	c.buf = p
	if err != nil {
		return err
	}
	h, _ := pdu.ParseHeader(p)
	if h.Type != pdu.Error {
		return &pdu.FormatError{Type: h.Type, Msg: "expected the handshake", Code: pmapi.ErrIPC}
	}
	status, ch, err := pdu.DecodeHandshake(p)
	if err != nil {
		return err
	}
	if status < 0 {
		return pmapi.Errno(status)
	}
	if ch.Version != pdu.Version {
		return &pdu.FormatError{Type: pdu.Error,
			Msg: fmt.Sprintf("pmcd speaks PDU version %d, not %d", ch.Version, pdu.Version), Code: pmapi.ErrIPC}
	}
	var want pdu.Features
	if ch.Features&pdu.FeatureCertReqd != 0 && !sp.isLocal() {
		return &UnsupportedError{Spec: sp.String(), Feature: "pmcd's demand for a TLS client certificate"}
	}
	if ch.Features&pdu.FeatureCredsReqd != 0 {
		if sp.Socket == "" {
			return &UnsupportedError{Spec: sp.String(),
				Feature: "pmcd's demand for authenticated credentials over TCP (use unix: or local:)"}
		}
		want |= pdu.FeatureCredsReqd // the socket carries our credentials
	}
	c.features = ch.Features
	return c.send(pdu.EncodeCreds(int32(os.Getpid()), pdu.Version, want))
}

func (c *conn) close() { c.nc.Close() }

func (c *conn) send(p []byte) error {
	c.nc.SetWriteDeadline(time.Now().Add(c.timeout))
	_, err := c.nc.Write(p)
	return err
}

// recv reads the next PDU. It is valid until the next recv.
func (c *conn) recv() (pdu.Type, []byte, error) {
	c.nc.SetReadDeadline(time.Now().Add(c.timeout))
	p, err := pdu.Read(c.nc, c.buf, c.maxLen)
	c.buf = p
	if err != nil {
		return 0, nil, err
	}
	h, _ := pdu.ParseHeader(p)
	return h.Type, p, nil
}

// replyError is pmcd's answer of an error PDU to a request, as opposed to
// a failure of the connection.
type replyError struct{ code pmapi.Errno }

func (e *replyError) Error() string { return e.code.Error() }

// call sends req and reads the reply, which must be of type want or an
// error PDU. An error PDU with code 0 or a positive code (pmcd's state
// change notice) is passed back as a nil error with the code in flags and
// reading continues, as it does for fetches. Transport and protocol
// failures are returned as they are; an error reply as *replyError.
func (c *conn) call(req []byte, want pdu.Type) (p []byte, flags int32, err error) {
	if err := c.send(req); err != nil {
		return nil, 0, err
	}
	for {
		t, p, err := c.recv()
		if err != nil {
			return nil, flags, err
		}
		switch t {
		case want:
			return p, flags, nil
		case pdu.Error:
			code, err := pdu.DecodeError(p)
			if err != nil {
				return nil, flags, err
			}
			if code < 0 {
				return nil, flags, &replyError{pmapi.Errno(code)}
			}
			flags |= code
			if want != pdu.Result && want != pdu.HighResResult {
				h, _ := pdu.ParseHeader(req)
				return nil, flags, &pdu.FormatError{Type: t,
					Msg: fmt.Sprintf("status %d in reply to %s", code, h.Type), Code: pmapi.ErrIPC}
			}
		default:
			return nil, flags, &pdu.FormatError{Type: t,
				Msg: "unexpected in reply to a request wanting " + want.String(), Code: pmapi.ErrIPC}
		}
	}
}
