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

// dialConn connects as sp says and completes the handshake, as
// __pmConnectPMCD does: through pmproxy when the specification names one
// (host@proxy) or $PMPROXY_HOST does; else by the unix socket of unix:
// and local: (which falls back to localhost's TCP ports; a failure of
// unix: alone is ENOENT, as libpcp has it), else to each of the host's
// ports in turn until one answers.
func dialConn(sp Spec, cfg *Config) (*conn, error) {
	want, err := sp.wanted(cfg)
	if err != nil {
		return nil, err
	}
	if proxy := sp.proxy(); proxy != nil {
		return dialProxy(sp, *proxy, want, cfg)
	}
	host, ports := sp.Host, sp.Ports
	if sp.Socket != "" {
		nc, err := dial(cfg, "unix", sp.Socket)
		if err == nil {
			var c *conn
			if c, err = handshaken(nc, sp, sp.Socket, true, want, cfg); err == nil {
				return c, nil
			}
		}
		if !sp.Fallback {
			return nil, syscall.ENOENT
		}
		host, ports = "localhost", DefaultPorts()
	}
	for _, port := range ports {
		var nc net.Conn
		if nc, err = dialTCP(cfg, host, port); err != nil {
			continue
		}
		var c *conn
		if c, err = handshaken(nc, sp, host, false, want, cfg); err == nil {
			return c, nil
		}
	}
	return nil, err
}

// proxy is the pmproxy to go through: the specification's, else
// $PMPROXY_HOST's (on the ports of $PMPROXY_PORT), else none.
func (sp Spec) proxy() *Proxy {
	if sp.Proxy != nil {
		return sp.Proxy
	}
	if env, ok := os.LookupEnv("PMPROXY_HOST"); ok {
		return &Proxy{Host: env, Ports: envPorts("PMPROXY_PORT", DefaultProxyPort)}
	}
	return nil
}

// dialProxy connects to pmcd through pmproxy: for each of pmcd's ports,
// a connection to the proxy's first port, pmproxy's version exchange
// naming the host and port, then pmcd's handshake. A proxy that cannot
// be reached ends the attempts. A unix: or local: specification has no
// ports, so no attempt is made: libpcp then fails with EPERM (its -1).
func dialProxy(sp Spec, proxy Proxy, want wanted, cfg *Config) (*conn, error) {
	pport := DefaultProxyPort
	if len(proxy.Ports) > 0 {
		pport = proxy.Ports[0]
	}
	var err error = syscall.EPERM
	for _, port := range sp.Ports {
		var nc net.Conn
		if nc, err = dialTCP(cfg, proxy.Host, pport); err != nil {
			return nil, err
		}
		if err = negotiateProxy(nc, sp.Host, port, cfg); err != nil {
			nc.Close()
			continue
		}
		var c *conn
		if c, err = handshaken(nc, sp, proxy.Host, false, want, cfg); err == nil {
			return c, nil
		}
	}
	return nil, err
}

// negotiateProxy is pmproxy's greeting: our version line, its version
// line (up to a newline or return, at most 74 bytes), which must be
// "pmproxy-server 1", then the host and port it is to connect us to.
func negotiateProxy(nc net.Conn, host string, port int, cfg *Config) error {
	nc.SetDeadline(time.Now().Add(cfg.timeout()))
	defer nc.SetDeadline(time.Time{})
	if _, err := io.WriteString(nc, "pmproxy-client 1\n"); err != nil {
		return pmapi.ErrIPC
	}
	var line []byte
	b := make([]byte, 1)
	for len(line) < 74 { // MAXHOSTNAMELEN+10
		if n, err := nc.Read(b); n != 1 || err != nil {
			break
		}
		if b[0] == '\n' || b[0] == '\r' {
			break
		}
		line = append(line, b[0])
	}
	if string(line) != "pmproxy-server 1" {
		if cfg.Warn != nil {
			cfg.Warn(fmt.Sprintf("__pmConnectPMCD: bad version string from pmproxy: \"%s\"\n", line))
		}
		return pmapi.ErrIPC
	}
	if _, err := fmt.Fprintf(nc, "%s %d\n", host, port); err != nil {
		return pmapi.ErrIPC
	}
	return nil
}

// dialTCP connects to port of host, the port taken as its low 16 bits as
// libpcp's socket address takes it. A host that does not resolve (an
// empty name, a malformed one) is EHOSTUNREACH.
func dialTCP(cfg *Config, host string, port int) (net.Conn, error) {
	if host == "" {
		return nil, syscall.EHOSTUNREACH
	}
	return dial(cfg, "tcp", net.JoinHostPort(host, strconv.Itoa(int(uint16(port)))))
}

func dial(cfg *Config, network, addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), cfg.connectTimeout())
	defer cancel()
	var d net.Dialer
	nc, err := nss.Dial(ctx, &d, network, addr)
	if err != nil {
		return nil, dialError(err)
	}
	return nc, nil
}

// handshaken completes pmcd's handshake on nc, host being the name
// connected to (which decides whether the connection is local), unix
// whether nc is a unix socket.
func handshaken(nc net.Conn, sp Spec, host string, unix bool, want wanted, cfg *Config) (*conn, error) {
	c := &conn{nc: newTransport(nc), maxLen: cfg.MaxPDU, timeout: cfg.timeout()}
	if err := c.handshake(sp, host, unix, want, cfg.connectTimeout()); err != nil {
		c.nc.Close()
		return nil, err
	}
	return c, nil
}

