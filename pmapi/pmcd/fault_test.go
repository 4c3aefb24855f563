package pmcd_test

import (
	"encoding/binary"
	"errors"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/pmcdtest"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// clock is a settable time for the reconnection schedule.
type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock               { return &clock{time.Unix(1e9, 0)} }
func (c *clock) config() pmcd.Config { return pmcd.Config{Now: c.now, Backoff: backoff} }

var backoff = []time.Duration{5 * time.Second, 10 * time.Second}

func kinds(es []pmcd.Event) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Kind.String())
	}
	return out
}

// TestStopRestart stops the stand-in while a context uses it: the fetch
// that notices fails with PM_ERR_IPC and reports Lost; requests fail
// while pmcd is away, trying again on PCP's schedule; when it is back the
// context reconnects by itself, restores its profile and fetches again.
func TestStopRestart(t *testing.T) {
	s := pmcdtest.Start(t, pmcdtest.Sample("h"))
	clk := newClock()
	cfg := clk.config()
	var events []pmcd.Event
	cfg.Notify = func(e pmcd.Event) { events = append(events, e) }
	x := dial(t, s.Spec(), cfg)
	load := lookup(t, x, "kernel.all.load")
	x.DelProfile(pmapi.NewInDom(60, 2))
	x.AddProfile(pmapi.NewInDom(60, 2), 15)
	var r pmapi.Result
	if err := x.Fetch([]pmapi.PMID{load}, &r); err != nil || len(r.Sets[0].Values) != 1 {
		t.Fatalf("fetch: %v %+v", err, r)
	}

	s.Stop()
	err := x.Fetch([]pmapi.PMID{load}, &r)
	if pmapi.Code(err) != pmapi.ErrIPC || errors.Is(err, pmcd.ErrDown) || x.Connected() {
		t.Fatalf("fetch from a stopped pmcd: %v", err)
	}
	if len(events) != 1 || events[0].Kind != pmcd.Lost || pmapi.Code(events[0].Err) != pmapi.ErrIPC {
		t.Fatalf("events: %+v", events)
	}
	// The first retry is at once, and fails; then 5 s, then 10 s.
	if err := x.Fetch([]pmapi.PMID{load}, &r); pmapi.Code(err) != pmapi.Errno(-111) || errors.Is(err, pmcd.ErrDown) {
		t.Errorf("first retry: %v", err)
	}
	for _, step := range []struct {
		wait time.Duration
		down bool // no attempt due
	}{{4 * time.Second, true}, {time.Second, false}, {9 * time.Second, true}} {
		clk.add(step.wait)
		err := x.Fetch([]pmapi.PMID{load}, &r)
		if err == nil || errors.Is(err, pmcd.ErrDown) != step.down {
			t.Errorf("after %v more: %v", step.wait, err)
		}
	}
	if _, err := x.LookupDesc(load); !errors.Is(err, pmcd.ErrDown) {
		t.Errorf("desc while down: %v", err)
	}
	if err := x.Reconnect(); !errors.Is(err, pmcd.ErrDown) {
		t.Errorf("reconnect before its time: %v", err)
	}

	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	s.SetValues("kernel.all.load", []pmapi.Value{{Inst: 1, Atom: pmapi.F32(1)}, {Inst: 15, Atom: pmapi.F32(7)}})
	clk.add(time.Second)
	if err := x.Fetch([]pmapi.PMID{load}, &r); err != nil {
		t.Fatalf("after restart: %v", err)
	}
	if len(r.Sets[0].Values) != 1 || r.Sets[0].Values[0].Atom != pmapi.F32(7) {
		t.Errorf("profile not restored: %+v", r.Sets[0])
	}
	if got := kinds(events); len(got) != 2 || got[1] != "reconnected" || !x.Connected() {
		t.Errorf("events: %v", got)
	}
	// An explicit reconnection of a working context: a new connection,
	// no event.
	before, _ := s.Stats()
	if err := x.Reconnect(); err != nil {
		t.Fatal(err)
	}
	if after, _ := s.Stats(); after != before+1 || len(events) != 2 {
		t.Errorf("reconnect: %d -> %d connections, events %v", before, after, kinds(events))
	}
	if err := x.Fetch([]pmapi.PMID{load}, &r); err != nil || len(r.Sets[0].Values) != 1 {
		t.Errorf("after reconnect: %v %+v", err, r)
	}
}

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}

