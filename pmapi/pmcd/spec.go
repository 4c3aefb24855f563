package pmcd

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gopcp/pmie/internal/pcpconf"
)

// Spec is a parsed pmcd host specification, as pmie -h, pminfo -h and
// pmNewContext(3) accept them:
//
//	localhost, host.example.com, 192.168.0.3   pmcd on its default port(s)
//	host:44321  host:44321,4321                explicit port(s)
//	[fe80::1%eth0]:44321                       IPv6 address in brackets
//	pcp://host:port                            the same, as a URL
//	unix:  unix:/path/to/socket                the local unix socket only
//	local: local:/path/to/socket               unix socket, else localhost
//
// pcps:// (TLS), @proxy (pmproxy) and ?attributes (authentication,
// containers) are recognised and refused with an UnsupportedError.
type Spec struct {
	// Raw is the specification as given ("" is taken as "local:").
	Raw string
	// Socket is the unix domain socket path, for unix: and local:.
	Socket string
	// Fallback is set for local:, which tries localhost over TCP when the
	// socket cannot be used.
	Fallback bool
	// Host and Ports give the TCP address, when Socket is empty.
	Host  string
	Ports []int
}

// DefaultPort is pmcd's registered TCP port.
const DefaultPort = 44321

// UnsupportedError says that a host specification or a pmcd asks for a
// feature this client does not implement.
type UnsupportedError struct {
	Spec    string
	Feature string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("pmcd %s: %s is not supported by this client", e.Spec, e.Feature)
}

// SpecError is a host specification that cannot be parsed.
type SpecError struct {
	Spec string
	Msg  string
}

func (e *SpecError) Error() string {
	return fmt.Sprintf("bad host specification %q: %s", e.Spec, e.Msg)
}

// ParseSpec parses a host specification.
func ParseSpec(s string) (Spec, error) {
	sp := Spec{Raw: s}
	rest := s
	if rest == "" {
		rest = "local:"
	}
	switch {
	case strings.HasPrefix(rest, "pcps:"):
		return sp, &UnsupportedError{Spec: s, Feature: "a secure (pcps:, TLS) connection"}
	case strings.HasPrefix(rest, "pcp:"):
		rest = strings.TrimLeft(rest[len("pcp:"):], "/")
	case strings.HasPrefix(rest, "unix:"), strings.HasPrefix(rest, "local:"):
		sp.Fallback = strings.HasPrefix(rest, "local:")
		rest = rest[strings.IndexByte(rest, ':')+1:]
		return sp, sp.parseSocket(strings.TrimLeft(rest, "/"))
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		return sp, &UnsupportedError{Spec: s, Feature: "connection attributes (" + rest[i+1:] + ")"}
	}
	rest = strings.TrimSuffix(rest, "/")
	if strings.Contains(rest, "@") {
		return sp, &UnsupportedError{Spec: s, Feature: "connecting through pmproxy (@proxy)"}
	}
	return sp, sp.parseHost(rest)
}

func (sp *Spec) parseSocket(path string) error {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		return &UnsupportedError{Spec: sp.Raw, Feature: "connection attributes (" + path[i+1:] + ")"}
	}
	path = strings.TrimSuffix(path, ":")
	if path == "" {
		sp.Socket = DefaultSocket()
		return nil
	}
	sp.Socket = "/" + path
	return nil
}

func (sp *Spec) parseHost(s string) error {
	host, ports := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return &SpecError{sp.Raw, "missing closing ']' for host spec"}
		}
		host, ports = s[1:end], s[end+1:]
		if ports != "" && ports[0] != ':' {
			return &SpecError{sp.Raw, "extra characters after host spec"}
		}
		ports = strings.TrimPrefix(ports, ":")
	} else if i := strings.IndexByte(s, ':'); i >= 0 {
		host, ports = s[:i], s[i+1:]
		if ports == "" {
			return &SpecError{sp.Raw, "missing port"}
		}
	}
	if host == "" {
		return &SpecError{sp.Raw, "missing host name"}
	}
	sp.Host = host
	if ports == "" {
		sp.Ports = DefaultPorts()
		return nil
	}
	list, err := parsePorts(ports)
	if err != nil {
		return &SpecError{sp.Raw, err.Error()}
	}
	sp.Ports = list
	return nil
}

func parsePorts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		p, err := strconv.Atoi(f)
		if err != nil || p <= 0 || p > 65535 {
			return nil, fmt.Errorf("bad port %q", f)
		}
		out = append(out, p)
	}
	return out, nil
}

// DefaultPorts is $PMCD_PORT (a comma-separated list) or DefaultPort.
func DefaultPorts() []int {
	if env := os.Getenv("PMCD_PORT"); env != "" {
		if list, err := parsePorts(env); err == nil {
			return list
		}
	}
	return []int{DefaultPort}
}

// DefaultSocket is the path of pmcd's unix socket: $PMCD_SOCKET, else
// pmcd.socket in PCP_RUN_DIR (from the environment or pcp.conf(5), as
// package internal/pcpconf reads it).
func DefaultSocket() string {
	if env := os.Getenv("PMCD_SOCKET"); env != "" {
		return env
	}
	return pcpconf.Get("PCP_RUN_DIR") + "/pmcd.socket"
}

// String is the specification as given, "local:" for an empty one.
func (sp Spec) String() string {
	if sp.Raw == "" {
		return "local:"
	}
	return sp.Raw
}

// isLocal reports whether a connection is to this machine, where pmcd
// waives its client certificate requirement.
func (sp Spec) isLocal() bool {
	return sp.Socket != "" || strings.Contains(sp.Host, "localhost")
}
