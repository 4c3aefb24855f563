package actions

import (
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Syslog priorities and facilities, as <syslog.h> numbers them.
const (
	LogNotice  = 5
	logPriMask = 0x07
	logFacMask = 0x03f8
)

var priorityNames = map[string]int{
	"alert": 1, "crit": 2, "debug": 7, "emerg": 0, "err": 3, "error": 3,
	"info": 6, "none": 0x10, "notice": 5, "panic": 0, "warn": 4, "warning": 4,
}

var facilityNames = map[string]int{
	"auth": 4 << 3, "authpriv": 10 << 3, "cron": 9 << 3, "daemon": 3 << 3,
	"ftp": 11 << 3, "kern": 0, "lpr": 6 << 3, "mail": 2 << 3, "mark": 24 << 3,
	"news": 7 << 3, "security": 4 << 3, "syslog": 5 << 3, "user": 1 << 3,
	"uucp": 8 << 3, "local0": 16 << 3, "local1": 17 << 3, "local2": 18 << 3,
	"local3": 19 << 3, "local4": 20 << 3, "local5": 21 << 3, "local6": 22 << 3,
	"local7": 23 << 3,
}

// decodeName is logger(1)'s lookup: a number, or a name from table.
func decodeName(name string, table map[string]int) int {
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		n := 0
		for _, c := range name {
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	if v, ok := table[strings.ToLower(name)]; ok {
		return v
	}
	return -1
}

// encodePriority turns "facility.level" or "level" into a syslog priority,
// with warnings for names it does not know.
func encodePriority(s string, warn func(string)) int {
	fac := 0
	level := s
	if f, l, ok := strings.Cut(s, "."); ok {
		fac = decodeName(f, facilityNames)
		if fac < 0 {
			warn("Ignoring unknown facility (" + f + ") for -p in syslog action")
			fac = 0
		}
		level = l
	}
	lev := decodeName(level, priorityNames)
	if lev < 0 {
		warn("Ignoring unknown priority (" + level + ") for -p in syslog action")
		lev = LogNotice
	}
	return lev&logPriMask | fac&logFacMask
}

// SyslogArgs takes logger(1)'s -p priority and -t tag options from the
// front of a syslog action's arguments, as pmie does (an option and its
// value may be in one argument or two). It returns the remaining
// arguments, the priority (default notice) and the tag (default
// "pcp-pmie"), and warnings in pmie's words.
func SyslogArgs(args []string) (rest []string, priority int, tag string, warnings []string) {
	warn := func(s string) { warnings = append(warnings, s) }
	priority = -1
	tagSet := false
	// cursor over the characters of the arguments, moving on to the next
	// argument when one runs out
	ai, pos := 0, 0
	cur := func() byte {
		if ai < len(args) && pos < len(args[ai]) {
			return args[ai][pos]
		}
		return 0
	}
	next := func() {
		pos++
		for ai < len(args) && pos >= len(args[ai]) {
			if ai+1 >= len(args) {
				pos = len(args[ai])
				return
			}
			ai++
			pos = 0
		}
	}
	// word takes the option value at the cursor: up to white space, the
	// rest of the argument is dropped with a warning.
	word := func(what string) (string, bool) {
		next()
		for c := cur(); c != 0 && (c == ' ' || c == '\t' || c == '\n'); c = cur() {
			next()
		}
		if cur() == 0 {
			return "", false
		}
		s := args[ai][pos:]
		if i := strings.IndexAny(s[1:], " \t\n\v\f\r"); i >= 0 {
			warn("Ignoring extra text (" + s[i+1:] + ") after " + what + " in syslog action")
			s = s[:i+1]
		}
		return s, true
	}
	for ai < len(args) {
		if pos = 0; len(args[ai]) == 0 || args[ai][0] != '-' {
			break
		}
		next()
		switch c := cur(); {
		case c == 'p' && priority == -1:
			if v, ok := word("-p pri"); ok {
				priority = encodePriority(v, warn)
			} else {
				warn("Missing [facility.]priority after -p in syslog action")
			}
		case c == 't' && !tagSet:
			if v, ok := word("-t tag"); ok {
				tag, tagSet = v, true
			} else {
				warn("Missing tag after -t in syslog action")
			}
		default:
			rest = args[ai:]
			return finishSyslog(rest, priority, tag, tagSet, warnings)
		}
		ai++
	}
	if ai < len(args) {
		rest = args[ai:]
	}
	return finishSyslog(rest, priority, tag, tagSet, warnings)
}

func finishSyslog(rest []string, priority int, tag string, tagSet bool, warnings []string) ([]string, int, string, []string) {
	if priority < 0 {
		priority = LogNotice
	}
	if !tagSet {
		tag = "pcp-pmie"
	}
	return rest, priority, tag, warnings
}

// logDaemon is LOG_DAEMON, the facility pmie opens the system log with.
const logDaemon = 3 << 3

// SystemLog sends messages to the local system log exactly as pmie's
// syslog action does through glibc: openlog(tag, LOG_PID|LOG_CONS,
// LOG_DAEMON), syslog(priority, "%s", message), closelog(). Each message
// is one datagram on the socket at Path (/dev/log), connected afresh, so
// a system logger that restarts or appears later is found; a stream
// socket is used if the logger has one, with a NUL after each message,
// as glibc does. The message is RFC 3164's form as glibc writes it:
//
//	<29>Nov 25 06:47:41 pcp-pmie[1234]: message
//
// the priority with LOG_DAEMON added when it names no facility, the time
// in the local zone ("%h %e %T" in the C locale), the tag and the
// process ID. Go's log/syslog writes another form (with a newline, and
// trying other sockets), hence this.
type SystemLog struct {
	Path string           // the socket; "" is /dev/log
	Now  func() time.Time // nil is time.Now
	PID  int              // 0 is this process's
}

// Send sends one message. It fails when there is no system log to reach.
func (l *SystemLog) Send(priority int, tag, msg string) error {
	if priority&logFacMask == 0 {
		priority |= logDaemon
	}
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	pid := l.PID
	if pid == 0 {
		pid = os.Getpid()
	}
	b := make([]byte, 0, 64+len(tag)+len(msg))
	b = append(b, '<')
	b = strconv.AppendInt(b, int64(priority), 10)
	b = append(b, '>')
	b = now().AppendFormat(b, "Jan _2 15:04:05")
	b = append(b, ' ')
	b = append(b, tag...)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, "]: "...)
	b = append(b, msg...)
	path := l.Path
	if path == "" {
		path = "/dev/log"
	}
	c, err := net.Dial("unixgram", path)
	if errors.Is(err, syscall.EPROTOTYPE) {
		if c, err = net.Dial("unix", path); err == nil {
			b = append(b, 0)
		}
	}
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Write(b)
	return err
}
