package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// execSender runs a program for each alert: directly, not through a
// shell, with the alert as JSON on its standard input and PMIE_*
// variables in its environment. The program runs in a process group of
// its own, so that at its timeout it is killed with all its children.
type execSender struct {
	cfg  *ReceiverConfig
	info func(string) // what the program wrote on stderr, when it succeeded
	run  func(ctx context.Context, r *ReceiverConfig, env []string, stdin []byte) error
}

// stderrLimit is how much of a program's standard error is kept for the
// log.
const stderrLimit = 4096

func (e *execSender) send(ctx context.Context, a *Alert) error {
	body, err := json.Marshal(a)
	if err != nil {
		return err
	}
	env := alertEnv(a, e.cfg.Name)
	if e.run != nil {
		return e.run(ctx, e.cfg, env, append(body, '\n'))
	}
	msg, err := runGroup(ctx, e.cfg, env, append(body, '\n'))
	if err == nil && msg != "" && e.info != nil {
		// it succeeded: what it said is news, not an error (a failure's
		// text is in err), each line of it as a message of its own
		for _, line := range strings.Split(msg, "\n") {
			e.info(fmt.Sprintf("alerting: receiver %s: rule %s: %s said: %s", e.cfg.Name, a.Rule, e.cfg.Command[0], line))
		}
	}
	return err
}

// runGroup runs cfg's command in a process group of its own, with env
// added to pmie's environment and stdin as its standard input, and
// returns what it wrote on its standard error. At the timeout the whole
// group is killed: children the program started (a shell script's
// commands) do not outlive it.
func runGroup(ctx context.Context, cfg *ReceiverConfig, env []string, stdin []byte) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	c := exec.CommandContext(ctx, cfg.Command[0], cfg.Command[1:]...)
	c.Env = append(os.Environ(), env...)
	c.Stdin = bytes.NewReader(stdin)
	var stderr limitedBuffer
	c.Stderr = &stderr
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = time.Second // stop waiting for output pipes held by stray children
	err := c.Run()
	msg := strings.TrimRight(stderr.String(), "\n")
	var exit *exec.ExitError
	switch {
	case err == nil:
		return msg, nil
	case ctx.Err() == context.DeadlineExceeded:
		return msg, fmt.Errorf("%s killed after %v", cfg.Command[0], cfg.Timeout)
	case errors.As(err, &exit) && msg != "":
		return msg, fmt.Errorf("%s: %v: %s", cfg.Command[0], err, msg)
	case errors.As(err, &exit):
		return msg, fmt.Errorf("%s: %v", cfg.Command[0], err)
	}
	return msg, err
}

// alertEnv gives the PMIE_* variables for a: lists are one item a line.
func alertEnv(a *Alert, receiver string) []string {
	values := make([]string, len(a.Bindings))
	for i, b := range a.Bindings {
		values[i] = b.Value
	}
	ends := ""
	if !a.EndsAt.IsZero() {
		ends = a.EndsAt.Format(time.RFC3339Nano)
	}
	return []string{
		"PMIE_RECEIVER=" + receiver,
		"PMIE_RULE=" + a.Rule,
		"PMIE_STATUS=" + a.Status,
		"PMIE_ACTION=" + a.Action,
		"PMIE_MESSAGE=" + a.Message,
		"PMIE_TIME=" + a.Time.Format(time.RFC3339Nano),
		"PMIE_TIMESTAMP=" + strconv.FormatInt(a.Time.Unix(), 10),
		"PMIE_STARTS_AT=" + a.StartsAt.Format(time.RFC3339Nano),
		"PMIE_ENDS_AT=" + ends,
		"PMIE_HOSTS=" + strings.Join(a.Hosts, "\n"),
		"PMIE_INSTANCES=" + strings.Join(a.Insts, "\n"),
		"PMIE_VALUES=" + strings.Join(values, "\n"),
	}
}

// limitedBuffer keeps the first stderrLimit bytes written to it.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := stderrLimit - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
