package actions

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// Kind is the kind of an action.
type Kind int

// The action kinds of pmie's language.
const (
	Shell Kind = iota
	Alarm
	Syslog
	Print
	Stomp
)

var kindNames = [...]string{"shell", "alarm", "syslog", "print", "stomp"}

// String is the action's keyword.
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Binding is one host and instance that made a rule true, with its value.
type Binding struct {
	Host, Conn, Inst, Value string
}

// Event is one action to run: what pmie passes to its action operators,
// plus what structured notifications (exec, webhooks, Alertmanager) want.
// An Event, and the storage of its Text, belong to whoever calls
// Runner.Run, and are valid only during the call: the evaluator reuses
// them for the next action, so that running one allocates nothing.
type Event struct {
	Kind Kind
	Rule string  // the rule whose condition is true
	Time float64 // evaluation time, seconds since the epoch
	// Text is the message: the arguments, expanded and joined. Message
	// gives it as a string to keep.
	Text     []byte
	Priority int    // syslog
	Tag      string // syslog
	// Err, if set, says why the action must not run: a value that could
	// not be quoted safely where it stands in a shell command.
	Err error
	// Bindings gives the hosts, instances and values that made the rule
	// true (computed on demand).
	Bindings func() []Binding
	// Key identifies the action in its rule (the evaluator's node), for
	// state an action keeps from one firing to the next.
	Key any
	// Skipped is set by Run when the action chose not to run (an alarm
	// whose previous window still shows): it is not counted and its
	// holdoff does not start again.
	Skipped bool
}

// Message is the event's message, as a string of its own.
func (ev *Event) Message() string { return string(ev.Text) }

// Runner runs actions. In archive mode (Replay) actions are reported on
// Out as pmie reports them, never executed.
type Runner struct {
	Replay bool
	Out    io.Writer // print action output (and reports when replaying)
	// Ctime formats whole seconds as ctime(3) does in the reporting zone.
	Ctime func(sec int64) string
	// Log reports problems running an action.
	Log func(msg string)
	// Syslog sends a message to the system log (SystemLog.Send); nil
	// means there is none. A syslog action counts as run either way, as
	// pmie's does; that the system log cannot be reached is said once
	// (again only after it was reached).
	Syslog func(priority int, tag, msg string) error
	// Shell is the shell command runner; nil uses /bin/sh -c (as sh).
	Shell func(ctx context.Context, cmd string) error
	// AlarmProgram is PCP_XCONFIRM_PROG, the program that shows an alarm;
	// "" prints the alarm instead, as echo(1) would (pmie's fallback).
	AlarmProgram string
	// Stomp sends a stomp action's message to the JMS server
	// (stomp.Client.Send) and reports whether it was sent; nil fails
	// every stomp action.
	Stomp func(msg string) bool
	// Notify, if set, is given every action after it has run (or been
	// reported, when replaying), for structured alerting. It must not
	// wait: the evaluator calls Run as the rule fires; nor keep ev, which
	// is valid only during the call.
	Notify func(ev *Event)

	buf        []byte // the line being reported or printed
	mu         sync.Mutex
	alarming   map[any]bool // alarm actions whose window still shows
	alarmSaid  bool         // the alarm program's absence was logged
	syslogDown bool         // the last syslog action could not reach the system log
}

// Run runs one action and reports whether it succeeded: a failed action
// lets the alternative after | run.
func (r *Runner) Run(ev *Event) bool {
	ok := r.run(ev)
	if r.Notify != nil {
		r.Notify(ev)
	}
	return ok
}

func (r *Runner) run(ev *Event) bool {
	if ev.Err != nil {
		if r.Replay {
			r.report(ev)
		}
		r.log(ev.Kind.String() + " action not run: " + ev.Err.Error())
		return false
	}
	if r.Replay {
		r.report(ev)
		return true
	}
	switch ev.Kind {
	case Print:
		r.line(r.appendShown(r.buf[:0], ev))
		return true
	case Shell:
		return r.shell(ev.Message())
	case Alarm:
		return r.alarm(ev)
	case Syslog:
		r.syslog(ev)
		return true
	case Stomp:
		if r.Stomp != nil {
			return r.Stomp(ev.Message())
		}
	}
	r.log(ev.Kind.String() + " action is not supported")
	return false
}