// TestReconnectNoLeak loses and regains the connection 100 times: the
// process must end with as many goroutines and file descriptors as it
// started with.
func TestReconnectNoLeak(t *testing.T) {
	s := pmcdtest.Start(t, pmcdtest.Sample("h"))
	clk := newClock()
	x := dial(t, s.Spec(), clk.config())
	load := lookup(t, x, "kernel.all.load")
	var r pmapi.Result
	if err := x.Fetch([]pmapi.PMID{load}, &r); err != nil {
		t.Fatal(err)
	}
	g0, fd0 := runtime.NumGoroutine(), openFDs(t)
	for i := range 100 {
		s.Stop()
		if err := x.Fetch([]pmapi.PMID{load}, &r); err == nil {
			t.Fatalf("round %d: fetch from a stopped pmcd worked", i)
		}
		if err := s.Restart(); err != nil {
			t.Fatal(err)
		}
		if err := x.Fetch([]pmapi.PMID{load}, &r); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
	}
	if accepted, _ := s.Stats(); accepted != 101 {
		t.Errorf("%d connections, want 101", accepted)
	}
	var g1, fd1 int
	for range 50 { // let exiting goroutines finish
		g1, fd1 = runtime.NumGoroutine(), openFDs(t)
		if g1 <= g0 && fd1 <= fd0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if g1 > g0 || fd1 > fd0 {
		t.Errorf("after 100 reconnects: goroutines %d -> %d, fds %d -> %d", g0, g1, fd0, fd1)
	}
}

// TestBadReplies makes the stand-in answer fetches with junk: every kind
// is an error with a PCP code, never a panic, the connection is dropped,
// and the next request reconnects and works.
func TestBadReplies(t *testing.T) {
	s := pmcdtest.Start(t, pmcdtest.Sample("h"))
	clk := newClock()
	var events []pmcd.Event
	x := dial(t, s.Spec(), pmcd.Config{Now: clk.now, Backoff: backoff, Timeout: 200 * time.Millisecond,
		Notify: func(e pmcd.Event) { events = append(events, e) }})
	load := lookup(t, x, "kernel.all.load")
	var r pmapi.Result
	if err := x.Fetch([]pmapi.PMID{load}, &r); err != nil {
		t.Fatal(err)
	}
	hdr := func(length, typ uint32) []byte {
		b := binary.BigEndian.AppendUint32(nil, length)
		return binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(b, typ), 0)
	}
	for _, c := range []struct {
		name  string
		fault pmcdtest.Fault
		code  pmapi.Errno
	}{
		{"text", func(uint32, []byte) ([]byte, bool) { return []byte("GET / HTTP/1.0\r\n\r\n"), false }, pmapi.ErrTooBig},
		{"garbage", func(uint32, []byte) ([]byte, bool) { return append(hdr(16, 0x12345678), "junk"...), false }, pmapi.ErrIPC},
		{"oversized", func(uint32, []byte) ([]byte, bool) { return hdr(1<<30, 0x7015), false }, pmapi.ErrTooBig},
		{"length below header", func(uint32, []byte) ([]byte, bool) { return hdr(4, 0x7015), false }, pmapi.ErrIPC},
		{"truncated then closed", func(_ uint32, p []byte) ([]byte, bool) { return p[:len(p)/2], true }, pmapi.ErrIPC},
		{"truncated header", func(_ uint32, p []byte) ([]byte, bool) { return p[:6], true }, pmapi.ErrIPC},
		{"truncated, no close", func(_ uint32, p []byte) ([]byte, bool) { return p[:len(p)-4], false }, pmapi.ErrTimeout},
		{"no reply", func(uint32, []byte) ([]byte, bool) { return nil, false }, pmapi.ErrTimeout},
		{"wrong type", func(uint32, []byte) ([]byte, bool) { return hdr(12, 0x7009), false }, pmapi.ErrIPC},
		{"closed", func(uint32, []byte) ([]byte, bool) { return []byte{}, true }, pmapi.ErrIPC},
		{"corrupt result", func(_ uint32, p []byte) ([]byte, bool) {
			q := append([]byte(nil), p...)
			binary.BigEndian.PutUint32(q[12:], 1<<30) // value set count
			return q, false
		}, pmapi.ErrIPC},
	} {
		t.Run(c.name, func(t *testing.T) {
			events = nil
			s.SetFault(c.fault)
			err := x.Fetch([]pmapi.PMID{load}, &r)
			if pmapi.Code(err) != c.code {
				t.Errorf("got %v (%d), want %v", err, pmapi.Code(err), c.code)
			}
			if x.Connected() {
				t.Error("still connected after a bad reply")
			}
			s.SetFault(nil)
			if err := x.Fetch([]pmapi.PMID{load}, &r); err != nil || len(r.Sets[0].Values) != 3 {
				t.Errorf("after recovery: %v %+v", err, r)
			}
			if got := kinds(events); !slices.Equal(got, []string{"lost", "reconnected"}) {
				t.Errorf("events %v", got)
			}
		})
	}
}

