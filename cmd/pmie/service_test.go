package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/internal/pmiestats"
	"github.com/gopcp/pmie/internal/realtest"
)

// These tests run real pmie and ours side by side as PCP's services run
// them: as root, with the real pmcd, syslog, pmie_check. Ours is this
// test binary running as pmie (TestMain).

// ourPmie is the command line running our pmie with args.
func ourPmie(args ...string) []string { return append([]string{os.Args[0]}, args...) }

// realPmie is the command line running real pmie with args.
func realPmie(args ...string) []string { return append([]string{"pmie"}, args...) }

// ourEnv is the environment our pmie needs (as this test binary).
func ourEnv() []string { return append(os.Environ(), "PMIE_TEST_RUN_AS_PMIE=1") }

// openDir makes a temporary directory that user pcp can use too.
func openDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		os.Chmod(d, 0o777)
	}
	return dir
}

// withDevLog is a command line running argv in a private mount namespace
// whose /dev/log is the socket sock (a tmpfs over /dev holding links to
// the real /dev's entries), so nothing changes outside it.
func withDevLog(sock string, argv []string) *exec.Cmd {
	const script = `T=$(mktemp -d)
mount --make-rprivate / && mkdir $T/dev && mount --rbind /dev $T/dev && mount -t tmpfs tmpfs /dev || exit 99
for f in $T/dev/*; do ln -s "$f" /dev/; done
rm -f /dev/log; ln -s "$0" /dev/log
exec "$@"`
	return exec.Command("unshare", append([]string{"-m", "sh", "-c", script, sock}, argv...)...)
}

// syslogListener receives datagrams on a new socket.
func syslogListener(t *testing.T, path string) <-chan string {
	t.Helper()
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o666)
	t.Cleanup(func() { c.Close() })
	got := make(chan string, 100)
	go func() {
		for {
			b := make([]byte, 65536)
			n, err := c.Read(b)
			if err != nil {
				return
			}
			got <- string(b[:n])
		}
	}()
	return got
}

// syslogRules fire once each: default, -p, -t, -p and -t, an empty
// message.
const syslogRules = `delta = 1 hour;
a = hinv.ncpu > 0 -> syslog "default message %v";
b = hinv.ncpu > 0 -> syslog "-p local3.err" "with -p";
c = hinv.ncpu > 0 -> syslog "-t mytag" "with -t";
d = hinv.ncpu > 0 -> syslog "-p user.info" "-t both" "combined";
e = hinv.ncpu > 0 -> syslog "-p warning" "priority alone";
f = hinv.ncpu > 0 -> syslog "";
`

var stampPID = regexp.MustCompile(`^(<\d+>)[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d ([^\[]*)\[\d+\]: `)

// TestSyslogSideBySide checks that the syslog actions of real pmie and
// ours send the same messages to /dev/log (time and process ID aside).
func TestSyslogSideBySide(t *testing.T) {
	realtest.Require(t, realtest.Root, realtest.Pmie, realtest.Pmcd)
	dir := openDir(t)
	rules := filepath.Join(dir, "syslog.pmie")
	os.WriteFile(rules, []byte(syslogRules), 0o644)
	var sent [2][]string
	for i, argv := range [][]string{realPmie("-c", rules, "-T", "1sec"), ourPmie("-c", rules, "-T", "1sec")} {
		sock := filepath.Join(dir, fmt.Sprintf("log%d", i))
		got := syslogListener(t, sock)
		cmd := withDevLog(sock, argv)
		cmd.Env = ourEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", argv, err, out)
		}
		for len(sent[i]) < 6 {
			select {
			case m := <-got:
				if !stampPID.MatchString(m) {
					t.Errorf("%v sent %q: no RFC 3164 header", argv[0], m)
				}
				sent[i] = append(sent[i], stampPID.ReplaceAllString(m, "${1}TIME ${2}[PID]: "))
			case <-time.After(hangBound):
				t.Fatalf("%v sent only %q", argv[0], sent[i])
			}
		}
	}
	t.Logf("real pmie sent %q", sent[0])
	if strings.Join(sent[0], "\n") != strings.Join(sent[1], "\n") {
		t.Errorf("real pmie sent\n%s\nours\n%s", strings.Join(sent[0], "\n"), strings.Join(sent[1], "\n"))
	}
}

