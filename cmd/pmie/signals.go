package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gopcp/pmie/internal/hugeheap"
	"github.com/gopcp/pmie/internal/waker"
)

// signals is pmie's handling of SIGINT, SIGTERM and SIGHUP.
//
// Before evaluation starts (while rules are read and hosts connected),
// SIGINT or SIGTERM ends pmie at once: "Interrupted! signal=N" on standard
// error, status 1. Once live evaluation runs, either ends it quietly at its
// next wait between evaluations, with status 0 for SIGTERM and the signal
// number for SIGINT (no "evaluator exiting"); archives are evaluated to the
// end regardless, as pmie only looks for the signal while it sleeps. After
// the first, both signals are ignored.
//
// SIGHUP is ignored, except by a daemon with a log file (-l without -f,
// live), which rotates its log at its next wait.
//
// A nil *signals handles nothing: tests run pmie without it.
type signals struct {
	stop <-chan os.Signal // SIGINT and SIGTERM
	hup  chan os.Signal   // SIGHUP, once rotation is wanted
	exit func(code int)   // ends the process

	mu     sync.Mutex
	phase  phase
	stderr io.Writer // where "Interrupted!" goes
	atExit func()    // ends the log before an early exit
	cancel context.CancelFunc
	caught os.Signal // the first SIGINT or SIGTERM
	quit   os.Signal // the signal that ended live evaluation
	rotate func()    // rotates the log on SIGHUP

	// sleeper is the live engine's wait between evaluations (see
	// sleep), made when first needed (pmie reading archives never
	// sleeps, and would pay for a timer descriptor and the runtime's
	// poller); hups counts SIGHUPs not yet acted on.
	sleeper     *sleeper
	sleeperOnce sync.Once
	hups        atomic.Int32
	hupOnce     sync.Once
}

// theSleeper is s.sleeper, made the first time.
func (s *signals) theSleeper() *sleeper {
	s.sleeperOnce.Do(func() { s.sleeper = newSleeper() })
	return s.sleeper
}

// phase is how far pmie has got, for its signal handling.
type phase int

const (
	phaseSetUp   phase = iota // reading rules, connecting
	phaseLive                 // evaluating live sources
	phaseArchive              // evaluating archives
)

// catchSignals starts pmie's signal handling for the process.
func catchSignals() *signals {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	s := newSignals(stop, os.Exit)
	s.stderr = os.Stderr
	go s.watch()
	return s
}

// newSignals handles the signals arriving on stop; exit ends the process.
func newSignals(stop <-chan os.Signal, exit func(int)) *signals {
	return &signals{stop: stop, exit: exit, hup: make(chan os.Signal, 1), stderr: io.Discard}
}

// watch acts on SIGINT and SIGTERM as they come.
func (s *signals) watch() {
	for sig := range s.stop {
		s.interrupt(sig)
	}
}

// interrupt acts on one SIGINT or SIGTERM.
func (s *signals) interrupt(sig os.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.caught != nil {
		return
	}
	s.caught = sig
	switch s.phase {
	case phaseSetUp:
		fmt.Fprintf(s.stderr, "\nInterrupted! signal=%d\n", signalNumber(sig))
		if s.atExit != nil {
			s.atExit()
		}
		s.exit(1)
	case phaseLive:
		s.quit = sig
		if s.cancel != nil {
			s.cancel()
		}
	}
}

// signalNumber is sig's number.
func signalNumber(sig os.Signal) int {
	if n, ok := sig.(syscall.Signal); ok {
		return int(n)
	}
	return 0
}

// setUp says where an early interrupt is reported, what ends the log
// first, and how live evaluation is stopped.
func (s *signals) setUp(stderr io.Writer, atExit func(), cancel context.CancelFunc) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.stderr, s.atExit, s.cancel = stderr, atExit, cancel
	s.mu.Unlock()
}