// TestLatency checks that the stand-in's delay is felt by the client and
// that the request timeout cuts it short.
func TestLatency(t *testing.T) {
	s := pmcdtest.Start(t, pmcdtest.Sample("h"))
	// The timeout is generous so that a loaded machine does not trip it
	// before the stand-in is made slow.
	x := dial(t, s.Spec(), pmcd.Config{Timeout: time.Second})
	load := lookup(t, x, "kernel.all.load")
	s.SetLatency(50 * time.Millisecond)
	var r pmapi.Result
	start := time.Now()
	if err := x.Fetch([]pmapi.PMID{load}, &r); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("fetch took %v despite 50ms latency", d)
	}
	s.SetLatency(5 * time.Second)
	if err := x.Fetch([]pmapi.PMID{load}, &r); pmapi.Code(err) != pmapi.ErrTimeout {
		t.Errorf("slow pmcd: %v", err)
	}
}

// BenchmarkFetch50SlowHosts fetches from 50 stand-in hosts at once, each
// answering after 300 ms, as the pmie engine does each cycle: one cycle
// should take little more than 300 ms, not 50 x 300 ms.
func BenchmarkFetch50SlowHosts(b *testing.B) {
	const hosts = 50
	ctxs := make([]*pmcd.Context, hosts)
	ids := make([]pmapi.PMID, hosts)
	for i := range ctxs {
		s := pmcdtest.Start(b, pmcdtest.Sample("h"))
		x, err := pmcd.Dial(s.Spec(), pmcd.Config{})
		if err != nil {
			b.Fatal(err)
		}
		defer x.Close()
		ctxs[i] = x
		if ids[i], err = x.LookupName("kernel.all.load"); err != nil {
			b.Fatal(err)
		}
		var r pmapi.Result
		if err := x.Fetch(ids[i:i+1], &r); err != nil { // learn the types
			b.Fatal(err)
		}
		s.SetLatency(300 * time.Millisecond)
	}
	results := make([]pmapi.Result, hosts)
	b.ResetTimer()
	for b.Loop() {
		var wg sync.WaitGroup
		for i, x := range ctxs {
			wg.Go(func() {
				if err := x.Fetch(ids[i:i+1], &results[i]); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
	}
}