// syslog sends a syslog action's message, saying once that there is no
// system log while there is none.
func (r *Runner) syslog(ev *Event) {
	err := errors.New("no system log available")
	if r.Syslog != nil {
		err = r.Syslog(ev.Priority, ev.Tag, ev.Message())
	}
	r.mu.Lock()
	say := err != nil && !r.syslogDown
	r.syslogDown = err != nil
	r.mu.Unlock()
	if say {
		r.log("syslog action: cannot reach the system log (" + err.Error() + "), messages are lost until it can be reached")
	}
}

// report writes an action as pmie's archive mode does instead of running
// it: "print Thu Jan  1 00:00:00 1970: message".
func (r *Runner) report(ev *Event) {
	b := append(r.buf[:0], ev.Kind.String()...)
	r.line(r.appendShown(append(b, ' '), ev))
}

// appendShown appends ev's time and message to b as a print action shows
// them, "Thu Jan  1 00:00:00 1970: message", and a newline. An empty
// message is a null pointer to pmie, which printf shows as "(null)".
func (r *Runner) appendShown(b []byte, ev *Event) []byte {
	b = append(b, r.Ctime(int64(ev.Time))...)
	b = append(b, ": "...)
	if len(ev.Text) == 0 {
		b = append(b, "(null)"...)
	} else {
		b = append(b, ev.Text...)
	}
	return append(b, '\n')
}

// line writes b, a line made in r.buf, keeping the buffer for the next.
func (r *Runner) line(b []byte) {
	if r.Out != nil {
		r.Out.Write(b)
	}
	r.buf = b
}

func (r *Runner) log(s string) {
	if r.Log != nil {
		r.Log(s)
	}
}

// shellPath is the PATH pmie gives shell actions.
const shellPath = "PATH=/usr/sbin:/sbin:/usr/bin:/bin"

// shell runs cmd with sh(1), waiting for it, and reports whether it exited
// with status 0.
func (r *Runner) shell(cmd string) bool {
	if f, ok := r.Out.(interface{ Flush() error }); ok {
		f.Flush()
	}
	if r.Shell != nil {
		return r.Shell(context.Background(), cmd) == nil
	}
	c := exec.Command("/bin/sh", "-c", cmd)
	c.Args[0] = "sh" // as system(3) names it: the shell's messages begin "sh: "
	c.Env = append(os.Environ(), shellPath, "IFS=\t\n")
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	if err := c.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			r.log("fork for shell failed")
		}
		return false
	}
	return true
}

// alarm posts an alarm unless the previous one of the same action is still
// showing. Like pmie's, an alarm whose program cannot be started counts as
// posted (pmie's child fails after the fork); ours says so once.
func (r *Runner) alarm(ev *Event) bool {
	r.mu.Lock()
	showing := r.alarming[ev.Key]
	r.mu.Unlock()
	if showing {
		ev.Skipped = true
		return true
	}
	// the time as ctime(3) gives it, newline and all, as pmie passes it
	when := r.Ctime(int64(ev.Time+0.5)) + "\n"
	args := []string{"-header", "Performance Co-Pilot Alarm", "-b", "Cancel",
		"-icon", "warning", "-t", when, "-t", ev.Message()}
	if r.AlarmProgram == "" {
		r.alarmOnce("PCP_XCONFIRM_PROG not found, using echo(1)")
		b := r.buf[:0]
		for i, a := range args {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, a...)
		}
		r.line(append(b, '\n'))
		return true
	}
	c := exec.Command(r.AlarmProgram, args...)
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		// pmie's child would fork and then fail to run it: the action
		// counts, nothing shows
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) ||
			errors.Is(err, exec.ErrNotFound) || errors.Is(err, syscall.ENOEXEC) {
			r.alarmOnce("alarm action: cannot run " + r.AlarmProgram + ": " + err.Error())
			return true
		}
		r.log("fork for alarm failed")
		return false
	}
	r.mu.Lock()
	if r.alarming == nil {
		r.alarming = map[any]bool{}
	}
	r.alarming[ev.Key] = true
	r.mu.Unlock()
	go func(key any) {
		c.Wait()
		r.mu.Lock()
		delete(r.alarming, key)
		r.mu.Unlock()
	}(ev.Key)
	return true
}

// alarmOnce logs msg the first time an alarm is posted without its program.
func (r *Runner) alarmOnce(msg string) {
	r.mu.Lock()
	said := r.alarmSaid
	r.alarmSaid = true
	r.mu.Unlock()
	if !said {
		r.log(msg)
	}
}
