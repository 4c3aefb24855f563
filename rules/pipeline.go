package rules

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/pmapi"
)

// Archive evaluation is pipelined: the archive's clock fixes every
// evaluation's time and fetches in advance, so a fetcher goroutine runs
// the fetches for the evaluations ahead while the engine evaluates and
// prints earlier ones. The tasks' contexts are used only by the fetcher.
// Results travel to the engine in batches of steps, which it hands back
// once it has evaluated and printed them, so that neither side waits for
// the other at every evaluation (waking a waiting goroutine costs about
// as much as a small evaluation). On one processor the fetcher runs while
// the engine waits for a batch; given two (cmd/pmie asks for them in
// archive mode), fetching and evaluating overlap.

// pipelineShape is how many evaluations a batch holds and how many
// batches go round, for a process on procs processors. On one, few: a
// hand-over is only a switch of goroutines, and every step in flight
// holds a result of its own (benchmark, 21 interleaved runs: 8 steps 154
// ms of CPU and 12.2 MB, 2 steps 148 ms and 11.7 MB). On two, the fetcher
// must be able to run well ahead, or each side's jitter stalls the other:
// benchmark wall time (30 runs each, 2 processors) with 2 batches of 4, 8
// and 16 steps 73, 58 and 49 ms; with 4 batches 41-42 ms for all three,
// with 8 no better; 8 steps a batch wakes the other side least.
func pipelineShape(procs int) (steps, batches int) {
	if procs < 2 {
		return 2, 2
	}
	return 8, 4
}

// step is one evaluation of a task in archive mode, with what its fetches
// brought.
type step struct {
	t     *task
	now   float64
	hosts []fetched // one for each of t.hosts
	err   error     // a fetch failed for good: evaluation stops here
}

// fetched is one host's fetch for a step.
type fetched struct {
	result pmapi.Result
	cols   []eval.Columns // of result's value sets, made by the fetcher
	err    error
}

// batch is consecutive steps, in evaluation order.
type batch struct {
	steps []step
}

// pipeline is the fetcher of an archive evaluation.
type pipeline struct {
	ready chan *batch   // fetched, in evaluation order
	free  chan *batch   // evaluated, for the fetcher to fill again
	quit  chan struct{} // the engine has stopped
	wg    sync.WaitGroup
	clock func() time.Time // times the fetches counted (hostFetch.counts)
	order []*task          // the tasks in order of their next evaluation, at the end
}

// startPipeline starts fetching the evaluations of the tasks, from start
// to stop on each task's schedule, in the order runArchive evaluates them.
func startPipeline(tasks []*task, start, stop float64, clock func() time.Time) *pipeline {
	steps, batches := pipelineShape(runtime.GOMAXPROCS(0))
	p := &pipeline{ready: make(chan *batch, batches), free: make(chan *batch, batches), quit: make(chan struct{}), clock: clock}
	for range batches {
		p.free <- &batch{steps: make([]step, 0, steps)}
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer close(p.ready)
		p.run(tasks, start, stop)
	}()
	return p
}

// run fetches for each evaluation in turn until stop, a fatal error, or
// the engine stopping.
func (p *pipeline) run(tasks []*task, start, stop float64) {
	q := make([]*task, 0, len(tasks))
	for _, t := range tasks {
		t.when, t.epoch, t.tick = start, start, 0
		q = append(q, t)
	}
	defer func() { p.order = q }()
	for len(q) > 0 && q[0].when <= stop {
		var b *batch
		select {
		case b = <-p.free:
		case <-p.quit:
			return
		}
		b.steps = b.steps[:0]
		failed := false
		for len(b.steps) < cap(b.steps) && len(q) > 0 && q[0].when <= stop && !failed {
			t := q[0]
			s := b.next(t)
			failed = p.fetchArchive(t, s) != nil
			t.tick++
			t.when = t.epoch + float64(t.tick)*t.delta
			requeue(q)
		}
		select {
		case p.ready <- b:
		case <-p.quit:
			return
		}
		if failed {
			return
		}
	}
}

// next adds a step for t's evaluation due now to b, reusing the storage
// of the step that was there before.
func (b *batch) next(t *task) *step {
	b.steps = b.steps[:len(b.steps)+1]
	s := &b.steps[len(b.steps)-1]
	s.t, s.now, s.err = t, t.when, nil
	for len(s.hosts) < len(t.hosts) {
		s.hosts = append(s.hosts[:cap(s.hosts)], fetched{})
	}
	s.hosts = s.hosts[:len(t.hosts)]
	return s
}

