// Package pmprintf is libpcp's pmprintf(3) and pmflush(3), through which
// PCP's tools give their usage messages, option errors and log lines:
// text is gathered, then sent at once where $PCP_STDERR says. Unset or
// empty, that is standard error; "DISPLAY" (in any case) is a dialog,
// $PCP_XCONFIRM_PROG run with the text, or standard error with a line
// saying why not; any other value names a file the text is appended to,
// or, when it cannot be, standard error after a line saying so.
package pmprintf

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"

	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/pmapi"
)

// where the text goes, chosen at the first flush that has any
type dest int

const (
	undecided dest = iota
	toStderr
	toFile
	toDialog
)

// Buffer is one process's pmprintf buffer. Its methods may be called
// from several goroutines.
type Buffer struct {
	// Prog is the program's name, as messages about the dialog give it.
	Prog string
	// Stderr is standard error.
	Stderr io.Writer
	// LookupEnv reads the environment ($PCP_STDERR); nil is
	// os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Config is pmGetOptionalConfig(3), for $PCP_XCONFIRM_PROG; nil is
	// PCP's configuration as internal/pcpconf reads it over LookupEnv.
	Config func(string) (string, bool)

	mu       sync.Mutex
	text     strings.Builder
	dest     dest
	file     string // $PCP_STDERR naming a file
	xconfirm string // the dialog program
	haveX    bool   // whether $PCP_XCONFIRM_PROG has a value
	xRead    bool
}

// Print adds s to the text, as pmprintf does.
func (b *Buffer) Print(s string) {
	b.mu.Lock()
	b.text.WriteString(s)
	b.mu.Unlock()
}

// Send adds s to the text and flushes it, as pmprintf then pmflush.
func (b *Buffer) Send(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.text.WriteString(s)
	b.flushTo(b.Stderr)
}

// SendTo is Send with w as standard error. A nil Buffer writes s to w.
func (b *Buffer) SendTo(w io.Writer, s string) {
	if b == nil {
		io.WriteString(w, s)
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.text.WriteString(s)
	b.flushTo(w)
}

// Flush sends the text gathered, if any, as pmflush does. The error is
// what a failure on the way left in errno (the file that could not be
// appended to, the dialog program that could not be run), which some of
// libpcp's messages that follow a flush report in place of their own.
func (b *Buffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushTo(b.Stderr)
}

func (b *Buffer) lookupEnv(name string) (string, bool) {
	if b.LookupEnv != nil {
		return b.LookupEnv(name)
	}
	return os.LookupEnv(name)
}

// flushTo is pmflush with stderr as standard error.
func (b *Buffer) flushTo(stderr io.Writer) error {
	if !b.xRead {
		// pmflush asks for the dialog program at its first call,
		// whether or not there is text
		b.xRead = true
		config := b.Config
		if config == nil {
			config = pcpconf.New(b.lookupEnv).Optional
		}
		b.xconfirm, b.haveX = config("PCP_XCONFIRM_PROG")
	}
	if b.text.Len() == 0 {
		return nil
	}
	msg := b.text.String()
	b.text.Reset()
	var failed error
	if b.dest == undecided {
		failed = b.decide(stderr)
	}
	switch b.dest {
	case toFile:
		f, err := os.OpenFile(b.file, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
		if err != nil {
			io.WriteString(stderr, "pmflush: cannot append to file '"+b.file+"' (from $PCP_STDERR): "+
				pmapi.Code(err).Error()+"\n")
			io.WriteString(stderr, msg)
			return err
		}
		io.WriteString(f, msg)
		f.Close()
	case toDialog:
		b.dialog(msg)
	default:
		io.WriteString(stderr, msg)
	}
	return failed
}

// decide chooses where text goes from $PCP_STDERR, once, returning the
// error of a dialog program that cannot be run.
func (b *Buffer) decide(stderr io.Writer) error {
	b.dest = toStderr
	v, ok := b.lookupEnv("PCP_STDERR")
	switch {
	case !ok || v == "":
	case strings.EqualFold(v, "DISPLAY"):
		if !b.haveX {
			io.WriteString(stderr, b.Prog+": using stderr - no PCP_XCONFIRM_PROG\n")
			return nil
		}
		if err := syscall.Access(b.xconfirm, 1); err != nil { // X_OK
			io.WriteString(stderr, b.Prog+": using stderr - cannot access "+b.xconfirm+": "+
				pmapi.Code(err).Error()+"\n")
			return err
		}
		b.dest = toDialog
	default:
		b.dest, b.file = toFile, v
	}
	return nil
}

// dialog shows msg in the dialog program and waits for it; what it
// writes is thrown away, and how it ends does not matter.
func (b *Buffer) dialog(msg string) {
	args := []string{"-t", msg, "-c", "-B", "OK", "-icon", "info"}
	if len(msg) > 80 {
		args = append(args, "-useslider")
	}
	args = append(args, "-header", "PCP Information")
	cmd := exec.Command(b.xconfirm, args...)
	if err := cmd.Start(); err != nil {
		return // as a child that cannot exec: its status is not looked at
	}
	cmd.Wait()
}
