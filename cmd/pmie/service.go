package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"syscall"

	"github.com/gopcp/pmie/internal/nss"
	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/internal/pmiestats"
	"github.com/gopcp/pmie/rules"
)

// realProcess is set by main: only then does pmie change its user and
// session, write its PID and statistics files and notify systemd (tests
// run pmie in their own process).
var realProcess bool

// service is what pmie does as PCP's service: the statistics file that
// pmcd's pmcd.pmie metrics and pmie_check read, the primary pmie's PID
// file, systemd's readiness notification. Its zero value does nothing.
type service struct {
	stats   *pmiestats.File
	pidFile string
	once    sync.Once
}

// becomeDaemon does what pmie does as a daemon before opening its log:
// run as user (pmSetProcessIdentity). It returns pmie's message.
func becomeDaemon(name string) error {
	if !realProcess {
		return nil
	}
	return switchUser(name)
}

// switchUser makes the process run as the user called name, with its
// group and supplementary groups, as libpcp's pmSetProcessIdentity does
// (and with its messages).
func switchUser(name string) error {
	u, err := nss.LookupUser(name)
	if err != nil {
		return fmt.Errorf("cannot find the %s user to switch to", name)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := syscall.Setgid(gid); err != nil {
		return fmt.Errorf("setgid to gid of %s user (gid=%d): %s", name, gid, errnoText(err))
	}
	if groups, _ := syscall.Getgroups(); len(groups) > 0 {
		var ids []int
		if names, err := nss.GroupIDs(u); err == nil {
			for _, g := range names {
				if n, err := strconv.Atoi(g); err == nil {
					ids = append(ids, n)
				}
			}
		}
		if err := syscall.Setgroups(ids); err != nil && err != syscall.EPERM {
			return fmt.Errorf("initgroups with gid of %s user (gid=%d): %s", name, gid, errnoText(err))
		}
	}
	if err := syscall.Setuid(uid); err != nil {
		return fmt.Errorf("setuid to uid of %s user (uid=%d): %s", name, uid, errnoText(err))
	}
	return nil
}

// start does what pmie does as a daemon once its log is open: leave the
// terminal's session (unless systemd runs it, -F), and for the primary
// pmie (-P) tell systemd it is ready (with -F) and write the PID file.
func (sv *service) start(s settings) {
	if !realProcess || !s.daemon() {
		return
	}
	if !s.systemd {
		syscall.Setsid()
	}
	if !s.primary {
		return
	}
	if s.systemd {
		sdNotify(fmt.Sprintf("READY=1\nMAINPID=%d", os.Getpid()))
	}
	path := pcpconf.Get("PCP_RUN_DIR") + "/" + prog + ".pid" // as pmie formats it
	if f, err := os.Create(path); err == nil {
		fmt.Fprintf(f, "%d", os.Getpid())
		f.Chmod(0o444)
		f.Close()
		sv.pidFile = path
	}
}

// sdNotify sends a state to systemd, as sd_notify(3) does, if systemd
// asked for it (NOTIFY_SOCKET set); failures are ignored, as pmie ignores
// them. The protocol is one datagram, so no library is used for it.
func sdNotify(state string) {
	name := os.Getenv("NOTIFY_SOCKET")
	if name == "" || (name[0] != '/' && name[0] != '@') || len(name) < 2 {
		return
	}
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		return
	}
	c.Write([]byte(state))
	c.Close()
}

// openStats makes pmie's statistics file, $PCP_TMP_DIR/pmie/PID, for a
// live pmie (as pmie does, also under -C), saying in it where the log
// is; a file that cannot be made is done without, as pmie does. The
// counts follow stats.
func (sv *service) openStats(s settings, logName string, stats *rules.Stats, stderr io.Writer) {
	if !realProcess || !s.live() || s.interact {
		return // pmie's debugger makes none either
	}
	dir := statsDir()
	if logName == "" {
		logName = "<none>"
	}
	f, err := pmiestats.Create(dir, os.Getpid(), logName)
	if err != nil {
		if !os.IsExist(err) && !os.IsPermission(err) {
			fmt.Fprintf(stderr, "%s: warning %v\n", prog, err)
		}
		return
	}
	sv.stats = f
	stats.AfterEval(func() { f.Update(statsValues(stats.Totals())) })
}

// statsDir is where pmie's statistics files are, as pmie formats it:
// $PCP_TMP_DIR/pmie, which is /pmie when $PCP_TMP_DIR is empty (a
// pcp.conf that cannot be read), not pmie in the current directory.
func statsDir() string { return pcpconf.Get("PCP_TMP_DIR") + "/" + pmiestats.Subdir }

// statsValues are the engine's totals as pmie's statistics file holds
// them (unsigned ints, which wrap as pmie's do).
func statsValues(t rules.Totals) pmiestats.Values {
	return pmiestats.Values{Expected: t.Expected, NumRules: uint32(t.NumRules),
		Actions: uint32(t.Actions), True: uint32(t.True), False: uint32(t.False),
		Unknown: uint32(t.Unknown), Eval: uint32(t.Evaluations)}
}

// setConfig records in the statistics file the first rules file read.
func (sv *service) setConfig(path string) {
	if sv.stats == nil {
		return
	}
	if path != "<stdin>" {
		path = realPath(path)
	}
	sv.once.Do(func() { sv.stats.SetConfig(path) })
}

// setHost records in the statistics file the pmcd host last reached.
func (sv *service) setHost(host string) {
	if sv.stats != nil && host != "" {
		sv.stats.SetHost(host)
	}
}

// stop removes the statistics and PID files, as pmie does at exit; later
// calls do nothing.
func (sv *service) stop() {
	if sv.stats != nil {
		sv.stats.Close()
	}
	if sv.pidFile != "" {
		os.Remove(sv.pidFile)
		sv.pidFile = ""
	}
}
