package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/gopcp/pmie/daemon/wire"
	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/rules"
)

// A restarted pmie must not page again for what it paged before it
// stopped. With a state file (the daemon configuration's state_file),
// pmie keeps in it when each rule's actions last ran (what their holdoff
// counts from) and the alerts firing, and takes them back when it
// starts: an action that ran within its holdoff before the restart stays
// held off, and the alerts firing are told to pmie-notify as already
// sent (tracked for Alertmanager, not sent again to programs and
// webhooks), as they are when pmie-notify itself is restarted. This is
// what replicas of a fleet's shard need: Alertmanager's cluster
// deduplicates what the replicas send it, but a replica that restarts
// and runs its actions again would page through any other receiver.
//
// (Keeping quiet for a while after starting, the other way to do it, is
// simpler but loses pages: an alert that starts meanwhile is never sent,
// and one still firing when the quiet ends is sent again.)

// stateEvery is how often the state file is written when something in it
// has changed.
const stateEvery = 2 * time.Second

// stateVersion is the state file's format.
const stateVersion = 1

// savedState is the state file's contents.
type savedState struct {
	Version int                  `json:"version"`
	Saved   time.Time            `json:"saved"`
	Actions map[string][]float64 `json:"actions,omitempty"` // rule key -> when its actions last ran
	Firing  []wire.Rule          `json:"firing,omitempty"`  // rules firing, with their alerts
}

// stateKeeper keeps the state file up to date.
type stateKeeper struct {
	path string
	log  func(rules.Level, string)

	mu      sync.Mutex
	times   map[string][]float64
	dirty   bool
	firing  func() ([]wire.Rule, int64) // the alerts firing, and a count of changes to them
	lastGen int64
	loaded  savedState

	stop chan struct{}
	done chan struct{}
}

// loadState reads the state file at path (missing: nothing to restore).
// A file that cannot be read or understood is said and left aside.
func loadState(path string, log func(rules.Level, string)) *stateKeeper {
	k := &stateKeeper{path: path, log: log, times: map[string][]float64{}}
	data, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err):
	case err != nil:
		log(rules.Error, fmt.Sprintf("state file %s: %v: starting afresh", path, err))
	default:
		var s savedState
		if err := json.Unmarshal(data, &s); err != nil || s.Version != stateVersion {
			log(rules.Error, fmt.Sprintf("state file %s is not one this pmie wrote (%v): starting afresh", path, err))
			break
		}
		k.loaded = s
	}
	return k
}

// restore gives the rules rs (not yet evaluating) the times their
// actions last ran before pmie stopped.
func (k *stateKeeper) restore(rs []*eval.Rule) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, r := range rs {
		if t, ok := k.loaded.Actions[r.Key]; ok {
			r.RestoreActionTimes(t)
			k.times[r.Key] = t
		}
	}
}

// firingOf are the rules that were firing when pmie stopped, of rs.
func (k *stateKeeper) firingOf(rs []*eval.Rule) []wire.Rule {
	keys := map[string]bool{}
	for _, r := range rs {
		keys[r.Key] = true
	}
	var out []wire.Rule
	for _, f := range k.loaded.Firing {
		if keys[f.Key] {
			out = append(out, f)
		}
	}
	return out
}

// observe has the engine configured by cfg note the times its rules'
// actions run (on the engine's goroutine, after each evaluation), and
// the rules reloads remove.
func (k *stateKeeper) observe(cfg *rules.Config) {
	removed := cfg.Removed
	cfg.Removed = func(rs []*eval.Rule, now float64) {
		if removed != nil {
			removed(rs, now)
		}
		k.forget(rs)
	}
	prev := cfg.Evaluated
	var buf []float64
	cfg.Evaluated = func(now float64, rs []*eval.Rule) {
		if prev != nil {
			prev(now, rs)
		}
		k.mu.Lock()
		defer k.mu.Unlock()
		for _, r := range rs {
			if !r.HasActions() {
				continue
			}
			buf = r.ActionTimes(buf[:0])
			if old := k.times[r.Key]; !slices.Equal(old, buf) && (old != nil || slices.ContainsFunc(buf, func(t float64) bool { return t != 0 })) {
				k.times[r.Key] = slices.Clone(buf)
				k.dirty = true
			}
		}
	}
}

// forget drops the rules rs (removed by a reload).
func (k *stateKeeper) forget(rs []*eval.Rule) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, r := range rs {
		if _, ok := k.times[r.Key]; ok {
			delete(k.times, r.Key)
			k.dirty = true
		}
	}
}

// start writes the state file every stateEvery while something in it
// changes, until stop. firing gives the alerts firing and a count of
// their changes (the helper's).
func (k *stateKeeper) start(firing func() ([]wire.Rule, int64)) {
	k.firing = firing
	k.stop, k.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(k.done)
		t := time.NewTicker(stateEvery)
		defer t.Stop()
		for {
			select {
			case <-k.stop:
				return
			case <-t.C:
				k.save(false)
			}
		}
	}()
}

// close writes the state file a last time.
func (k *stateKeeper) close() {
	if k.stop != nil {
		close(k.stop)
		<-k.done
	}
	k.save(true)
}

// save writes the state file if anything in it changed (or always).
func (k *stateKeeper) save(always bool) {
	var firing []wire.Rule
	var gen int64
	if k.firing != nil {
		firing, gen = k.firing()
	}
	k.mu.Lock()
	if !always && !k.dirty && gen == k.lastGen {
		k.mu.Unlock()
		return
	}
	s := savedState{Version: stateVersion, Saved: time.Now().UTC(), Actions: make(map[string][]float64, len(k.times)),
		Firing: firing}
	for key, t := range k.times {
		s.Actions[key] = t
	}
	k.dirty, k.lastGen = false, gen
	k.mu.Unlock()
	if err := writeAtomic(k.path, s); err != nil {
		k.log(rules.Error, fmt.Sprintf("cannot write the state file: %v", err))
	}
}

// writeAtomic writes v as JSON to path by renaming a new file over it,
// so a crash leaves the old state or the new, never half of one.
func writeAtomic(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// helperSet is the pmie-notify helpers started so far (a reload may start
// one), whose alerts firing the state file keeps.
type helperSet struct {
	mu sync.Mutex
	hs []*helper
}

func (s *helperSet) add(h *helper) {
	s.mu.Lock()
	s.hs = append(s.hs, h)
	s.mu.Unlock()
}

func (s *helperSet) all() []*helper {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.hs)
}

// firing is every helper's rules firing, and their changes summed.
func (s *helperSet) firing() ([]wire.Rule, int64) {
	var out []wire.Rule
	var n int64
	for _, h := range s.all() {
		rs, c := h.firingState()
		out = append(out, rs...)
		n += c
	}
	return out, n
}

// resume tells the latest helper of the rules of rs that were firing
// when pmie stopped.
func (s *helperSet) resume(k *stateKeeper, rs []*eval.Rule) {
	hs := s.all()
	if len(hs) == 0 {
		return
	}
	hs[len(hs)-1].resume(k.firingOf(rs))
}
