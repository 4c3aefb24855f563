package pmcd

import (
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// PCP's defaults, which its environment variables override.
const (
	DefaultTimeout        = 10 * time.Second // PMCD_REQUEST_TIMEOUT
	DefaultConnectTimeout = 5 * time.Second  // PMCD_CONNECT_TIMEOUT
)

// DefaultBackoff is PCP's schedule of waits between reconnection attempts
// (PMCD_RECONNECT_TIMEOUT): the first retry comes at once, the next after
// 5 s, then 10 s and so on, the last wait repeating.
var DefaultBackoff = []time.Duration{5 * time.Second, 10 * time.Second,
	20 * time.Second, 40 * time.Second, 80 * time.Second}

// Config adjusts a Context. The zero Config behaves as libpcp does with
// its environment variables.
type Config struct {
	// Timeout bounds each request: sending it and reading the whole
	// reply. Zero means $PMCD_REQUEST_TIMEOUT seconds, else
	// DefaultTimeout.
	Timeout time.Duration
	// ConnectTimeout bounds making a connection and its handshake. Zero
	// means $PMCD_CONNECT_TIMEOUT seconds, else DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// Backoff is the waits between failed reconnection attempts. Empty
	// means $PMCD_RECONNECT_TIMEOUT (comma-separated seconds), else
	// DefaultBackoff.
	Backoff []time.Duration
	// MaxPDU is the largest PDU accepted from pmcd; larger ones fail the
	// request with ErrTooBig. Zero means 64 MiB.
	MaxPDU int
	// Notify, if set, is called (synchronously, from the request that
	// noticed) when the connection is lost or re-established.
	Notify func(Event)
	// Container, if not nil, is the container to ask pmcd for when the
	// host specification names none (pmGetOptions' --container); nil
	// means $PCP_CONTAINER, if set.
	Container *string
	// Diag, if set, gets what pmNewContext prints of a host
	// specification that does not parse: "pmNewContext: bad host
	// specification" and the specification with a caret under the fault
	// (SpecError's Diag).
	Diag io.Writer
	// Warn, if set, gets libpcp's warnings while connecting (what
	// pmNotifyErr logs at LOG_WARNING), each a line without its stamp:
	// "__pmConnectPMCD: bad version string from pmproxy: ...".
	Warn func(msg string)
	// Now is the clock for the reconnection schedule; nil means time.Now.
	Now func() time.Time
}

func envSeconds(name string) (time.Duration, bool) {
	v, err := strconv.ParseFloat(os.Getenv(name), 64)
	if err != nil || v < 0 {
		return 0, false
	}
	return time.Duration(v * float64(time.Second)), true
}

func (c *Config) timeout() time.Duration {
	return orEnv(c.Timeout, "PMCD_REQUEST_TIMEOUT", DefaultTimeout)
}

func (c *Config) connectTimeout() time.Duration {
	return orEnv(c.ConnectTimeout, "PMCD_CONNECT_TIMEOUT", DefaultConnectTimeout)
}

// orEnv is v if set, else the positive seconds of environment variable
// name, else def.
func orEnv(v time.Duration, name string, def time.Duration) time.Duration {
	if v > 0 {
		return v
	}
	if d, ok := envSeconds(name); ok && d > 0 {
		return d
	}
	return def
}

func (c *Config) backoff() []time.Duration {
	if len(c.Backoff) > 0 {
		return c.Backoff
	}
	if env := os.Getenv("PMCD_RECONNECT_TIMEOUT"); env != "" {
		var out []time.Duration
		for _, f := range strings.Split(env, ",") {
			n, err := strconv.Atoi(f)
			if err != nil || n <= 0 {
				out = nil
				break
			}
			out = append(out, time.Duration(n)*time.Second)
		}
		if out != nil {
			return out
		}
	}
	return DefaultBackoff
}

func (c *Config) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// EventKind says what happened to a connection.
type EventKind int

// The connection events.
const (
	// Lost: a request failed because the connection broke, timed out or
	// pmcd broke the protocol. The connection is closed; the next
	// requests try to reconnect, as scheduled by Config.Backoff, and fail
	// with ErrDown in between.
	Lost EventKind = iota + 1
	// Reconnected: a request found the connection down, and made a new
	// one.
	Reconnected
)

func (k EventKind) String() string {
	switch k {
	case Lost:
		return "lost"
	case Reconnected:
		return "reconnected"
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// Event reports a change in a Context's connection.
//
// pmie reports these on stderr through pmNotifyErr. When a fetch fails it
// prints "pmFetch from HOST failed: ERR" (HOST is Source().Host, ERR the
// pmErrStr of the error's pmapi.Code, "IPC protocol failure" when pmcd has
// gone) and then "Lost connection to pmcd SPEC" (SPEC as given with -h or
// :host, Source().Name); on Reconnected it prints "Re-established
// connection to pmcd SPEC". If the very first connection fails it prints
// "Cannot connect to pmcd SPEC" and, on a line of its own without the
// pmNotifyErr prefix, "pmie: warning - pmcd via SPEC " and words for the
// error's code (package rules has them), retrying Dial every cycle after
// that. Transcripts of
// real pmie are in testdata/golden/pmie-reconnect.
type Event struct {
	Kind EventKind
	Spec string // the host specification, as given
	Err  error  // for Lost, why
}