// dialError gives a failure to connect the errno libpcp reports for it:
// EHOSTUNREACH for a name that does not resolve (or cannot be one),
// ETIMEDOUT when the connection timeout passes.
func dialError(err error) error {
	var dns *net.DNSError
	var addr *net.AddrError
	var ne net.Error
	switch {
	case errors.As(err, &dns), errors.As(err, &addr):
		return fmt.Errorf("%v: %w", err, syscall.EHOSTUNREACH)
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%v: %w", err, syscall.ETIMEDOUT)
	}
	return err
}

// wanted is what a connection asks of pmcd beyond the plain protocol
// (libpcp's context flags): TLS (secure, or relaxed: if pmcd offers it),
// compression, authentication, a container.
type wanted struct {
	secure, relaxed, compress, auth bool
	container                       *string
	noName                          bool // ?container without a name
}

// wanted gathers the context flags of the specification's protocol and
// attributes and of the environment: pcps: (or $PCP_SECURE_SOCKETS, when
// set and empty, "1" or "enforce", or "relaxed") for TLS, compress, any
// of the authentication attributes, and the container attribute, else
// the configured container, else $PCP_CONTAINER.
func (sp Spec) wanted(cfg *Config) (wanted, error) {
	var w wanted
	secure, ok := os.LookupEnv("PCP_SECURE_SOCKETS")
	if sp.Protocol == "pcps" {
		// ?secure without a value is no choice: the environment's
		if v, set := sp.Attrs["secure"]; !set {
			secure, ok = "enforce", true
		} else if v != nil {
			secure, ok = *v, true
		}
	}
	if ok {
		switch secure {
		case "", "1", "enforce":
			w.secure = true
		case "relaxed":
			w.relaxed = true
		}
	}
	_, w.compress = sp.Attrs["compress"]
	for _, a := range []string{"userauth", "username", "password", "method", "realm"} {
		if _, set := sp.Attrs[a]; set {
			w.auth = true
		}
	}
	if v, set := sp.Attrs["container"]; set {
		w.container, w.noName = v, v == nil
	} else if cfg.Container != nil {
		w.container = cfg.Container
	} else if v, set := os.LookupEnv("PCP_CONTAINER"); set {
		w.container = &v
	}
	return w, nil
}

// handshake reads pmcd's greeting, checks that it offers what is wanted
// and that nothing it demands is beyond us, and answers with our version
// and features, then the container wanted.
func (c *conn) handshake(sp Spec, host string, unix bool, want wanted, wait time.Duration) error {
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
	flags, err := sp.features(ch.Features, host, unix, want)
	if err != nil {
		return err
	}
	c.features = ch.Features
	if err := c.send(pdu.EncodeCreds(int32(os.Getpid()), pdu.Version, flags)); err != nil {
		return err
	}
	if flags&pdu.FeatureContainer != 0 {
		if want.noName {
			return syscall.ESRCH // as libpcp fails it, having nothing to send
		}
		return c.send(pdu.EncodeAttr(attrContainer, *want.container))
	}
	return nil
}

// attrContainer is PCP_ATTR_CONTAINER, the attribute naming a container.
const attrContainer = 15

// features is what we ask of a pmcd offering offered, as libpcp's check
// of a pmcd's features decides it: credentials when it demands them (our
// unix socket carries them; over TCP we cannot give them), a client
// certificate when it demands one of a connection not local
// (PM_ERR_NEEDCLIENTCERT without TLS), and what is wanted, each
// EOPNOTSUPP where pmcd lacks it. Compression is always EOPNOTSUPP; TLS
// and authentication that pmcd offers are beyond us (UnsupportedError).
func (sp Spec) features(offered pdu.Features, host string, unix bool, want wanted) (pdu.Features, error) {
	var flags pdu.Features
	notSupported := pmapi.Errno(-int32(syscall.EOPNOTSUPP))
	if offered&pdu.FeatureCredsReqd != 0 {
		flags |= pdu.FeatureCredsReqd
	}
	if offered&pdu.FeatureCertReqd != 0 && !sp.isLocal(host) {
		if !want.secure {
			return 0, pmapi.ErrNeedClientCert
		}
		return 0, &UnsupportedError{Spec: sp.String(), Feature: "pmcd's demand for a TLS client certificate"}
	}
	if want.secure || want.relaxed {
		switch {
		case offered&pdu.FeatureSecure != 0:
			return 0, &UnsupportedError{Spec: sp.String(), Feature: "a secure (TLS) connection"}
		case want.secure:
			return 0, notSupported
		}
	}
	if want.compress {
		return 0, notSupported
	}
	if want.auth {
		if offered&pdu.FeatureAuth == 0 {
			return 0, notSupported
		}
		return 0, &UnsupportedError{Spec: sp.String(), Feature: "authentication (SASL)"}
	}
	if want.container != nil || want.noName {
		if offered&pdu.FeatureContainer == 0 {
			return 0, notSupported
		}
		flags |= pdu.FeatureContainer
	}
	if flags&pdu.FeatureCredsReqd != 0 && !unix {
		return 0, &UnsupportedError{Spec: sp.String(),
			Feature: "pmcd's demand for authenticated credentials over TCP (use unix: or local:)"}
	}
	return flags, nil
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
