package pmcd

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/pmie/internal/pdu"
	"github.com/gopcp/pmie/pmapi"
)

// Context is a PMAPI context on a pmcd (PM_CONTEXT_HOST). It implements
// pmapi.Context.
//
// When its connection breaks, the request that noticed fails and Notify
// gets a Lost event; later requests reconnect (the first at once, then
// after each wait of Config.Backoff), failing with an error matching
// ErrDown while no attempt is due. A reconnection restores the instance
// profile and reports Reconnected. A Context is not safe for concurrent
// use.
type Context struct {
	spec Spec
	cfg  Config
	c    *conn // nil while down
	src  pmapi.Source

	closed   bool
	failures int       // reconnection attempts failed since the loss
	retryAt  time.Time // no attempt before this
	lastErr  error

	prof     pmapi.Profile
	profSent bool
	types    map[pmapi.PMID]pmapi.Type // for values sent without a type
}

// ctxSlot is the context number we give pmcd; one connection carries one
// context.
const ctxSlot = 0

// Dial connects to the pmcd that spec names (see Spec) and returns a
// Context on it, as pmNewContext(PM_CONTEXT_HOST, spec) does. It fails if
// no connection can be made; pmie then retries Dial on its next cycle.
func Dial(spec string, cfg Config) (*Context, error) {
	sp, err := ParseSpec(spec)
	if err != nil {
		var se *SpecError
		if errors.As(err, &se) && cfg.Diag != nil {
			fmt.Fprintf(cfg.Diag, "pmNewContext: bad host specification\n%s", se.Diag)
		}
		return nil, err
	}
	x := &Context{spec: sp, cfg: cfg}
	x.src = pmapi.Source{Kind: pmapi.SourceHost, Name: sp.String()}
	c, err := dialConn(sp, &x.cfg)
	if err != nil {
		return nil, x.connectError(err)
	}
	ignorePipes.Do(func() { signal.Ignore(syscall.SIGPIPE) })
	if err := x.attach(c); err != nil {
		return nil, err
	}
	return x, nil
}

// ignorePipes has SIGPIPE ignored once a pmcd is connected, as libpcp
// does: a write to a closed pipe then fails instead of ending the
// process (`pminfo -m | head -1` exits 0, as PCP's does).
var ignorePipes sync.Once

// connectError wraps a failure to connect.
func (x *Context) connectError(err error) error {
	var ue *UnsupportedError
	var se *SpecError
	if errors.As(err, &ue) || errors.As(err, &se) {
		return err
	}
	if code, ok := err.(pmapi.Errno); ok {
		return &Error{Spec: x.spec.String(), Op: "connect", Code: code}
	}
	return &Error{Spec: x.spec.String(), Op: "connect", Code: codeOf(err), Err: err}
}

// attach makes c the context's connection and learns pmcd's host name and
// timezone.
func (x *Context) attach(c *conn) error {
	x.c = c
	x.profSent = false
	x.types = map[pmapi.PMID]pmapi.Type{}
	x.failures = 0
	host, tz, err := x.identify()
	if err != nil {
		x.drop()
		return x.connectError(err)
	}
	x.src.Host, x.src.TZ = host, tz
	return nil
}

// identify fetches pmcd.hostname and pmcd.timezone, falling back as
// pmGetContextHostName does when pmcd cannot say.
func (x *Context) identify() (host, tz string, err error) {
	names := []string{"pmcd.hostname", "pmcd.timezone"}
	p, _, err := x.c.call(pdu.EncodeNames(names, nil), pdu.PMNSIDs)
	var ids []pmapi.PMID
	if err == nil {
		_, ids, err = pdu.DecodeIDs(p, pdu.PMNSIDs)
	}
	if err == nil && len(ids) == len(names) {
		var r pmapi.Result
		for _, id := range ids {
			x.types[id] = pmapi.TypeString
		}
		err = x.c.send(pdu.EncodeProfile(ctxSlot, &x.prof))
		x.profSent = err == nil
		if err == nil {
			err = x.fetch(ids, &r)
		}
		if err == nil {
			host = firstString(r.Sets[0])
			tz = firstString(r.Sets[1])
		}
	}
	var re *replyError
	if err != nil && !errors.As(err, &re) {
		return "", "", err
	}
	if host == "" {
		host = x.spec.Host
		if x.spec.Socket != "" || strings.HasPrefix(host, "localhost") {
			host, _ = os.Hostname()
		}
	}
	return host, tz, nil
}

