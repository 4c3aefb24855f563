package pmcd

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/pmapi"
)

// Spec is a parsed pmcd host specification, as pmie -h, pminfo -h and
// pmNewContext(3) accept them (see PCPIntro(1)):
//
//	localhost, host.example.com, 192.168.0.3   pmcd on its default port(s)
//	host:44321  host:44321,4321                explicit port(s)
//	[fe80::1%eth0]:44321                       a host in brackets (IPv6)
//	host@proxy  host:44321@proxy:44322         through pmproxy on proxy
//	pcp://host:port  pcps://host               the same, as a URL
//	unix:  unix:/path/to/socket                the local unix socket only
//	local: local:/path/to/socket               unix socket, else localhost
//	host?compress&container=name ...           with attributes
//
// Whatever follows a '/' after the host and ports (or after the
// attributes) is passed over. Ports are taken as atoi(3) takes digits,
// and connected to as their low 16 bits (localhost:109857 is port
// 44321), as libpcp does.
type Spec struct {
	// Raw is the specification as given.
	Raw string
	// Protocol is "pcp", "pcps", "local" or "unix" when the
	// specification starts with one and a colon, else "".
	Protocol string
	// Socket is the unix domain socket path, for unix: and local:.
	Socket string
	// Fallback is set for local:, which tries localhost over TCP when the
	// socket cannot be used.
	Fallback bool
	// Host and Ports give the TCP address, when Socket is empty.
	Host  string
	Ports []int
	// Proxy, if not nil, is the pmproxy to connect through (the second
	// host of "host@proxy"; hosts after it are not used).
	Proxy *Proxy
	// Attrs are the attributes after '?' that libpcp knows, by their
	// canonical names (compress, userauth, username, realm, method,
	// password, unixsock, local, userid, groupid, processid, secure,
	// container, exclusive), with their URL-decoded values (nil for
	// none: "?compress", where "?compress=" has ""). A name given twice
	// keeps its last value.
	Attrs map[string]*string
}

// Proxy is a pmproxy host and its ports (empty: pmproxy's default port).
type Proxy struct {
	Host  string
	Ports []int
}

// DefaultPort is pmcd's registered TCP port; DefaultProxyPort pmproxy's.
const (
	DefaultPort      = 44321
	DefaultProxyPort = 44322
)

// UnsupportedError says that a host specification or a pmcd asks for a
// feature this client does not implement (TLS, SASL authentication).
// It is reported as libpcp reports a feature it lacks, by its Code,
// EOPNOTSUPP ("Operation not supported").
type UnsupportedError struct {
	Spec    string
	Feature string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("pmcd %s: %s is not supported by this client", e.Spec, e.Feature)
}

// Unwrap gives the PCP error code, -EOPNOTSUPP.
func (e *UnsupportedError) Unwrap() error { return pmapi.Errno(-int32(syscall.EOPNOTSUPP)) }

// SpecError is a host specification that cannot be parsed. Diag is what
// pmNewContext prints of it after "pmNewContext: bad host specification":
// the specification and a caret under the offending character with the
// reason, as two lines. Code is the PCP error code (PM_ERR_GENERIC, or
// -EINVAL for an attribute value that does not URL-decode, which libpcp
// reports without a diagnostic, its Diag then being "(null)").
type SpecError struct {
	Spec string
	Msg  string
	Diag string
	Code pmapi.Errno
}

func (e *SpecError) Error() string {
	return fmt.Sprintf("bad host specification %q: %s", e.Spec, e.Msg)
}

// Unwrap gives the PCP error code.
func (e *SpecError) Unwrap() error { return e.Code }

