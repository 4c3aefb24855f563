package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	pmiedaemon "github.com/gopcp/pmie/daemon"
	"github.com/gopcp/pmie/daemon/wire"
	"github.com/gopcp/pmie/notify/alert"
)

// Alerting runs in pmie-notify (cmd/pmie-notify), a process pmie starts
// and supervises: routing conditions, the configuration reader and the
// HTTP client live there, so pmie stays within its memory budget (see
// rules/doc.go). pmie writes it one JSON message a line (package
// daemon/wire); if it dies, or stops answering pings, pmie starts it
// again and tells it the configuration and the alerts still firing.

// helperQueue is how many messages may wait for pmie-notify; past that
// the oldest are dropped (and counted) rather than holding up evaluation.
const helperQueue = 4096

// Supervision.
var (
	pingEvery   = 5 * time.Second  // how often pmie-notify is asked whether it is there
	pongTimeout = 30 * time.Second // silence after which it is stopped and started again
	restartMin  = time.Second      // first wait before starting it again, doubled each time
	restartMax  = time.Minute
	helperWait  = 2 * time.Minute // how long pmie waits at exit for it to send what it holds
)

// notifierPath finds pmie-notify: $PMIE_NOTIFY, else beside this
// program, else on $PATH.
func notifierPath() (string, error) {
	if p := os.Getenv("PMIE_NOTIFY"); p != "" {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "pmie-notify")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath("pmie-notify"); err == nil {
		return p, nil
	}
	return "", errors.New("--yaml-config needs the pmie-notify program, beside pmie or on $PATH (go install ./cmd/pmie-notify)")
}

// checkDaemonConfig has pmie-notify read and check the daemon
// configuration data (the contents of file), and returns its settings;
// the error is what pmie-notify says is wrong.
func checkDaemonConfig(file string, data []byte) (*wire.Settings, error) {
	prog, err := notifierPath()
	if err != nil {
		return nil, err
	}
	var out, errs bytes.Buffer
	cmd := exec.Command(prog, "-C", "-stdin", file)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(data), &out, &errs
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errs.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, fmt.Errorf("%s: %v", prog, err)
	}
	var s wire.Settings
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		return nil, fmt.Errorf("%s -C: %v", prog, err)
	}
	return &s, nil
}

// helper is a supervised pmie-notify: the daemon package's Alerter.
type helper struct {
	prog   string
	replay bool
	listen string // --web.listen-address
	log    func(string)
	info   func(string)
	host   atomic.Pointer[pmiedaemon.Daemon] // answers pmie-notify's questions

	mu       sync.Mutex
	file     string
	yaml     []byte                // the configuration in force
	firing   map[string]*wire.Rule // rules true that fired, by key: told again to a new pmie-notify
	firingN  int64                 // changes to firing (rules in or out), for the state file
	queue    [][]byte              // messages waiting
	dropped  int64
	wake     chan struct{}
	closing  bool
	stats    map[string]wire.ReceiverStats
	lastPong time.Time
	seq      int64
	proc     *os.Process
	done     chan struct{} // the supervisor has finished
}

