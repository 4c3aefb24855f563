package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gopcp/pmie/actions"
	"github.com/gopcp/pmie/notify/alert"
)

// --route-alerts hands every fired action to a pmie-notify process
// (cmd/pmie-notify), which routes and sends it. Routing conditions, the
// configuration reader and the HTTP client live there, so pmie itself
// stays as small as it is without alerting.

// alertQueue is how many alerts may wait for pmie-notify to read them;
// past that the newest are dropped (and counted) rather than holding up
// evaluation.
const alertQueue = 1024

// notifierWait bounds how long pmie waits at exit for pmie-notify to send
// what it holds (it has its own shutdown_timeout, 5 s by default).
const notifierWait = 2 * time.Minute

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
	return "", errors.New("--route-alerts needs the pmie-notify program, beside pmie or on $PATH (go install ./cmd/pmie-notify)")
}

// checkAlerts has pmie-notify check the alerting configuration file; the
// error is what pmie-notify says is wrong.
func checkAlerts(file string) error {
	prog, err := notifierPath()
	if err != nil {
		return err
	}
	var errs bytes.Buffer
	cmd := exec.Command(prog, "-C", file)
	cmd.Stderr = &errs
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errs.String()); msg != "" {
			return errors.New(msg)
		}
		return fmt.Errorf("%s: %v", prog, err)
	}
	return nil
}

// notifier is a running pmie-notify and the queue of alerts for it.
type notifier struct {
	cmd     *exec.Cmd
	queue   chan []byte
	log     func(string)
	wg      sync.WaitGroup // the writer and the reader of its messages
	mu      sync.Mutex
	closed  bool
	dropped int64
}

// startNotifier starts pmie-notify on the configuration file; its
// messages are given to log, a line at a time.
func startNotifier(file string, log func(string)) (*notifier, error) {
	prog, err := notifierPath()
	if err != nil {
		return nil, err
	}
	n := &notifier{cmd: exec.Command(prog, file), queue: make(chan []byte, alertQueue), log: log}
	in, err := n.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	msgs, err := n.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := n.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %v", prog, err)
	}
	n.wg.Add(2)
	go n.write(in)
	go n.relay(msgs)
	return n, nil
}

// write hands the queued alerts to pmie-notify, and ends its input when
// the queue is closed.
func (n *notifier) write(in io.WriteCloser) {
	defer n.wg.Done()
	w := bufio.NewWriter(in)
	failed := false
	for b := range n.queue {
		if failed {
			continue
		}
		_, err := w.Write(b)
		if err == nil && len(n.queue) == 0 {
			err = w.Flush()
		}
		if err != nil {
			n.log(fmt.Sprintf("alerting: pmie-notify: %v", err))
			failed = true
		}
	}
	w.Flush()
	in.Close()
}

// relay logs what pmie-notify says.
func (n *notifier) relay(msgs io.Reader) {
	defer n.wg.Done()
	sc := bufio.NewScanner(msgs)
	for sc.Scan() {
		n.log(sc.Text())
	}
}

// notify queues the alert for ev. It never waits: the evaluator calls it
// as the rule fires (which is also why the bindings are worked out here,
// while the rule's values are current).
func (n *notifier) notify(ev *actions.Event) {
	b, err := json.Marshal(alert.FromEvent(ev, nil))
	if err != nil {
		n.log(fmt.Sprintf("alerting: rule %s: %v", ev.Rule, err))
		return
	}
	b = append(b, '\n')
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	select {
	case n.queue <- b:
	default:
		n.dropped++
		if alert.IsPowerOf10(n.dropped) {
			n.log(fmt.Sprintf("alerting: pmie-notify is not keeping up, alert dropped (%d dropped so far)", n.dropped))
		}
	}
}

// close ends pmie-notify's input and waits for it to send what it holds.
func (n *notifier) close() {
	n.mu.Lock()
	n.closed = true
	close(n.queue)
	n.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		n.wg.Wait()
		done <- n.cmd.Wait()
	}()
	select {
	case err := <-done:
		// a status of its own it has explained in its messages
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			n.log(fmt.Sprintf("alerting: pmie-notify: %v", err))
		}
	case <-time.After(notifierWait):
		n.cmd.Process.Kill()
		n.log("alerting: pmie-notify did not finish sending in time, stopped")
	}
}
