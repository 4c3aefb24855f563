package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/gopcp/pmie/internal/pmprintf"
	"github.com/gopcp/pmie/rules"
)

// logFile is pmie's -l log, kept as pmOpenLog keeps one: a line saying
// who started it when, one saying when it finished, and rotation (a new
// file of the same name) on request. The name "-" is standard error.
type logFile struct {
	name string // its real path, once opened
	mu   sync.Mutex
	w    io.Writer
	f    *os.File // nil for "-"
	done bool
}

// openLog starts the log file name, or with "-" writes log lines to
// stderr.
// A file that cannot be made is said, and the log kept on stderr, as
// pmOpenLog does; pmie then needs the file's real path (for its
// statistics file), and the error returned says it has none.
func openLog(name string, stderr io.Writer, msgs *pmprintf.Buffer) (*logFile, error) {
	l := &logFile{name: name, w: stderr}
	if name != "-" {
		if f, err := createLog(name); err != nil {
			// pmOpenLog's message, through pmprintf and pmflush
			msgs.SendTo(stderr, fmt.Sprintf("%s: cannot open log \"%s\" for writing : %s\n", prog, name, errnoText(err)))
		} else {
			l.f, l.w = f, f
		}
	}
	l.header("started")
	if name != "-" {
		path, err := realpath(name)
		if err != nil {
			return l, fmt.Errorf("%s: cannot find realpath for log %s: %s", prog, name, errnoText(err))
		}
		l.name = path
	}
	return l, nil
}

// createLog makes the log file name anew, as pmOpenLog does: what is
// there is unlinked first, so that a symbolic link, or another name of
// the same file, is not written through, and the file is pmie's own. A
// device (/dev/null, a terminal) is written to as it is, where pmie 6.0.3
// unlinks it too (README). A file that cannot be unlinked is truncated.
func createLog(name string) (*os.File, error) {
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&os.ModeDevice != 0 {
		return os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if err := syscall.Unlink(name); err != nil && err != syscall.ENOENT {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	return os.OpenFile(name, flags, 0o666)
}

// realpath is realpath(3): the absolute path of name with symbolic links
// resolved, an error if any part of it is not there.
func realpath(name string) (string, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// realPath is the absolute path of name with symbolic links resolved, or
// as near to that as can be found.
func realPath(name string) string {
	if p, err := realpath(name); err == nil {
		return p
	}
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return name
}

// realName is the log's real path as pmie records it in its statistics
// file: "" for standard error or no log.
func (l *logFile) realName() string {
	if l == nil || l.f == nil {
		return ""
	}
	return l.name
}

func (l *logFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// header writes the line that begins a log.
func (l *logFile) header(act string) {
	host, _ := os.Hostname()
	fmt.Fprintf(l.w, "Log for %s on %s %s %s\n\n", prog, host, act, ctimeNow())
}

// ctimeNow is the time now as ctime(3) gives it, without the newline.
func ctimeNow() string {
	return time.Now().Format("Mon Jan _2 15:04:05 2006")
}

// close ends the log as libpcp does at exit; later calls do nothing.
func (l *logFile) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return
	}
	l.done = true
	fmt.Fprintf(l.w, "\nLog finished %s\n", ctimeNow())
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// rotate ends the log and starts it again in a new file of the same name
// (the old one having usually been renamed), as pmie does on SIGHUP,
// saying in the new one which pmie it is. If the new file cannot be made,
// logging goes on in the old one. log reports a failure.
func (l *logFile) rotate(pid int, via string, log *logger) {
	l.mu.Lock()
	if l.f == nil {
		l.mu.Unlock()
		return
	}
	fmt.Fprintf(l.w, "\nLog rotated %s\n", ctimeNow())
	f, err := createLog(l.name)
	if err != nil {
		fmt.Fprintf(l.w, "%s: cannot open log \"%s\" for writing : %s\n", prog, l.name, errnoText(err))
	} else {
		l.f.Close()
		l.f, l.w = f, f
	}
	l.header("rotated")
	if err == nil {
		fmt.Fprintf(l.w, "%s: PID = %d, via %s\n\n", prog, pid, via)
	}
	l.mu.Unlock()
	if err != nil {
		log.notify(rules.Error, "pmie: log rotation failed")
	}
}