// startHelper starts pmie-notify on the configuration file (contents
// yaml; none for an HTTP endpoint alone, at listen) and supervises it.
func startHelper(file string, yaml []byte, replay bool, listen string, log, info func(string)) (*helper, error) {
	prog, err := notifierPath()
	if err != nil {
		return nil, err
	}
	h := &helper{prog: prog, replay: replay, listen: listen, log: log, info: info, file: file, yaml: yaml, firing: map[string]*wire.Rule{},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go h.supervise()
	return h, nil
}

// enqueue queues a message, dropping the oldest beyond helperQueue.
func (h *helper) enqueue(m *wire.Message) {
	b, err := json.Marshal(m)
	if err != nil {
		h.log(fmt.Sprintf("alerting: %v", err))
		return
	}
	b = append(b, '\n')
	h.mu.Lock()
	if h.closing {
		h.mu.Unlock()
		return
	}
	if len(h.queue) >= helperQueue {
		h.queue = h.queue[1:]
		h.dropped++
		if alert.IsPowerOf10(h.dropped) {
			h.log(fmt.Sprintf("alerting: pmie-notify is not keeping up, message dropped (%d dropped so far)", h.dropped))
		}
	}
	h.queue = append(h.queue, b)
	h.mu.Unlock()
	h.poke()
}

func (h *helper) poke() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// Evaluated sends an evaluation, remembering the rules that fired while
// true, to tell a restarted pmie-notify.
func (h *helper) Evaluated(t time.Time, rules []wire.Rule) {
	h.mu.Lock()
	for i := range rules {
		r := &rules[i]
		switch {
		case r.Truth == wire.False:
			if h.firing[r.Key] != nil {
				delete(h.firing, r.Key)
				h.firingN++
			}
		case r.Truth == wire.True && len(r.Fired) > 0:
			c := *r
			h.firing[r.Key] = &c
			h.firingN++
		case r.Truth == wire.True && h.firing[r.Key] != nil:
			h.firing[r.Key].Bindings = r.Bindings
		}
	}
	h.mu.Unlock()
	h.enqueue(&wire.Message{Type: "eval", Time: t, Rules: rules})
}

// Removed sends the rules a reload removed.
func (h *helper) Removed(keys []string, t time.Time) {
	h.mu.Lock()
	for _, k := range keys {
		delete(h.firing, k)
	}
	h.firingN++
	h.mu.Unlock()
	h.enqueue(&wire.Message{Type: "removed", Time: t, Keys: keys})
}

// firingState gives the rules firing, and a count of the changes to
// them, for the state file.
func (h *helper) firingState() ([]wire.Rule, int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]wire.Rule, 0, len(h.firing))
	for _, r := range h.firing {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, h.firingN
}

// resume tells pmie-notify of rules that were firing when pmie last
// stopped (from the state file): their alerts were sent then, and are
// tracked again, not sent again.
func (h *helper) resume(rs []wire.Rule) {
	if len(rs) == 0 {
		return
	}
	h.mu.Lock()
	for i := range rs {
		c := rs[i]
		h.firing[c.Key] = &c
	}
	h.mu.Unlock()
	h.enqueue(&wire.Message{Type: "resume", Time: time.Now(), Rules: rs})
}

// Configure sends a new configuration.
func (h *helper) Configure(s *wire.Settings, yaml []byte) {
	h.mu.Lock()
	h.file, h.yaml = s.File, yaml
	h.mu.Unlock()
	h.enqueue(&wire.Message{Type: "config", File: s.File, YAML: yaml})
}

// Stats gives the receivers' counts pmie-notify last sent.
func (h *helper) Stats() map[string]wire.ReceiverStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stats
}

// Close ends pmie-notify's input and waits for it to send what it holds
// (it says itself what it could not send).
func (h *helper) Close(context.Context) error {
	h.mu.Lock()
	h.closing = true
	h.mu.Unlock()
	h.poke()
	select {
	case <-h.done:
	case <-time.After(helperWait):
		h.mu.Lock()
		if h.proc != nil {
			h.proc.Kill()
		}
		h.mu.Unlock()
		h.log("alerting: pmie-notify did not finish sending in time, stopped")
		<-h.done
	}
	return nil
}

// supervise runs pmie-notify, starting it again (after a wait that
// doubles each time, up to restartMax) when it dies or hangs, until
// Close.
func (h *helper) supervise() {
	defer close(h.done)
	wait := restartMin
	for first := true; ; first = false {
		started := time.Now()
		err := h.runOnce(!first)
		h.mu.Lock()
		closing := h.closing
		h.mu.Unlock()
		if closing {
			// a status of its own it has explained in its messages
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				h.log(fmt.Sprintf("alerting: pmie-notify: %v", err))
			}
			return
		}
		if time.Since(started) > restartMax {
			wait = restartMin
		}
		h.log(fmt.Sprintf("alerting: pmie-notify stopped (%v); starting it again in %v", err, wait))
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-h.wake:
			t.Stop()
			h.mu.Lock()
			closing := h.closing
			h.mu.Unlock()
			if closing {
				return
			}
			<-t.C
		}
		wait = min(2*wait, restartMax)
	}
}