// fetchArchive runs a task's fetches from its archives into s. Only a
// fetch failing on a bad record is fatal: it is also s.err.
func (p *pipeline) fetchArchive(t *task, s *step) error {
	for i, h := range t.hosts {
		f := &s.hosts[i]
		if h.ctx == nil || len(h.ids) == 0 {
			f.result.Reset()
			f.err = pmapi.ErrNoData
			continue
		}
		h.profile()
		if h.counts != nil {
			start := p.clock()
			f.err = h.ctx.Fetch(h.ids, &f.result)
			h.counts.fetched(p.clock().Sub(start), f.err)
		} else {
			f.err = h.ctx.Fetch(h.ids, &f.result)
		}
		if pmapi.Code(f.err) == pmapi.ErrLogRec {
			// pmie's words; the command says PCP's words for the
			// damage, and then where in the archive it is, if known
			s.err = fmt.Errorf("pmFetch failed: %w", f.err)
			return s.err
		}
		if f.err == nil {
			h.limit(&f.result)
			f.columns(&h.seen)
		}
	}
	return nil
}

// columns sorts f's value sets by instance, as sortResult does, and
// makes their columns, which the evaluation reads in place of the values
// (eval.Columns): a third of the memory that this goroutine, on another
// processor, wrote last. seen numbers their instances, and says when they
// are those of the set's last fetch: then they are in order (they were
// sorted then), and the columns hold them already if they were made of
// the same instances before, so that only the numbers are written.
func (f *fetched) columns(seen *instSeen) {
	sets := f.result.Sets
	for len(f.cols) < len(sets) {
		f.cols = append(f.cols[:cap(f.cols)], eval.Columns{})
	}
	f.cols = f.cols[:len(sets)]
	for i := range sets {
		c, vs := &f.cols[i], &sets[i]
		ver, same := seen.same(i, vs.PMID, vs.Values)
		switch {
		case !same:
			sortByInst(vs.Values)
			c.Fill(vs)
			c.Ver = seen.note(i, vs.PMID, c.Insts)
		case c.Ver == ver && len(c.Insts) == len(vs.Values):
			c.FillNums(vs)
		default:
			c.Fill(vs)
			c.Ver = ver
		}
	}
}

// instSeen is what a host's fetcher last delivered of each value set's
// instances, to give columns of the same instances the same
// eval.Columns.Ver: then the evaluation, on the other processor, need
// not read them to see that they did not change. That comparison, of
// each metric's instances at each evaluation, was 1.75% of the
// benchmark's CPU time (perf), most of it waiting for the memory that
// the fetcher had written; without it the wall time is some 3% less (61
// interleaved runs).
type instSeen struct {
	sets []seenSet
}

type seenSet struct {
	pmid  pmapi.PMID
	ver   uint64
	insts []int32 // a copy: the columns they came from are filled again
}

// instVersions numbers the instance sets of every fetcher.
var instVersions atomic.Uint64

// same reports whether value set i, of metric id, has the instances of
// its last fetch, in their order, and returns their version if so.
func (s *instSeen) same(i int, id pmapi.PMID, vals []pmapi.Value) (uint64, bool) {
	if i >= len(s.sets) {
		return 0, false
	}
	p := &s.sets[i]
	if p.ver == 0 || p.pmid != id || len(p.insts) != len(vals) {
		return 0, false
	}
	for k, in := range p.insts {
		if vals[k].Inst != in {
			return 0, false
		}
	}
	return p.ver, true
}

// note records the instances of value set i, of metric id, sorted, and
// returns their version: a new one unless they are those of the set's
// last fetch (which came in another order).
func (s *instSeen) note(i int, id pmapi.PMID, insts []int32) uint64 {
	for len(s.sets) <= i {
		s.sets = append(s.sets, seenSet{})
	}
	p := &s.sets[i]
	if p.ver == 0 || p.pmid != id || !slices.Equal(p.insts, insts) {
		p.pmid, p.ver = id, instVersions.Add(1)
		p.insts = append(p.insts[:0], insts...)
	}
	return p.ver
}

// done hands a batch back to the fetcher.
func (p *pipeline) done(b *batch) {
	p.free <- b
}

// stop ends the fetcher and waits for it, so that the contexts it uses
// can be closed.
func (p *pipeline) stop() {
	close(p.quit)
	p.wg.Wait()
}