func firstString(vs pmapi.ValueSet) string {
	if vs.Err != nil || len(vs.Values) == 0 || vs.Values[0].Atom.Type != pmapi.TypeString {
		return ""
	}
	return vs.Values[0].Atom.Str()
}

// Source describes the pmcd: Name is the host specification as given,
// Host what pmcd calls its host (pmcd.hostname), TZ its timezone
// (pmcd.timezone).
func (x *Context) Source() pmapi.Source { return x.src }

// Connected reports whether the context has a connection to pmcd now.
func (x *Context) Connected() bool { return x.c != nil }

// Close closes the connection; the Context cannot be used again.
func (x *Context) Close() error {
	if x.c != nil {
		x.c.close()
		x.c = nil
	}
	x.closed = true
	return nil
}

func (x *Context) notify(k EventKind, err error) {
	if x.cfg.Notify != nil {
		x.cfg.Notify(Event{Kind: k, Spec: x.spec.String(), Err: err})
	}
}

func (x *Context) drop() {
	if x.c != nil {
		x.c.close()
		x.c = nil
	}
}

// ready returns the connection, reconnecting if one is due.
func (x *Context) ready(op string) (*conn, error) {
	if x.closed {
		return nil, pmapi.ErrNoContext
	}
	if x.c != nil {
		return x.c, nil
	}
	if err := x.reconnect(op); err != nil {
		return nil, err
	}
	x.notify(Reconnected, nil)
	return x.c, nil
}

// reconnect makes a new connection if no wait is pending, and schedules
// the next attempt if it fails.
func (x *Context) reconnect(op string) error {
	now := x.cfg.now()
	if now.Before(x.retryAt) {
		return &Error{Spec: x.spec.String(), Op: op, Code: pmapi.Code(x.lastErr), Err: x.lastErr, down: true}
	}
	c, err := dialConn(x.spec, &x.cfg)
	if err == nil {
		err = x.attach(c)
	} else {
		err = x.connectError(err)
	}
	if err != nil {
		backoff := x.cfg.backoff()
		x.failures++
		x.retryAt = now.Add(backoff[min(x.failures, len(backoff))-1])
		x.lastErr = err
	}
	return err
}

// Reconnect is pmReconnectContext: it closes the connection, if there is
// one, and makes a new one at once, unless the connection is down and the
// wait after the last failed attempt has not passed (an error matching
// ErrDown). A connection re-established after being down reports
// Reconnected. Requests reconnect by themselves; Reconnect is for callers
// that want a fresh connection or to try now.
func (x *Context) Reconnect() error {
	if x.closed {
		return pmapi.ErrNoContext
	}
	wasDown := x.c == nil
	x.drop()
	if err := x.reconnect("reconnect"); err != nil {
		return err
	}
	if wasDown {
		x.notify(Reconnected, nil)
	}
	return nil
}

// fail turns a request's error into what the caller sees. pmcd's error
// replies pass through as pmapi.Errno; anything else means the connection
// is gone: it is closed, and Lost reported.
func (x *Context) fail(op string, err error) error {
	var re *replyError
	if errors.As(err, &re) {
		return re.code
	}
	e := &Error{Spec: x.spec.String(), Op: op, Code: codeOf(err), Err: err}
	x.drop()
	x.lastErr = e
	x.failures = 0
	x.retryAt = x.cfg.now()
	x.notify(Lost, e)
	return e
}

// call runs one request, reconnecting first if due.
func (x *Context) call(op string, req []byte, want pdu.Type) ([]byte, error) {
	c, err := x.ready(op)
	if err != nil {
		return nil, err
	}
	p, _, err := c.call(req, want)
	if err != nil {
		return nil, x.fail(op, err)
	}
	return p, nil
}

// decoded finishes a request whose reply failed to decode: the stream is
// not to be trusted after a malformed PDU.
func (x *Context) decoded(op string, err error) error {
	if err == nil {
		return nil
	}
	return x.fail(op, err)
}