// rsyslogd is a private rsyslogd reading the socket dir/log and writing
// what it gets to dir/messages.
type rsyslogd struct {
	t    *testing.T
	dir  string
	cmd  *exec.Cmd
	conf string
}

func startRsyslogd(t *testing.T, dir string) *rsyslogd {
	t.Helper()
	r := &rsyslogd{t: t, dir: dir, conf: filepath.Join(dir, "rsyslog.conf")}
	conf := fmt.Sprintf(`global(workDirectory=%[1]q)
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket=%[2]q)
template(name="raw" type="string" string="%%PRI%% %%syslogtag%%%%msg%%\n")
*.* action(type="omfile" file=%[3]q template="raw")
`, dir, filepath.Join(dir, "log"), filepath.Join(dir, "messages"))
	if err := os.WriteFile(r.conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	r.start()
	t.Cleanup(r.stop)
	return r
}

// start starts rsyslogd and waits for its socket (a socket left by one
// before is removed first, so that it is this one's that is waited for).
func (r *rsyslogd) start() {
	r.t.Helper()
	sock := filepath.Join(r.dir, "log")
	os.Remove(sock)
	r.cmd = exec.Command("/usr/sbin/rsyslogd", "-n", "-f", r.conf, "-i", filepath.Join(r.dir, "rsyslogd.pid"))
	errs := &lockedBuffer{}
	r.cmd.Stderr = errs
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	for end := time.Now().Add(hangBound); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(sock); err == nil {
			return
		}
	}
	r.t.Fatalf("rsyslogd made no socket: %s", errs.String())
}

func (r *rsyslogd) stop() {
	if r.cmd != nil && r.cmd.Process != nil {
		r.cmd.Process.Signal(syscall.SIGTERM)
		r.cmd.Wait()
		r.cmd = nil
	}
}