// runOnce runs pmie-notify until it exits, feeding it the queue. A
// restarted one is first told the configuration and the rules firing.
func (h *helper) runOnce(restart bool) error {
	args := []string{}
	if h.replay {
		args = append(args, "-replay")
	}
	if h.listen != "" {
		args = append(args, "-listen", h.listen)
	}
	h.mu.Lock()
	file, yaml := h.file, h.yaml
	var resume []wire.Rule
	if restart {
		for _, r := range h.firing {
			resume = append(resume, *r)
		}
		if n := len(h.queue); n > 0 {
			h.dropped += int64(n)
			h.log(fmt.Sprintf("alerting: %d messages for the pmie-notify that stopped were dropped", n))
		}
		h.queue = nil
	}
	h.mu.Unlock()
	if file != "" {
		args = append(args, file)
	}
	cmd := exec.Command(h.prog, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a ^C at pmie's terminal is for pmie
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	msgs, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	h.mu.Lock()
	h.proc, h.lastPong = cmd.Process, time.Now()
	h.mu.Unlock()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); h.relay(msgs) }()
	go func() { defer wg.Done(); h.answers(out) }()
	w := bufio.NewWriter(in)
	if restart && file != "" {
		writeMsg(w, &wire.Message{Type: "config", File: file, YAML: yaml})
		if len(resume) > 0 {
			writeMsg(w, &wire.Message{Type: "resume", Time: time.Now(), Rules: resume})
		}
	}
	exited := make(chan error, 1)
	go func() {
		wg.Wait()
		exited <- cmd.Wait()
	}()
	err = h.feed(w, in, exited, cmd.Process)
	h.mu.Lock()
	h.proc = nil
	h.mu.Unlock()
	return err
}

// writeMsg writes one message.
func writeMsg(w *bufio.Writer, m *wire.Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	w.Write(append(b, '\n'))
	return w.Flush()
}

// feed writes the queue to pmie-notify's input and pings it, until it
// exits (its error is returned) or pmie closes (its input is ended and
// it is waited for). One that stops answering is killed.
func (h *helper) feed(w *bufio.Writer, in io.WriteCloser, exited <-chan error, proc *os.Process) error {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		h.mu.Lock()
		batch := h.queue
		h.queue = nil
		closing := h.closing
		silent := time.Since(h.lastPong)
		h.mu.Unlock()
		for _, b := range batch {
			if _, err := w.Write(b); err != nil {
				break
			}
		}
		w.Flush()
		if closing {
			in.Close()
			return <-exited
		}
		if silent > pongTimeout {
			h.log(fmt.Sprintf("alerting: pmie-notify has not answered for %v: stopping it", silent.Round(time.Second)))
			proc.Kill()
			in.Close()
			return fmt.Errorf("not answering: %v", <-exited)
		}
		select {
		case err := <-exited:
			in.Close()
			return err
		case <-h.wake:
		case <-ping.C:
			h.mu.Lock()
			h.seq++
			seq := h.seq
			h.mu.Unlock()
			writeMsg(w, &wire.Message{Type: "ping", Seq: seq})
		}
	}
}

// answers reads pmie-notify's messages: receivers' counts, pongs.
func (h *helper) answers(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var m wire.Message
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		h.mu.Lock()
		switch m.Type {
		case "pong":
			h.lastPong = time.Now()
		case "stats":
			h.stats = m.Receivers
		}
		h.mu.Unlock()
		d := h.host.Load()
		switch {
		case d == nil:
		case m.Type == "want":
			h.enqueue(&wire.Message{Type: "snapshot", Seq: m.Seq, Snapshot: d.Snapshot(true)})
		case m.Type == "reload":
			go func(seq int64, reason string) {
				a := &wire.Message{Type: "reloaded", Seq: seq}
				if err := d.Reload(reason); err != nil {
					a.Error = err.Error()
				}
				h.enqueue(a)
			}(m.Seq, m.Reason)
		}
	}
}

// relay logs what pmie-notify says.
func (h *helper) relay(msgs io.Reader) {
	sc := bufio.NewScanner(msgs)
	for sc.Scan() {
		if msg, ok := strings.CutPrefix(sc.Text(), "info: "); ok {
			h.info(msg)
			continue
		}
		h.log(sc.Text())
	}
}
