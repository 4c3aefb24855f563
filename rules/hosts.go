package rules

import (
	"sync"
	"syscall"

	"github.com/gopcp/pmie/pmapi"
)

// Hosts remembers, per connection, what pmie last said of a live host, so
// that each change is reported once, in pmie's words: a host never reached
// ("Cannot connect to pmcd" and a warning saying why), lost ("Lost
// connection") and back ("Re-established connection"). The code binding
// rules, which tries each host first, and the Engine share one.
type Hosts struct {
	mu     sync.Mutex
	state  map[string]hostState
	notify NotifyFunc
	quiet  bool
}

type hostState int

const (
	stateInit hostState = iota
	stateFailInit
	stateReconn
	stateLost
)

// NewHosts reports changes through notify, unless quiet.
func NewHosts(notify NotifyFunc, quiet bool) *Hosts {
	return &Hosts{state: map[string]hostState{}, notify: notify, quiet: quiet}
}

// Unreachable records that conn could not be reached, reporting it unless
// already said.
func (s *Hosts) Unreachable(conn string, err error) {
	if s.change(conn, stateFailInit) && !s.quiet && s.notify != nil {
		s.notify(Warning, "pmie: warning - pmcd via "+conn+" "+unreachable(err))
	}
}

// unreachable words the error of a host never reached as pmie does after
// "pmie: warning - pmcd via SPEC ", by its PCP code: "does not respond"
// (connection refused), "does not permit delivery of metrics to the local
// host" (PM_ERR_PERMISSION), "has exceeded its connection limit"
// (PM_ERR_CONNLIMIT), or "is unreachable".
func unreachable(err error) string {
	switch pmapi.Code(err) {
	case pmapi.Errno(-int32(syscall.ECONNREFUSED)):
		return "does not respond"
	case pmapi.ErrPermission:
		return "does not permit delivery of metrics to the local host"
	case pmapi.ErrConnLimit:
		return "has exceeded its connection limit"
	}
	return "is unreachable"
}

// Reached records that conn answered, reporting a return.
func (s *Hosts) Reached(conn string) { s.change(conn, stateReconn) }

// lost records that the connection to conn was lost.
func (s *Hosts) lost(conn string) { s.change(conn, stateLost) }

// change records a new state for conn, reporting it if it is news. It
// returns whether the state changed.
func (s *Hosts) change(conn string, st hostState) bool {
	s.mu.Lock()
	old, ok := s.state[conn]
	if !ok {
		old = stateInit
	}
	s.state[conn] = st
	s.mu.Unlock()
	if old == st {
		return false
	}
	if s.quiet || s.notify == nil {
		return true
	}
	switch {
	case st == stateFailInit:
		s.notify(Info, "Cannot connect to pmcd "+conn)
	case st == stateReconn && old != stateInit:
		s.notify(Info, "Re-established connection to pmcd "+conn)
	case st == stateLost:
		s.notify(Info, "Lost connection to pmcd "+conn)
	}
	return true
}
