package rules

import (
	"sort"
	"sync/atomic"
	"time"
)

// HostCounts are the counts of a host's fetches: a live host's, or an
// archive's when fetches are timed (Stats.TimeEvaluations).
type HostCounts struct {
	Conn    string        // the host's connection (pmcd host specification)
	Fetches uint64        // fetches finished (answered or failed)
	Errors  uint64        // fetches that failed
	Time    time.Duration // time spent waiting for fetches finished
	Last    time.Duration // the last fetch's time
	Down    bool          // it cannot be reached now
}

// hostCounters are a host's counts as fetches update them.
type hostCounters struct {
	fetches, errors atomic.Uint64
	nanos, last     atomic.Int64
	down            atomic.Bool
}

// setDown records whether the host can be reached.
func (c *hostCounters) setDown(down bool) { c.down.Store(down) }

// hostTable is the hosts' counts, kept for the life of the engine's
// Stats (a host not fetched any longer keeps its last counts).
type hostTable struct {
	hosts map[string]*hostCounters
}

// host gives the counters of conn, making them if need be.
func (s *Stats) host(conn string) *hostCounters {
	s.hostsMu.Lock()
	defer s.hostsMu.Unlock()
	if s.hostTable.hosts == nil {
		s.hostTable.hosts = map[string]*hostCounters{}
	}
	c := s.hostTable.hosts[conn]
	if c == nil {
		c = &hostCounters{}
		s.hostTable.hosts[conn] = c
	}
	return c
}

// fetched counts one fetch from a host.
func (c *hostCounters) fetched(d time.Duration, err error) {
	c.fetches.Add(1)
	if err != nil {
		c.errors.Add(1)
	}
	c.nanos.Add(int64(d))
	c.last.Store(int64(d))
}

// Hosts returns the counts of each host fetched from, by connection: live
// hosts, and archives if fetches are timed.
func (s *Stats) Hosts() []HostCounts {
	s.hostsMu.Lock()
	defer s.hostsMu.Unlock()
	out := make([]HostCounts, 0, len(s.hostTable.hosts))
	for conn, c := range s.hostTable.hosts {
		out = append(out, HostCounts{Conn: conn, Fetches: c.fetches.Load(), Errors: c.errors.Load(),
			Time: time.Duration(c.nanos.Load()), Last: time.Duration(c.last.Load()), Down: c.down.Load()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Conn < out[j].Conn })
	return out
}
