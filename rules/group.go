package rules

import (
	"sort"
	"strings"
	"sync"
	"time"
)

// A fleet's members each have their own engine, program and Stats; a
// StatsGroup sees their counts as one process's, as the HTTP endpoint's
// metrics and the MMV file show them: the totals summed, each rule's
// counts summed over the members running it (its Key without the
// member, BaseKey), and every member's hosts.

// memberTag starts the part of a rule's Key naming its member.
const memberTag = "\x00member "

// MemberKey is key, a rule's identity, made that of the rule as member
// id runs it: the same text for another host is another rule.
func MemberKey(key, id string) string { return key + memberTag + id }

// BaseKey is key without the member MemberKey added.
func BaseKey(key string) string {
	if i := strings.Index(key, memberTag); i >= 0 {
		return key[:i]
	}
	return key
}

// StatsGroup is the counts of many engines' Stats, one for each member
// of a fleet, seen as one. It may be read from any goroutine.
type StatsGroup struct {
	mu    sync.Mutex
	parts map[string]*Stats
	order []string // members, in the order they were added
	after hooks
	clock func() time.Time // TimeEvaluations's, for every member
}

// NewStatsGroup makes an empty group.
func NewStatsGroup() *StatsGroup { return &StatsGroup{parts: map[string]*Stats{}} }

// Add gives the Stats of member id (the same one again for an id
// already there), whose evaluations call the group's AfterEval
// functions.
func (g *StatsGroup) Add(id string) *Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	if s := g.parts[id]; s != nil {
		return s
	}
	s := NewStats()
	s.AfterEval(g.after.call)
	if g.clock != nil {
		s.TimeEvaluations(g.clock)
	}
	g.parts[id] = s
	g.order = append(g.order, id)
	return s
}

// Remove drops member id's counts (a member gone at a reload).
func (g *StatsGroup) Remove(id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.parts, id)
	for i, o := range g.order {
		if o == id {
			g.order = append(g.order[:i], g.order[i+1:]...)
			break
		}
	}
}

// Len is the number of members.
func (g *StatsGroup) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.parts)
}

func (g *StatsGroup) all() []*Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]*Stats, len(g.order))
	for i, id := range g.order {
		out[i] = g.parts[id]
	}
	return out
}

// AfterEval has f called after each evaluation of any member's rules
// (from that member's goroutine).
func (g *StatsGroup) AfterEval(f func()) { g.after.add(f) }

// TimeEvaluations has every member's evaluations timed by clock
// (Stats.TimeEvaluations), those of members added later too.
func (g *StatsGroup) TimeEvaluations(clock func() time.Time) {
	g.mu.Lock()
	g.clock = clock
	parts := make([]*Stats, 0, len(g.parts))
	for _, s := range g.parts {
		parts = append(parts, s)
	}
	g.mu.Unlock()
	for _, s := range parts {
		s.TimeEvaluations(clock)
	}
}

// Totals sums the members' totals.
func (g *StatsGroup) Totals() Totals {
	var t Totals
	for _, s := range g.all() {
		p := s.Totals()
		t.NumRules += p.NumRules
		t.Expected += p.Expected
		t.Counts.add(p.Counts)
		t.Lag, t.MaxLag = max(t.Lag, p.Lag), max(t.MaxLag, p.MaxLag)
	}
	return t
}

// Rules gives each rule's counts summed over the members running it,
// keyed by BaseKey, in the order first met: its EvalTime the members'
// together, its LastEval the longest of their last evaluations.
func (g *StatsGroup) Rules() []RuleCounts {
	var out []RuleCounts
	at := map[string]int{}
	for _, s := range g.all() {
		for _, r := range s.Rules() {
			k := BaseKey(r.Key)
			i, ok := at[k]
			if !ok {
				at[k] = len(out)
				out = append(out, RuleCounts{Name: r.Name, Key: k, Delta: r.Delta})
				i = len(out) - 1
			}
			out[i].Counts.add(r.Counts)
			out[i].EvalTime += r.EvalTime
			out[i].LastEval = max(out[i].LastEval, r.LastEval)
		}
	}
	return out
}

// Hosts gives every member's hosts' counts, by connection.
func (g *StatsGroup) Hosts() []HostCounts {
	var out []HostCounts
	for _, s := range g.all() {
		out = append(out, s.Hosts()...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Conn < out[j].Conn })
	return out
}
