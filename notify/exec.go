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
	"time"
)

// execSender runs a program for each alert: directly, not through a
// shell, with the alert as JSON on its standard input and PMIE_*
// variables in its environment.
type execSender struct {
	cfg ReceiverConfig
	log func(string)
}

// stderrLimit is how much of a program's standard error is kept for the
// log.
const stderrLimit = 4096

func (e *execSender) send(ctx context.Context, a *Alert) error {
	body, err := json.Marshal(a)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	c := exec.CommandContext(ctx, e.cfg.Command[0], e.cfg.Command[1:]...)
	c.Env = append(os.Environ(), alertEnv(a, e.cfg.Name)...)
	c.Stdin = bytes.NewReader(append(body, '\n'))
	var stderr limitedBuffer
	c.Stderr = &stderr
	c.WaitDelay = time.Second // do not wait for a killed program's children
	err = c.Run()
	msg := strings.TrimRight(stderr.String(), "\n")
	var exit *exec.ExitError
	switch {
	case err == nil:
		if msg != "" && e.log != nil {
			e.log(fmt.Sprintf("alerting: receiver %s: rule %s: %s said: %s", e.cfg.Name, a.Rule, e.cfg.Command[0], msg))
		}
		return nil
	case ctx.Err() == context.DeadlineExceeded:
		return fmt.Errorf("%s killed after %v", e.cfg.Command[0], e.cfg.Timeout)
	case errors.As(err, &exit):
		if msg != "" {
			return fmt.Errorf("%s: %v: %s", e.cfg.Command[0], err, msg)
		}
		return fmt.Errorf("%s: %v", e.cfg.Command[0], err)
	}
	return err
}

// alertEnv gives the PMIE_* variables for a: lists are one item a line.
func alertEnv(a *Alert, receiver string) []string {
	values := make([]string, len(a.Bindings))
	for i, b := range a.Bindings {
		values[i] = b.Value
	}
	return []string{
		"PMIE_RECEIVER=" + receiver,
		"PMIE_RULE=" + a.Rule,
		"PMIE_ACTION=" + a.Action,
		"PMIE_MESSAGE=" + a.Message,
		"PMIE_TIME=" + a.Time.Format(time.RFC3339Nano),
		"PMIE_TIMESTAMP=" + strconv.FormatInt(a.Time.Unix(), 10),
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
