package main

// The writers pmie's messages and values go through: the logger of
// pmNotifyErr-style messages, ctime(3)'s format, and the writers that
// keep messages and values in order.

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gopcp/pmie/internal/pmprintf"
	"github.com/gopcp/pmie/rules"
)

// logger writes pmNotifyErr-style messages: "[Thu Nov 21 14:45:43] pmie(123) Info: ...".
type logger struct {
	w   io.Writer
	pid int
	// pm, if set, is pmprintf's buffer, through which pmNotifyErr sends
	// its lines where $PCP_STDERR says (w being standard error)
	pm *pmprintf.Buffer
}

// notify writes a message of level: warnings (of hosts) as plain lines,
// others as pmNotifyErr does.
func (l *logger) notify(level rules.Level, msg string) {
	if level == rules.Warning {
		// pmie's warnings about hosts are plain lines
		if !strings.HasSuffix(msg, "\n") {
			msg += "\n"
		}
		io.WriteString(l.w, msg)
		return
	}
	l.write(map[rules.Level]string{rules.Info: "Info", rules.Error: "Error"}[level], msg)
}

// critical writes a message of pmNotifyErr's LOG_CRIT level.
func (l *logger) critical(msg string) { l.write("Critical", msg) }

// write writes a message of level as pmNotifyErr does, with the time.
func (l *logger) write(level, msg string) {
	stamp := time.Now().Format("Mon Jan _2 15:04:05")
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	line := fmt.Sprintf("[%s] %s(%d) %s: %s", stamp, prog, l.pid, level, msg)
	if l.pm != nil {
		l.pm.SendTo(l.w, line)
		return
	}
	io.WriteString(l.w, line)
}

// newCtime returns a function formatting whole seconds since the epoch
// as ctime(3) does in loc, without the newline ("Thu Jan  1 00:00:00
// 1970"). It remembers its last answer, as many are asked for each second;
// it is for one goroutine.
func newCtime(loc *time.Location) func(sec int64) string {
	last, text := int64(0), ""
	return func(sec int64) string {
		if text == "" || sec != last {
			last, text = sec, time.Unix(sec, 0).In(loc).Format("Mon Jan _2 15:04:05 2006")
		}
		return text
	}
}

// flushFirst writes to w after flushing out, so that messages and values
// appear in the order pmie (whose standard output is line buffered) gives
// them when both go to one place. It is for the goroutine that writes to
// out; others write to w.
type flushFirst struct {
	out *bufio.Writer
	w   *syncWriter
}

// Write flushes out, then writes p to w.
func (f *flushFirst) Write(p []byte) (int, error) {
	f.out.Flush()
	return f.w.Write(p)
}

// syncWriter is a writer for several goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write writes p, one goroutine at a time.
func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// countWriter counts what is written through it.
type countWriter struct {
	w io.Writer
	n int
}

// Write counts and writes p.
func (c *countWriter) Write(p []byte) (int, error) {
	c.n += len(p)
	return c.w.Write(p)
}