// waitFor waits until file holds want, returning its text.
func waitFor(t *testing.T, file, want string, d time.Duration) string {
	t.Helper()
	end := time.Now().Add(d)
	for {
		b, _ := os.ReadFile(file)
		if strings.Contains(string(b), want) || time.Now().After(end) {
			return string(b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSyslogRsyslog checks that our syslog actions reach a real rsyslogd
// through /dev/log, that an rsyslogd stopped is said once in pmie's log
// without failing the action (its | alternative does not run), and that
// messages arrive again once it is back.
func TestSyslogRsyslog(t *testing.T) {
	realtest.Require(t, realtest.Root, realtest.Rsyslog, realtest.Pmcd)
	dir := openDir(t)
	r := startRsyslogd(t, dir)
	rules := filepath.Join(dir, "tick.pmie")
	os.WriteFile(rules, []byte(`delta = 1 sec;
tick = hinv.ncpu > 0 -> syslog "-p daemon.warning" "tick %v" | print "alternative";
`), 0o644)
	log := filepath.Join(dir, "pmie.log")
	cmd := withDevLog(filepath.Join(dir, "log"), ourPmie("-c", rules, "-l", log, "-U", "root"))
	cmd.Env = ourEnv()
	said := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = said, said
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	messages := filepath.Join(dir, "messages")
	if text := waitFor(t, messages, "tick ", hangBound); !strings.Contains(text, "28 pcp-pmie[") {
		t.Fatalf("rsyslogd got:\n%s\npmie said:\n%s%s", text, said.String(), waitFor(t, log, "", 0))
	}
	r.stop()
	// a message lost: the outage is said in the log
	if text := waitFor(t, log, "cannot reach the system log", hangBound); !strings.Contains(text, "cannot reach the system log") {
		t.Fatalf("rsyslogd stopped, but no outage said:\n%s", text)
	}
	os.Remove(messages)
	r.start()
	if text := waitFor(t, messages, "tick ", hangBound); !strings.Contains(text, "tick ") {
		t.Fatalf("nothing after rsyslogd came back:\n%s\npmie said:\n%s%s", text, said.String(), waitFor(t, log, "", 0))
	}
	text := waitFor(t, log, "", 0)
	if n := strings.Count(text, "cannot reach the system log"); n != 1 {
		t.Errorf("outage said %d times, want once:\n%s", n, text)
	}
	if strings.Contains(text, "alternative") {
		t.Errorf("the alternative ran:\n%s", text)
	}
}

// pmieStats is what pminfo -f pmcd.pmie says of a pmie process, by
// metric.
func pmieStats(t *testing.T, pid int) map[string]string {
	t.Helper()
	out := realtest.Pminfo(t, "-f", "pmcd.pmie")
	stats := map[string]string{}
	metric := ""
	inst := fmt.Sprintf(`inst [%d or "%d"] value `, pid, pid)
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "pmcd.pmie.") {
			metric = strings.TrimPrefix(line, "pmcd.pmie.")
		} else if v, ok := strings.CutPrefix(line, inst); ok {
			stats[metric] = v
		}
	}
	return stats
}

// bothStats waits until the statistics files of the pmie processes a and
// b both say they have made actual evaluations, and then until pmcd shows
// both, returning what it shows of each.
//
// pmcd reads $PCP_TMP_DIR/pmie again only when the directory's
// modification time changes, and leaves out the files it finds half made
// (of the wrong size or version). Real pmie makes its file in steps, so a
// pmcd asked for pmcd.pmie (by anyone) at that moment leaves that pmie out
// until another pmie starts or stops. So when pmcd lacks one whose file is
// whole, the directory's time is set to now: pmcd reads it again at the
// next request, as it would once another pmie came.
func bothStats(t *testing.T, a, b int, actual string) (sa, sb map[string]string) {
	t.Helper()
	dir := filepath.Join(pcpconf.Get("PCP_TMP_DIR"), pmiestats.Subdir)
	whole := func() bool {
		running, _ := pmiestats.Running(dir)
		ra, aok := running[a]
		rb, bok := running[b]
		return aok && bok && strconv.Itoa(int(ra.Actual)) == actual && strconv.Itoa(int(rb.Actual)) == actual
	}
	deadline := time.Now().Add(time.Minute) // bounds a hang
	for !whole() {
		if time.Now().After(deadline) {
			t.Fatalf("no statistics files of pmie %d and %d with %s evaluations after a minute", a, b, actual)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for nudged := 0; ; nudged++ {
		sa, sb = pmieStats(t, a), pmieStats(t, b)
		if sa["eval.actual"] == actual && sb["eval.actual"] == actual {
			if nudged > 0 {
				t.Logf("pmcd read %s again %d times before it showed both pmie processes", dir, nudged)
			}
			return sa, sb
		}
		if time.Now().After(deadline) {
			return sa, sb // the caller says what is missing
		}
		now := time.Now()
		os.Chtimes(dir, now, now)
		time.Sleep(50 * time.Millisecond)
	}
}

// statsRules are evaluated once (an hour apart), so the counts stay put:
// true, false and unknown rules, a ruleset, an alternative after a
// failing shell action, an expression and a second interval.
const statsRules = `delta = 1 hour;
yes = hinv.ncpu > 0 -> print "yes %v";
no = hinv.ncpu < 0 -> print "no";
unk = some_inst (kernel.percpu.cpu.user > 0) -> print "cpu";
rs = ruleset hinv.ncpu > 100 -> print "big" else hinv.ncpu > 0 -> print "small"
	unknown -> print "unk" otherwise -> print "other";
alt = hinv.ncpu > 0 -> shell "false" | print "alt";
e = hinv.ncpu * 2;
delta = 20 min;
d2 = hinv.ncpu > 0 -> print "d2";
`

// daemon is a pmie started as a daemon.
type daemon struct {
	cmd *exec.Cmd
	log string
}

func startDaemon(t *testing.T, argv []string, log string, env ...string) *daemon {
	t.Helper()
	d := &daemon{cmd: exec.Command(argv[0], argv[1:]...), log: log}
	d.cmd.Env = append(ourEnv(), env...)
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.cmd.Process.Kill(); d.cmd.Wait() })
	return d
}

// stop sends sig and returns the exit status.
func (d *daemon) stop(t *testing.T, sig syscall.Signal) int {
	t.Helper()
	d.cmd.Process.Signal(sig)
	err := d.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return 0
}

// TestStatsSideBySide checks that pmcd's pmcd.pmie metrics show the same
// values for real pmie and ours running the same rules as daemons (user
// pcp, a log), that both statistics files are removed at exit, and that
// SIGTERM and SIGINT end both with the same status.
func TestStatsSideBySide(t *testing.T) {
	realtest.Require(t, realtest.Root, realtest.Pmie, realtest.Pmcd)
	dir := openDir(t)
	rules := filepath.Join(dir, "stats.pmie")
	os.WriteFile(rules, []byte(statsRules), 0o644)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		real := startDaemon(t, realPmie("-c", rules, "-l", filepath.Join(dir, "real.log")), "real.log")
		ours := startDaemon(t, ourPmie("-c", rules, "-l", filepath.Join(dir, "ours.log")), "ours.log")
		rs, os_ := bothStats(t, real.cmd.Process.Pid, ours.cmd.Process.Pid, "7")
		if len(rs) != 10 {
			t.Fatalf("real pmie's stats: %v", rs)
		}
		os_["logfile"] = strings.Replace(os_["logfile"], "ours.log", "real.log", 1)
		for m, v := range rs {
			if os_[m] != v {
				t.Errorf("pmcd.pmie.%s: real %s, ours %s", m, v, os_[m])
			}
		}
		t.Logf("pmcd.pmie of both: %v", rs)
		for _, d := range []*daemon{real, ours} {
			pid := d.cmd.Process.Pid
			if fi, err := os.Stat(filepath.Join("/var/lib/pcp/tmp/pmie", strconv.Itoa(pid))); err == nil {
				if st := fi.Sys().(*syscall.Stat_t); st.Uid == 0 {
					t.Errorf("%s: stats file owned by root, not pcp", d.log)
				}
			}
			code := d.stop(t, sig)
			want := map[syscall.Signal]int{syscall.SIGTERM: 0, syscall.SIGINT: 2}[sig]
			if code != want {
				t.Errorf("%s: status %d after %v, want %d", d.log, code, sig, want)
			}
			if _, err := os.Stat(filepath.Join("/var/lib/pcp/tmp/pmie", strconv.Itoa(pid))); err == nil {
				t.Errorf("%s: stats file left after %v", d.log, sig)
			}
		}
	}
}

// TestPrimarySystemd checks -P and -F as systemd's pmie service runs
// pmie: readiness sent to NOTIFY_SOCKET with the main PID, the PID file
// $PCP_RUN_DIR/pmie.pid (read-only) while running and gone after, for
// real pmie and ours alike.
func TestPrimarySystemd(t *testing.T) {
	realtest.Require(t, realtest.Root, realtest.Pmie, realtest.Pmcd)
	dir := openDir(t)
	rules := filepath.Join(dir, "p.pmie")
	os.WriteFile(rules, []byte("delta = 1 hour;\nhinv.ncpu > 0 -> print \"up\";\n"), 0o644)
	for _, which := range []string{"real", "ours"} {
		run := filepath.Join(dir, which+"-run")
		os.Mkdir(run, 0o777)
		os.Chmod(run, 0o777) // for user pcp, whatever the umask
		sock := filepath.Join(dir, which+"-notify")
		got := syslogListener(t, sock) // any datagram socket will do
		argv := realPmie
		if which == "ours" {
			argv = ourPmie
		}
		d := startDaemon(t, argv("-F", "-P", "-l", filepath.Join(dir, which+".log"), "-c", rules),
			which, "NOTIFY_SOCKET="+sock, "PCP_RUN_DIR="+run)
		select {
		case m := <-got:
			if want := fmt.Sprintf("READY=1\nMAINPID=%d", d.cmd.Process.Pid); m != want {
				t.Errorf("%s: notified %q, want %q", which, m, want)
			}
		case <-time.After(hangBound):
			t.Fatalf("%s: no readiness notification", which)
		}
		// the PID file comes after readiness; wait for evaluation
		waitFor(t, filepath.Join(dir, which+".log"), ": up", hangBound)
		pidFile := filepath.Join(run, "pmie.pid")
		b, err := os.ReadFile(pidFile)
		if fi, _ := os.Stat(pidFile); err != nil || string(b) != strconv.Itoa(d.cmd.Process.Pid) || fi.Mode().Perm() != 0o444 {
			t.Errorf("%s: PID file %q (%v), want %d, mode 0444", which, b, err, d.cmd.Process.Pid)
		}
		if code := d.stop(t, syscall.SIGTERM); code != 0 {
			t.Errorf("%s: status %d", which, code)
		}
		if _, err := os.Stat(pidFile); err == nil {
			t.Errorf("%s: PID file left", which)
		}
	}
}

// pmiesByLog finds the running pmie processes whose statistics files
// name log as their log file.
func pmiesByLog(t *testing.T, log string) []int {
	t.Helper()
	running, _ := pmiestats.Running(filepath.Join(pcpconf.Get("PCP_TMP_DIR"), pmiestats.Subdir))
	var pids []int
	for pid, r := range running {
		if r.Logfile == log {
			pids = append(pids, pid)
		}
	}
	return pids
}

// pmieCheck runs PCP's pmie_check with args and env, returning its log.
func pmieCheck(t *testing.T, dir, which string, env []string, args ...string) string {
	t.Helper()
	log := filepath.Join(dir, which+"-check.log")
	cmd := exec.Command("/usr/lib/pcp/bin/pmie_check", append(args, "-V", "-V", "-l", log)...)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		b, _ := os.ReadFile(log)
		t.Fatalf("%s: pmie_check %v: %v\n%s%s", which, args, err, out, b)
	}
	b, _ := os.ReadFile(log)
	// leave out the process tree pmie_check -V -V prints
	text := string(b)
	if i, j := strings.Index(text, "Called from:"), strings.Index(text, "--- end of pstree output ---\n"); i >= 0 && j > i {
		text = text[:i] + text[j+len("--- end of pstree output ---\n"):]
	}
	return text
}