// newSpecError is the error at byte at of spec, with its caret
// diagnostic: the specification, then a line as long as the part before
// at (its printable characters as spaces, others as they are) and the
// caret with the reason.
func newSpecError(spec string, at int, msg string) *SpecError {
	var b strings.Builder
	b.WriteString(spec)
	b.WriteByte('\n')
	for i := 0; i < at; i++ {
		if c := spec[i]; c > ' ' && c < 0x7f {
			b.WriteByte(' ')
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteString("^ -- " + msg + "\n")
	return &SpecError{Spec: spec, Msg: msg, Diag: b.String(), Code: pmapi.ErrGeneric}
}

// ParseSpec parses a host specification as pmNewContext does. A
// specification naming no host ("", "pcp://", "?compress") is
// pmapi.ErrNotHost; one that does not parse a *SpecError.
func ParseSpec(s string) (Spec, error) {
	sp := Spec{Raw: s}
	rest := s
	for _, p := range []string{"pcp", "pcps", "local", "unix"} {
		if strings.HasPrefix(rest, p+":") {
			sp.Protocol = p
			rest = strings.TrimLeft(rest[len(p)+1:], "/")
			break
		}
	}
	at := len(s) - len(rest) // where rest starts in s
	var n int
	nohost := false
	if sp.Protocol == "local" || sp.Protocol == "unix" {
		n = sp.parseSocket(rest)
	} else {
		hosts, used, err := parseHosts(s, at)
		if err != nil {
			return sp, err
		}
		n = used
		if len(hosts) == 0 {
			nohost = true
		} else {
			sp.Host, sp.Ports = hosts[0].Host, hosts[0].Ports
			if sp.Ports == nil {
				sp.Ports = DefaultPorts()
			}
			if len(hosts) > 1 {
				sp.Proxy = &hosts[1]
			}
		}
	}
	at += n
	switch {
	case at == len(s) || s[at] == '/':
	case s[at] == '?':
		at++
	default:
		return sp, newSpecError(s, at, "unexpected terminal character")
	}
	attrs, err := parseAttrs(s[at:])
	if err != nil {
		return sp, &SpecError{Spec: s, Msg: "bad attribute value", Diag: "(null)", Code: pmapi.Errno(-int32(syscall.EINVAL))}
	}
	sp.Attrs = attrs
	if nohost {
		return sp, pmapi.ErrNotHost
	}
	return sp, nil
}

// parseSocket takes the socket path of unix: and local: from the start of
// s: up to a ':' or '?', made absolute. An empty path, or one of a single
// character before a ':' or '?', is the default socket (as libpcp has
// it). It returns the length of s used.
func (sp *Spec) parseSocket(s string) int {
	n := strings.IndexAny(s, ":?")
	path := s
	if n >= 0 {
		path = s[:n]
	} else {
		n = len(s)
	}
	if path == "" || (n < len(s) && len(path) == 1) {
		path = DefaultSocket()
	}
	if len(path) > maxPath-1 {
		path = path[:maxPath-1]
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
		if len(path) > maxPath-1 {
			path = path[:maxPath-1]
		}
	}
	sp.Socket, sp.Fallback = path, sp.Protocol == "local"
	return n
}

// maxPath is MAXPATHLEN: a socket path is cut to one less.
const maxPath = 4096

// hostEnd reports whether c ends a host name or a port.
func hostEnd(c byte) bool { return c == ':' || c == '@' || c == '/' || c == '?' }

// parseHosts reads the hosts of spec from byte at: "host[:port,...]"
// joined by '@', each host possibly in brackets. It returns them and the
// number of bytes read; with none, the list is empty. Ports are nil when
// a host names none.
//
// An empty host after an '@' takes what follows into its name, up to the
// next '@', '/' or '?' or the end, as libpcp's scan does; at the very end
// libpcp reads on past the string (the next argument, in practice), so
// ours takes the name as empty, a name that never resolves.
func parseHosts(spec string, at int) (hosts []Proxy, n int, err error) {
	byteAt := func(i int) byte {
		if i < len(spec) {
			return spec[i]
		}
		return 0
	}
	ends := func(c byte) bool { return c == 0 || hostEnd(c) }
	i, start := at, at
	for {
		next := i
		if i == start && byteAt(i) == '[' {
			for i++; i < len(spec) && spec[i] != ']'; i++ {
			}
			if i == len(spec) {
				return nil, 0, newSpecError(spec, i, "missing closing ']' for host spec")
			}
			next = i + 1
			if !ends(byteAt(next)) {
				return nil, 0, newSpecError(spec, next, "extra characters after host spec")
			}
			start++
		}
		c := byteAt(next)
		if !ends(c) {
			i++
			continue
		}
		if i == at {
			break // nothing before the first end: no host
		}
		if i == start {
			if i == len(spec) {
				hosts = append(hosts, Proxy{})
				break
			}
			i++ // an empty name takes the end character in
			continue
		}
		hosts = append(hosts, Proxy{Host: spec[start:i]})
		i = next
		if byteAt(i) == ':' {
			ports, used, err := parsePortList(spec, i+1)
			if err != nil {
				return nil, 0, err
			}
			hosts[len(hosts)-1].Ports = ports
			i += 1 + used
		}
		if byteAt(i) == '@' {
			i++
			start = i
			continue
		}
		break
	}
	return hosts, i - at, nil
}

// parsePortList reads the ports after a host's ':' at byte at of spec:
// digits, separated by commas, up to an '@', '/', '?' or the end. It
// returns them and the bytes read, up to the character ending them.
func parsePortList(spec string, at int) ([]int, int, error) {
	var ports []int
	start := at
	for i := at; ; i++ {
		c := byte(0)
		if i < len(spec) {
			c = spec[i]
		}
		switch {
		case c == ',' || c == 0 || c == '@' || c == '/' || c == '?':
			if i == start {
				return nil, 0, newSpecError(spec, i, "missing port")
			}
			ports = append(ports, pmapi.Atoi(spec[start:i]))
			if c != ',' {
				return ports, i - at, nil
			}
			start = i + 1
		case c >= '0' && c <= '9':
		default:
			return nil, 0, newSpecError(spec, i, "non-numeric port")
		}
	}
}

// attrNames maps the attribute names libpcp knows to their canonical
// names. Others are passed over.
var attrNames = map[string]string{
	"compress": "compress", "userauth": "userauth", "authorise": "userauth",
	"authorize": "userauth", "user": "username", "username": "username",
	"realm": "realm", "authmeth": "method", "method": "method",
	"pass": "password", "password": "password", "unix": "unixsock",
	"unixsock": "unixsock", "local": "local", "uid": "userid",
	"userid": "userid", "gid": "groupid", "groupid": "groupid",
	"pid": "processid", "processid": "processid", "secure": "secure",
	"container": "container", "exclusive": "exclusive",
}

// parseAttrs reads "name[=value]&..." up to the end or a '/'. The name is
// what comes before the last '=' of an attribute. The values of known
// attributes are URL-decoded, and one that does not decode is an error.
func parseAttrs(s string) (map[string]*string, error) {
	if i := strings.IndexByte(s, '/'); i >= 0 {
		s = s[:i]
	}
	attrs := map[string]*string{}
	for _, a := range strings.Split(s, "&") {
		name, value, hasValue := a, "", false
		if i := strings.LastIndexByte(a, '='); i >= 0 {
			name, value, hasValue = a[:i], a[i+1:], true
		}
		key, ok := attrNames[name]
		if !ok {
			continue
		}
		if !hasValue {
			attrs[key] = nil
			continue
		}
		v, err := urlDecode(value)
		if err != nil {
			return nil, err
		}
		attrs[key] = &v
	}
	return attrs, nil
}

// urlDecode undoes application/x-www-form-urlencoded: '+' is a space,
// %XX a byte. The value ends at a decoded NUL, as a C string would.
func urlDecode(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '+':
			c = ' '
		case '%':
			if i+3 > len(s) {
				return "", syscall.EINVAL
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", syscall.EINVAL
			}
			c = byte(v)
			i += 2
		}
		b.WriteByte(c)
	}
	return pmapi.CString(b.String()), nil
}

