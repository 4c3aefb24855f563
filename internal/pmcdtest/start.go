package pmcdtest

import "testing"

// Start starts a stand-in serving ns on a loopback TCP port and stops it
// when tb's test ends.
func Start(tb testing.TB, ns Namespace) *Server {
	tb.Helper()
	s := New(ns)
	if err := s.Start("tcp", "127.0.0.1:0"); err != nil {
		tb.Fatalf("pmcdtest: %v", err)
	}
	tb.Cleanup(s.Stop)
	return s
}
