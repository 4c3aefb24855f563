// Package pmcdtest is a pmcd stand-in for tests: a Server that speaks the
// real PCP protocol over TCP or a unix socket and serves a Namespace of
// metrics, instance domains, help text and labels, with values tests can
// change. It can add latency to every reply, be stopped and restarted on
// the same address, refuse connections, demand features the client lacks,
// and corrupt, truncate or withhold replies (Fault), so the client in
// pmapi/pmcd and the pmie engine can be tested against pmcd's failure
// modes without PCP installed.
//
// It answers as pmcd 6.0.3 does where tests depend on it (error codes for
// unknown names, PMIDs, instance domains and instances; leaf status;
// profiles), but it is not a PMDA host: everything comes from the
// Namespace.
package pmcdtest