// envPorts is the list of ports libpcp reads from a variable such as
// $PMCD_PORT: numbers as strtol(3) reads them (decimal, 0x hex or 0
// octal, after blanks and a sign), separated by commas. An unset
// variable, or one with any entry that is not wholly a number or is
// negative, gives def alone; an empty entry is port 0.
func envPorts(name string, def int) []int {
	env, ok := os.LookupEnv(name)
	if !ok {
		return []int{def}
	}
	var out []int
	for _, f := range strings.Split(env, ",") {
		p, ok := strtolPort(f)
		if !ok {
			return []int{def}
		}
		out = append(out, p)
	}
	return out
}

// strtolPort reads s as (int)strtol(s, &end, 0) must read it wholly
// (blanks alone are not read), and not negative.
func strtolPort(s string) (int, bool) {
	l, rest := pmapi.StrtolBase(s, 0)
	p := int(int32(l))
	return p, rest == "" && p >= 0
}

// DefaultPorts is $PMCD_PORT (a comma-separated list) or DefaultPort.
func DefaultPorts() []int { return envPorts("PMCD_PORT", DefaultPort) }

// DefaultSocket is the path of pmcd's unix socket: $PMCD_SOCKET, else
// pmcd.socket in PCP_RUN_DIR (from the environment or pcp.conf(5), as
// package internal/pcpconf reads it).
func DefaultSocket() string {
	if env, ok := os.LookupEnv("PMCD_SOCKET"); ok {
		return env
	}
	return pcpconf.Get("PCP_RUN_DIR") + "/pmcd.socket"
}

// String is the specification as given.
func (sp Spec) String() string { return sp.Raw }

// isLocal reports whether a connection to host is taken to be to this
// machine, where pmcd waives its client certificate requirement: by
// unix: or local: (or their attributes), or a host name with "localhost"
// in it.
func (sp Spec) isLocal(host string) bool {
	_, unix := sp.Attrs["unixsock"]
	_, local := sp.Attrs["local"]
	return sp.Socket != "" || unix || local || strings.Contains(host, "localhost")
}
