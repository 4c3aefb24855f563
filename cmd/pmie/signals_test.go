package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the tests run this test binary as pmie itself, to send it
// real signals.
func TestMain(m *testing.M) {
	if os.Getenv("PMIE_TEST_RUN_AS_PMIE") == "1" {
		main()
		return
	}
	code := m.Run()
	if builtNotifier.path != "" {
		os.RemoveAll(filepath.Dir(builtNotifier.path))
	}
	os.Exit(code)
}

// TestInterruptPhases checks what SIGINT and SIGTERM do at each stage.
func TestInterruptPhases(t *testing.T) {
	t.Run("setup", func(t *testing.T) {
		code := -1
		s := newSignals(nil, func(c int) { code = c })
		var errs bytes.Buffer
		closed := false
		s.setUp(&errs, func() { closed = true }, nil)
		s.interrupt(syscall.SIGTERM)
		if code != 1 || errs.String() != "\nInterrupted! signal=15\n" || !closed {
			t.Errorf("exit %d, log closed %v, messages %q", code, closed, errs.String())
		}
	})
	t.Run("live", func(t *testing.T) {
		s := newSignals(nil, func(c int) { t.Errorf("exit(%d) while evaluating", c) })
		ctx, cancel := context.WithCancel(context.Background())
		s.setUp(io.Discard, nil, cancel)
		if err := s.sleep(ctx, time.Now()); err != nil {
			t.Fatal(err)
		}
		s.interrupt(syscall.SIGINT)
		s.interrupt(syscall.SIGTERM) // ignored, as the first one counts
		if ctx.Err() == nil {
			t.Error("evaluation not stopped")
		}
		sig, ok := s.stopped()
		if !ok || exitStatus(sig) != 2 {
			t.Errorf("stopped by %v (%v), status %d; want SIGINT, 2", sig, ok, exitStatus(sig))
		}
		if err := s.sleep(ctx, time.Now().Add(time.Hour)); err == nil {
			t.Error("sleep not cut short")
		}
	})
	t.Run("archive", func(t *testing.T) {
		s := newSignals(nil, func(c int) { t.Errorf("exit(%d) while evaluating", c) })
		ctx, cancel := context.WithCancel(context.Background())
		s.setUp(io.Discard, nil, cancel)
		s.enter(phaseArchive)
		s.interrupt(syscall.SIGTERM)
		if _, ok := s.stopped(); ok || ctx.Err() != nil {
			t.Error("archive evaluation stopped")
		}
	})
	if exitStatus(syscall.SIGTERM) != 0 {
		t.Error("SIGTERM status not 0")
	}
}

// pmieProcess is this test binary running as pmie.
type pmieProcess struct {
	cmd    *exec.Cmd
	lines  chan string // standard output, line by line
	stderr bytes.Buffer
	stdin  io.WriteCloser

	mu  sync.Mutex
	all []string    // every line of standard output
	at  []time.Time // when each line came
}

// startPmie runs pmie with args in dir, its standard input a pipe.
func startPmie(t *testing.T, dir string, args ...string) *pmieProcess {
	t.Helper()
	p := &pmieProcess{cmd: exec.Command(os.Args[0], args...), lines: make(chan string, 1000)}
	p.cmd.Dir = dir
	// the stats and PID files of a daemon go to the test's own dirs
	p.cmd.Env = append(os.Environ(), "PMIE_TEST_RUN_AS_PMIE=1",
		"PCP_TMP_DIR="+t.TempDir(), "PCP_RUN_DIR="+t.TempDir())
	p.cmd.Stderr = &p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill() })
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.mu.Lock()
			p.all = append(p.all, sc.Text())
			p.at = append(p.at, time.Now())
			p.mu.Unlock()
			select {
			case p.lines <- sc.Text():
			default: // nobody is waiting for more
			}
		}
		close(p.lines)
	}()
	return p
}

