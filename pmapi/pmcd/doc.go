// Package pmcd is a client for the PCP protocol spoken by pmcd on TCP port
// 44321 and its local unix socket. Dial returns a Context, which
// implements pmapi.Context: the PMNS (names, children with leaf status,
// traversal, PMID to names), descriptors, instance domains, help text,
// labels at every level, instance profiles and fetches, with pmcd's high
// resolution results when it offers them.
//
// Host specifications are those of pmie -h and pmNewContext(3), parsed
// as libpcp parses them, with its diagnostics (see Spec and SpecError);
// connections go through pmproxy when one is named (host@proxy or
// $PMPROXY_HOST), and ask pmcd for a container when one is named
// (?container=, Config.Container or $PCP_CONTAINER). The connection
// handshake is PCP's native one, without TLS or SASL authentication: where
// pmcd offers what a specification asks (pcps:, ?username=...) or demands
// either over TCP, the connection fails with an UnsupportedError; where
// pmcd lacks what is asked, with EOPNOTSUPP as libpcp's does. Over the unix
// socket pmcd takes our credentials from the socket itself.
//
// Every request has a timeout (Config.Timeout, by default like libpcp's
// PMCD_REQUEST_TIMEOUT), and replies are read through a size-limited
// reader that refuses oversized PDUs before reading them. A connection
// that fails is closed and later requests reconnect on libpcp's backoff
// schedule, reporting Lost and Reconnected events for the messages pmie
// prints (see Event).
//
// On Linux the connection is read and written with raw system calls on its
// descriptor, through the runtime's poller (transport_linux.go), and a
// reply is read ahead at once: a request costs a write and mostly one
// read, and wakes no thread of the runtime but the one waiting for it,
// which matters to a pmie fetching every 100 msec.
//
// The wire format itself is in internal/pdu; internal/pmcdtest
// is a pmcd stand-in for tests. Derived metrics are not this package's
// business (see derive), nor is choosing between pmcd, archives and the
// embedded collector: commands open every source through pmapi/source.
package pmcd