// TestPmieCheck checks that PCP's pmie_check, with PCP_BIN_DIR naming
// our pmie, starts it from a control line, finds it on the next run (no
// second one is started) and stops it with -s, and that pmie_daily
// rotates its log, as they do real pmie's.
func TestPmieCheck(t *testing.T) {
	realtest.Require(t, realtest.PmieCheck, realtest.Pmie, realtest.Pmcd)
	t.Parallel() // mostly waits for pmie_check, beside the other tests that mostly wait
	dir := openDir(t)
	rules := filepath.Join(dir, "rules.pmie")
	os.WriteFile(rules, []byte("delta = 1 hour;\nhinv.ncpu > 0 -> print \"checked\";\n"), 0o644)
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "pmie"), self, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, which := range []string{"real", "ours"} {
		env := os.Environ()
		if which == "ours" {
			env = append(ourEnv(), "PCP_BIN_DIR="+bin)
		}
		log := filepath.Join(dir, which, "pmie.log")
		control := filepath.Join(dir, which+".control")
		os.WriteFile(control, []byte(fmt.Sprintf("$version=1.1\nLOCALHOSTNAME\tn\tn\t%s\t-c %s\n", log, rules)), 0o644)
		start := pmieCheck(t, dir, which, env, "-c", control)
		pids := pmiesByLog(t, log)
		if len(pids) != 1 {
			t.Fatalf("%s: %d pmie processes with log %s after pmie_check:\n%s", which, len(pids), log, start)
		}
		pid := pids[0]
		exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		t.Logf("%s: pmie_check started %d (%s): %q\n%s", which, pid, exe, cmdline, start)
		if which == "ours" && !strings.HasPrefix(string(cmdline), filepath.Join(bin, "pmie")+"\x00") {
			t.Errorf("ours: pmie_check ran %q", cmdline)
		}
		again := pmieCheck(t, dir, which, env, "-c", control)
		if pids := pmiesByLog(t, log); len(pids) != 1 || pids[0] != pid || !strings.Contains(again, fmt.Sprintf("pmie process %d identified, OK", pid)) {
			t.Errorf("%s: second pmie_check: processes %v, want only %d:\n%s", which, pids, pid, again)
		}
		daily := exec.Command("/usr/lib/pcp/bin/pmie_daily", "-c", control, "-l", filepath.Join(dir, which+"-daily.log"))
		daily.Env = env
		if out, err := daily.CombinedOutput(); err != nil {
			t.Errorf("%s: pmie_daily: %v\n%s", which, err, out)
		}
		rotated := waitFor(t, log, "PID = ", hangBound)
		if old, _ := filepath.Glob(log + ".2*"); len(old) != 1 || !strings.HasPrefix(rotated, "Log for pmie on ") ||
			!strings.Contains(rotated, " rotated ") || !strings.Contains(rotated, fmt.Sprintf("pmie: PID = %d, via local:", pid)) {
			t.Errorf("%s: after pmie_daily, old logs %v, new log:\n%s", which, old, rotated)
		}
		stop := pmieCheck(t, dir, which, env, "-s", "-c", control)
		t.Logf("%s: pmie_check -s:\n%s", which, stop)
		gone := false
		for end := time.Now().Add(hangBound); !gone && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			gone = syscall.Kill(pid, 0) == syscall.ESRCH
		}
		if !gone {
			t.Errorf("%s: pmie %d still running after pmie_check -s", which, pid)
		}
		if text := waitFor(t, log, "Log finished", hangBound); !strings.Contains(text, "Log finished") {
			t.Errorf("%s: log not finished:\n%s", which, text)
		}
	}
}

var notifyStamp = regexp.MustCompile(`^\[[^]]*\] pmie\(\d+\)`)

// TestDaemonUser checks that a daemon that cannot become its user says
// so as real pmie does, with the same status.
func TestDaemonUser(t *testing.T) {
	realtest.Require(t, realtest.Root, realtest.Pmie)
	dir := openDir(t)
	rules := filepath.Join(dir, "u.pmie")
	os.WriteFile(rules, []byte("hinv.ncpu > 0 -> print \"up\";\n"), 0o644)
	var said [2]string
	var codes [2]int
	for i, argv := range []func(...string) []string{realPmie, ourPmie} {
		args := argv("-U", "no-such-user-here", "-l", filepath.Join(dir, "u.log"), "-c", rules)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = ourEnv()
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			codes[i] = ee.ExitCode()
		}
		said[i] = notifyStamp.ReplaceAllString(string(out), "[TIME] pmie(PID)")
	}
	if said[0] != said[1] || codes[0] != codes[1] || codes[0] != 1 {
		t.Errorf("real pmie: %d %q\nours: %d %q", codes[0], said[0], codes[1], said[1])
	}
}