// waitLine waits for a line of output starting with prefix.
func (p *pmieProcess) waitLine(t *testing.T, prefix string) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("no %q before pmie ended", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return
			}
		case <-timeout:
			t.Fatalf("no %q in 20 s", prefix)
		}
	}
}

// wait waits for pmie to end and returns its exit status.
func (p *pmieProcess) wait(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &ee) && ee.Exited():
			return ee.ExitCode()
		default:
			t.Fatalf("pmie: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("pmie did not end")
	}
	return -1
}

// waitFile waits for file name to contain want.
func waitFile(t *testing.T, name, want string) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(name); err == nil && strings.Contains(string(b), want) {
			return string(b)
		}
	}
	b, _ := os.ReadFile(name)
	t.Fatalf("no %q in %s:\n%s", want, name, b)
	return ""
}

// ruleFile writes rules evaluated every second to a new directory.
func ruleFile(t *testing.T) (dir, name string) {
	dir = t.TempDir()
	name = filepath.Join(dir, "r.pmie")
	if err := os.WriteFile(name, []byte("delta = 1 sec;\nn = hinv.ncpu;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, name
}

// TestSignalsLive sends real signals to pmie evaluating live: SIGINT and
// SIGTERM end it quietly, with pmie's statuses; SIGHUP is ignored.
func TestSignalsLive(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pmie for seconds")
	}
	dir, rules := ruleFile(t)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 0}, {syscall.SIGINT, 2}} {
		p := startPmie(t, dir, "-L", "-c", rules, "-v")
		p.waitLine(t, "n: ")
		p.cmd.Process.Signal(syscall.SIGHUP)
		p.waitLine(t, "n: ")
		p.cmd.Process.Signal(c.sig)
		if code := p.wait(t); code != c.code {
			t.Errorf("%v: status %d, want %d", c.sig, code, c.code)
		}
		if msgs := p.stderr.String(); msgs != "" {
			t.Errorf("%v: messages %q, want none", c.sig, msgs)
		}
	}
}

// currentUser is the name of the user running the test.
func currentUser(t *testing.T) string {
	u, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	return u.Username
}

// TestSignalsLog checks a daemon's log (-l): SIGTERM while rules are read
// says so in the log; SIGHUP rotates the log.
func TestSignalsLog(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pmie for seconds")
	}
	dir, rules := ruleFile(t)
	log := filepath.Join(dir, "pmie.log")

	// as root, a daemon would run as $PCP_USER otherwise
	me := currentUser(t)
	p := startPmie(t, dir, "-L", "-l", log, "-U", me, "-v") // rules from standard input
	waitFile(t, log, "PID = ")
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t); code != 1 {
		t.Errorf("interrupted while reading rules: status %d, want 1", code)
	}
	text := waitFile(t, log, "Log finished")
	if !strings.Contains(text, "\n\nInterrupted! signal=15\n\nLog finished ") {
		t.Errorf("log:\n%s", text)
	}

	p = startPmie(t, dir, "-L", "-l", log, "-U", me, "-c", rules, "-v")
	waitFile(t, log, "n: ") // a daemon's values go to its log
	old := log + ".0"
	if err := os.Rename(log, old); err != nil {
		t.Fatal(err)
	}
	p.cmd.Process.Signal(syscall.SIGHUP)
	text = waitFile(t, log, "n: ")
	if !strings.HasPrefix(text, "Log for pmie on ") || !strings.Contains(text, " rotated ") ||
		!strings.Contains(text, "\n\npmie: PID = ") {
		t.Errorf("new log:\n%s", text)
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t); code != 0 {
		t.Errorf("status %d, want 0", code)
	}
	if text := waitFile(t, old, "\nLog rotated "); strings.Contains(text, "Log finished") {
		t.Errorf("old log finished after rotation:\n%s", text)
	}
	if text := waitFile(t, log, "\nLog finished "); strings.Contains(text, "evaluator exiting") {
		t.Errorf("new log:\n%s", text)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.all) != 0 {
		t.Errorf("standard output %q, want none", p.all)
	}
}