// hangups sets what SIGHUP does: rotate the log (rotate non-nil) or
// nothing.
func (s *signals) hangups(rotate func()) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.rotate = rotate
	s.mu.Unlock()
	if rotate == nil {
		signal.Ignore(syscall.SIGHUP)
		return
	}
	signal.Notify(s.hup, syscall.SIGHUP)
	s.hupOnce.Do(func() {
		go func() {
			for range s.hup {
				s.hups.Add(1)
				s.theSleeper().w.Wake()
			}
		}()
	})
}

// enter records that evaluation has started, reporting whether it had
// not yet.
func (s *signals) enter(p phase) (first bool) {
	if s == nil {
		return false
	}
	s.mu.Lock()
	first = s.phase != p
	s.phase = p
	s.mu.Unlock()
	return first
}

// stopped reports the signal that ended live evaluation, if one did.
func (s *signals) stopped() (os.Signal, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.quit, s.quit != nil
}

// exitStatus is pmie's status after sig ended live evaluation: 0 for
// SIGTERM, otherwise the signal's number.
func exitStatus(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return 0
	}
	return signalNumber(sig)
}

// sleep waits for the wall clock to reach t, or for ctx to be done; it
// is the live engine's wait between evaluations, so the first call marks
// the start of live evaluation. A SIGHUP meanwhile rotates the log. It
// waits on a waker.Waker (a timer descriptor, where the runtime's timers
// would wake its monitor thread at every evaluation), woken when ctx is
// done or a SIGHUP comes.
func (s *signals) sleep(ctx context.Context, t time.Time) error {
	var sl *sleeper
	if s != nil {
		if s.enter(phaseLive) {
			// Start-up (rules compiled, hosts connected) is over: what
			// it left is collected and given back to the system now,
			// rather than by the runtime's background scavenger a
			// little at every wake-up over the first minutes (1% of a
			// live pmie's CPU). Huge pages served the start-up; a
			// process that runs for long keeps its heap in small ones,
			// and holding little, trades a little CPU for a smaller
			// footprint (collecting at 1.5 times the heap last marked,
			// not the 3 times of start-up: see main).
			hugeheap.Stop()
			if os.Getenv("GOGC") == "" {
				debug.SetGCPercent(50)
			}
			debug.FreeOSMemory()
		}
		sl = s.theSleeper()
	} else {
		sl = newSleeper()
		defer sl.close()
	}
	return s.sleepOn(ctx, sl, t)
}

// sleeper is a live engine's wait between evaluations: a waker.Waker,
// which the end of the context the engine sleeps under wakes. That is
// registered once for each context (the engine sleeps under one until a
// reload ends it), not at every wait: a registration allocates. A
// sleeper is for one engine's goroutine.
type sleeper struct {
	w    *waker.Waker
	ctx  context.Context // the context whose end wakes w
	stop func() bool     // ends that
}

func newSleeper() *sleeper { return &sleeper{w: waker.New()} }

// under has the end of ctx wake the sleeper's waits.
func (sl *sleeper) under(ctx context.Context) {
	if ctx == sl.ctx {
		return
	}
	if sl.stop != nil {
		sl.stop()
	}
	sl.ctx, sl.stop = ctx, context.AfterFunc(ctx, sl.w.Wake)
}

// close releases the sleeper's waker.
func (sl *sleeper) close() {
	if sl.stop != nil {
		sl.stop()
	}
	sl.w.Close()
}

// sleepOn is sleep's wait, on sl.
func (s *signals) sleepOn(ctx context.Context, sl *sleeper, t time.Time) error {
	if time.Until(t) <= 0 {
		return ctx.Err()
	}
	sl.under(ctx)
	for sl.w.Wait(t) {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.hungUp()
	}
	return nil
}

// hungUp rotates the log if SIGHUPs have come since it last did.
func (s *signals) hungUp() {
	if s == nil || s.hups.Swap(0) == 0 {
		return
	}
	s.mu.Lock()
	rotate := s.rotate
	s.mu.Unlock()
	if rotate != nil {
		rotate()
	}
}
