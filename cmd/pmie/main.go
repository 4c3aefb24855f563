// Command pmie is the Performance Co-Pilot inference engine: it evaluates
// rules over performance metrics from PCP archives, pmcd on one or more
// hosts, or the embedded /proc collector, printing values and running
// actions. Output and messages follow PCP 6.0.3's pmie.
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gopcp/pmie/actions"
	"github.com/gopcp/pmie/actions/stomp"
	pmiedaemon "github.com/gopcp/pmie/daemon"
	"github.com/gopcp/pmie/daemon/fleet"
	"github.com/gopcp/pmie/daemon/wire"
	"github.com/gopcp/pmie/eval"
	_ "github.com/gopcp/pmie/internal/oneproc" // one processor, from the start (see run)
	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/internal/pcpopt"
	"github.com/gopcp/pmie/internal/pmprintf"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/source"
	"github.com/gopcp/pmie/rules"
	"github.com/gopcp/pmie/rules/agent"
)

const prog = "pmie"

// settings are the command line, interpreted.
type settings struct {
	archives   []string // in command line order, commas split
	host       string
	hostGiven  bool // -h (or $PCP_HOST), even of "" (no host)
	local      bool
	window     pmapi.WindowSpec // -S, -T, -A, -O
	interval   string
	timezone   string
	hostzone   bool
	configFile string
	files      []string
	check      bool
	interact   bool // -d: pmie's debugger
	checkUnits bool
	strict     bool // --werror
	logfile    string
	buffer     bool
	showTime   bool
	quiet      bool
	verbose    int
	foreground bool   // -f
	primary    bool   // -P
	systemd    bool   // -F
	user       bool   // -U
	userName   string // -U's argument
	stompFile  string // -j's argument
	stompGiven bool   // -j, even of ""
	agent      bool   // -x: values to the summary PMDA (rules/agent)
	applet     bool   // -X: each evaluation's values on a line

	namespace *pmapi.Namespace // -n

	yamlFile     string // --yaml-config (or --route-alerts)
	replayAlerts bool   // --replay-alerts
	listen       string // --web.listen-address
	rawShell     bool   // --raw-shell-values
	shard        string // --shard I/N

	// msgs is libpcp's pmprintf buffer, through which pmie's option
	// errors, usage and pmNotifyErr lines go where $PCP_STDERR says
	msgs *pmprintf.Buffer
}

// prepare checks actions as rules are built: shell actions quote the
// values put into them, unless --raw-shell-values asks for pmie's way.
func (s settings) prepare() func(eval.Op, []string) eval.Prepared {
	if s.rawShell {
		return rules.PrepareRawShell
	}
	return rules.Prepare
}

// rawShellWarning is said whenever --raw-shell-values is on.
const rawShellWarning = "warning: --raw-shell-values: %h %i %v and %c go into shell actions unquoted; " +
	"a crafted instance or host name (a process name, a mount point) can run commands as this user\n"

// live reports whether pmie evaluates live sources.
func (s settings) live() bool { return len(s.archives) == 0 }

// daemon reports whether pmie runs as a daemon, as -l, -P, -F, -U and -x
// ask unless -f is given or archives are read: its standard output then
// goes to its log (except with -x, whose output is the summary PMDA's),
// and SIGHUP rotates the log (again not with -x).
func (s settings) daemon() bool {
	return s.live() && !s.foreground && (s.logfile != "" || s.primary || s.systemd || s.user || s.agent)
}

// mode is the restriction the command line puts on statements.
func (s settings) mode() eval.Mode {
	switch {
	case s.agent:
		return eval.ModeAgent
	case s.applet:
		return eval.ModeApplet
	}
	return eval.ModeNormal
}

// runAs is the user a daemon runs as: -U's (even empty, which no user
// is), else $PCP_USER, else (unset or empty) pcp, as libpcp's
// pmGetUsername has it.
func (s settings) runAs() string {
	if s.user {
		return s.userName
	}
	if u := pcpconf.Get("PCP_USER"); u != "" {
		return u
	}
	return "pcp"
}

// via is the default host's connection, as pmie names it in its log.
func (s settings) via() string {
	if s.hostGiven {
		return s.host
	}
	return "local:"
}

func main() {
	if os.Getenv("GOGC") == "" {
		// Start-up allocates most of what pmie holds, and evaluation
		// little: until live evaluation starts (see signals.sleep),
		// collect at thrice the heap last marked, not twice. Measured on
		// pmieconf's rules over the benchmark archive: no collection
		// instead of one, 11% less CPU and 0.5 MB less memory (a
		// collection's own structures outweigh what it frees).
		debug.SetGCPercent(200)
	}
	defer func() {
		// the last guard: a bug is reported as one line, never a stack
		// dump over the operator's terminal (output already written
		// has been flushed by run's own deferred calls)
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "%s: internal error: %v\n", prog, r)
			os.Exit(2)
		}
	}()
	realProcess = true
	sig := catchSignals()
	endProfiles := startProfiles()
	code := run(context.Background(), sig, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	endProfiles()
	os.Exit(code)
}

// parseArgs interprets the command line; ok is false when pmie stops
// there: a usage error, an error such as a namespace that will not load,
// or an archive that will not open. Messages are held in pmprintf's
// buffer until the end (then with the usage message, if any), unless
// libpcp flushes them sooner. Each archive of -a is
// given to openArchive as the option is read, as pmie opens it then: one
// that fails ends pmie there, with its error, the messages held lost.
func parseArgs(args []string, stderr io.Writer, openArchive func(string) error) (s settings, ok bool) {
	events, operands := pcpopt.Parse(args, shortOptions, optionTable)
	a := newArgParser(stderr, openArchive)
	for _, ev := range events {
		if err := a.option(ev); err != nil {
			io.WriteString(stderr, err.Error())
			return a.s, false
		}
	}
	a.endStandard()
	a.checkCombinations(operands)
	a.s.files = operands
	return a.finish()
}

// argParser is parseArgs at work: the settings so far, libpcp's standard
// options and whether an error was found.
type argParser struct {
	s           settings
	std         pcpopt.Standard
	bad         bool
	flags       map[byte]*bool // the setting each option without argument turns on
	stderr      io.Writer
	openArchive func(string) error
}

// newArgParser starts parseArgs: pmprintf's buffer and the standard
// options, which may say something of the environment already.
func newArgParser(stderr io.Writer, openArchive func(string) error) *argParser {
	a := &argParser{stderr: stderr, openArchive: openArchive}
	a.s.msgs = &pmprintf.Buffer{Prog: prog, Stderr: stderr}
	a.startStandard()
	s := &a.s
	a.flags = map[byte]*bool{'b': &s.buffer, 'C': &s.check, 'e': &s.showTime, 'f': &s.foreground,
		'F': &s.systemd, 'L': &s.local, 'P': &s.primary, 'q': &s.quiet}
	return a
}

// fail reports a usage error.
func (a *argParser) fail(msg string) {
	a.s.msgs.Print(prog + ": " + msg + "\n")
	a.bad = true
}

// startStandard starts libpcp's standard options (pmGetOptions): the
// time window, the interval and the zone, with their PCP_* defaults from
// the environment, and the archives or host the environment names.
func (a *argParser) startStandard() {
	a.std = pcpopt.Standard{Prog: prog, Stderr: a.stderr, Flush: func() error { a.flush(); return a.s.msgs.Flush() }}
	a.std.Environ(os.Environ())
	io.WriteString(a.stderr, a.std.Early)
	a.flush()
}

// flush moves the standard options' messages into pmprintf's buffer,
// noting whether they had an error.
func (a *argParser) flush() {
	for _, m := range a.std.Msgs {
		a.s.msgs.Print(m)
	}
	a.std.Msgs = nil
	a.bad = a.bad || a.std.Errors > 0
}

// option takes one option of the command line. Its error, an archive of
// -a that will not open, ends pmie there.
func (a *argParser) option(ev pcpopt.Event) error {
	s := &a.s
	if ev.Err != "" {
		a.fail(ev.Err)
		return nil
	}
	if f := a.flags[ev.Short]; f != nil {
		*f = true
		return nil
	}
	switch ev.Short {
	case 'A', 'S', 'T', 'O', 't', 'Z', 'z', 'D', 'n':
		a.std.Apply(ev)
		a.flush()
	case 'a':
		return a.archives(ev.Arg)
	case 'U':
		s.user, s.userName = true, ev.Arg
	case 'j':
		s.stompFile, s.stompGiven = ev.Arg, true
	case 'h':
		if len(s.archives) > 0 || s.hostGiven {
			a.fail("at most one of -a or -h allowed")
			return nil
		}
		s.host, s.hostGiven = ev.Arg, true
	case 'c':
		if s.interact {
			a.fail("at most one of -c and -d allowed")
			return nil
		}
		s.configFile = ev.Arg
	case 'l':
		if s.logfile != "" {
			a.fail("at most one -l option is allowed")
			return nil
		}
		s.logfile = ev.Arg
	case 'v':
		s.verbose = 1
	case 'V':
		s.verbose = 2
	case 'W':
		s.verbose = 3
	case 'd':
		if s.configFile != "" {
			a.fail("at most one of -c and -d allowed")
			return nil
		}
		s.interact = true
	case 'x':
		s.agent = true
	case 'X':
		s.applet = true
	case '?':
		a.bad = true
	case 0:
		a.longOption(ev)
	}
	return nil
}

// archives opens each archive of -a's list (commas split it) as pmie
// does when it reads the option: the error of one that will not open is
// returned. -a implies -f.
func (a *argParser) archives(list string) error {
	s := &a.s
	if s.hostGiven {
		a.fail("at most one of -a or -h allowed")
		return nil
	}
	for _, name := range strings.Split(list, ",") {
		if err := a.openArchive(name); err != nil {
			return err
		}
		s.archives = append(s.archives, name)
	}
	s.foreground = true // as pmie's -a implies (so -F is refused)
	return nil
}

// longOption takes one of the long options that have no short one.
func (a *argParser) longOption(ev pcpopt.Event) {
	s := &a.s
	switch ev.Long {
	case "check-units":
		s.checkUnits = true
	case "werror":
		s.check, s.strict = true, true
	case "yaml-config", "route-alerts":
		s.yamlFile = ev.Arg
	case "web.listen-address":
		if err := wire.CheckListen(ev.Arg); err != nil {
			a.fail("--web.listen-address: " + err.Error())
		}
		s.listen = ev.Arg
	case "replay-alerts":
		s.replayAlerts = true
	case "raw-shell-values":
		s.rawShell = true
	case "shard":
		if _, err := fleet.ParseShard(ev.Arg); err != nil {
			a.fail("--shard: " + err.Error())
		}
		s.shard = ev.Arg
	}
}

// endStandard ends the standard options and takes the time window, the
// interval, the zone and the namespace they give, and the sources the
// environment names when the command line names none.
func (a *argParser) endStandard() {
	s, std := &a.s, &a.std
	// as pmie, which takes -a and -h itself, sets the context for
	// libpcp's last checks; without them, the environment's archives or
	// host (or, with -O alone, the local pmlogger's archives) are used
	switch {
	case len(s.archives) > 0:
		std.Context = pmapi.SourceArchive
	case s.hostGiven:
		std.Context = pmapi.SourceHost
	}
	std.Local = std.Local || s.local
	std.End()
	a.flush()
	s.window, s.interval = std.Window, std.Interval
	s.timezone, s.hostzone, s.namespace = std.TZ, std.HostZone, std.Namespace
	if len(s.archives) == 0 && !s.hostGiven && !s.local {
		switch std.Context {
		case pmapi.SourceArchive:
			// each one context, even a list (which -a splits)
			s.archives = std.Archives
		case pmapi.SourceHost:
			s.host, s.hostGiven = std.Hosts[0], true
		}
	}
}

// checkCombinations refuses the first of the options that do not go
// together, unless an error was found already.
func (a *argParser) checkCombinations(operands []string) {
	s := &a.s
	if !a.bad && s.configFile != "" && len(operands) > 0 {
		a.fail("extra filenames cannot be given after using -c")
	}
	if !a.bad && s.shard != "" && s.yamlFile == "" {
		a.fail("--shard needs --yaml-config (with a fleet)")
	}
	if !a.bad && s.replayAlerts && s.yamlFile == "" {
		a.fail("--replay-alerts needs --yaml-config")
	}
	if !a.bad && s.foreground && s.systemd {
		a.fail("the -f and -F options are mutually exclusive")
	}
	if !a.bad && s.buffer && s.agent {
		a.fail("the -b and -x options are incompatible")
	}
	if !a.bad && s.agent && (s.yamlFile != "" || s.listen != "") {
		a.fail("-x cannot be used with --yaml-config or --web.listen-address")
	}
}

// finish flushes the messages held, after an error with the usage
// message, and returns the settings and whether pmie goes on.
func (a *argParser) finish() (settings, bool) {
	if a.bad {
		if !a.std.RuntimeErr { // as pmUsageMessage: no usage after a run-time error
			a.s.msgs.Print(usage())
		}
		a.s.msgs.Flush()
		return a.s, false
	}
	a.s.msgs.Flush()
	return a.s, true
}

// run is pmie: it returns the exit status. sig, if not nil, brings it
// the process's signals.
func run(ctx context.Context, sig *signals, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// pmie opens its archives as it reads its options, before its log:
	// what goes wrong there, and what opening says (derived metrics'
	// errors), is said on stderr
	pid := os.Getpid()
	lg := &logger{w: stderr, pid: pid}
	early := newSources(lg)
	defer early.close()
	s, ok := parseArgs(args, stderr, early.openArchive)
	if !ok {
		return 1
	}
	// $PCP_COUNTER_WRAP, set to anything, has a counter that went
	// backwards taken as wrapped
	_, wrap := os.LookupEnv("PCP_COUNTER_WRAP")
	eval.SetCounterWrap(wrap)
	// pmie starts on one processor, which internal/oneproc asks for
	// while packages are initialised (unless $GOMAXPROCS is set). Live,
	// it stays there: pmie waits for its sources and its schedule, and
	// the runtime then keeps no second thread spinning for work at each
	// wake-up (about a fifth of the CPU time of 250 rules at 100 msec).
	// From archives, it takes a second processor once the rules are
	// loaded (archiveProcs), so that the archive's fetcher runs ahead of
	// the evaluation beside it (rules/pipeline.go).
	if !daemonize(s, pid, stderr) {
		return 1
	}
	// the environment's archives, which pmie opens once its options
	// are read
	if len(s.archives) > 0 {
		if _, err := openSources(s, early, lg); err != nil {
			fmt.Fprint(stderr, err)
			return 1
		}
	}
	sv := &service{}
	defer sv.stop()
	var logf *logFile
	if s.logfile != "" {
		var err error
		logf, err = openLog(s.logfile, stderr, s.msgs)
		defer logf.close()
		if err != nil {
			fmt.Fprintf(logf, "%v\n", err)
			return 1
		}
		stderr = logf
		sig.setUp(stderr, func() { sv.stop(); logf.close() }, cancel)
	} else {
		sig.setUp(stderr, sv.stop, cancel)
	}
	if s.buffer || (s.daemon() && !s.agent) {
		stdout = stderr
	}
	if s.daemon() && s.agent {
		// pmie closes its standard input, before reading its rules
		stdin = strings.NewReader("")
		if realProcess {
			os.Stdin.Close()
		}
	}
	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()
	said := &countWriter{w: stderr} // for --werror
	msgs := &syncWriter{w: said}
	stderr = &flushFirst{out: out, w: msgs}
	sv.start(s)
	lg.w, lg.pm = stderr, s.msgs
	var src *sources
	if early.archive {
		src = early
	}
	p := &session{s: s, sig: sig, out: out, stderr: stderr, msgs: msgs, log: lg, src: src,
		sv: sv, stats: rules.NewStats()}
	p.hosts = rules.NewHosts(p.log.notify, s.quiet)
	return p.start(ctx, stdin, logf, said)
}

// daemonize has pmie become a daemon, as the user it runs as, where s
// says it is one: before the log is opened, so that the log belongs to
// that user. It reports whether pmie goes on.
func daemonize(s settings, pid int, stderr io.Writer) bool {
	if !s.daemon() {
		return true
	}
	if err := becomeDaemon(s.runAs()); err != nil {
		(&logger{w: stderr, pid: pid, pm: s.msgs}).critical(err.Error())
		return false
	}
	return true
}

// start is pmie once its process, log and output are set up: it reads
// the daemon's configuration, opens the sources, loads the rules and
// then evaluates them (or only checks them, or runs the debugger). It
// returns the exit status; said counts what was said on standard error.
func (p *session) start(ctx context.Context, stdin io.Reader, logf *logFile, said *countWriter) int {
	if p.s.yamlFile != "" {
		if err := p.readDaemonConfig(); err != nil {
			fmt.Fprintf(p.stderr, "%s: %v\n", prog, err)
			return 1
		}
	}
	p.startLog(logf)
	if err := p.setUp(); err != nil {
		fmt.Fprint(p.stderr, err)
		return 1
	}
	defer p.src.close()
	if err := p.useDerived(); err != nil {
		fmt.Fprintf(p.stderr, "%s: %v\n", prog, err)
		return 1
	}
	if p.fleet() {
		return p.runFleet(ctx)
	}
	p.keyFiles = map[string]string{}
	comp := p.compiler()
	if status, stop := p.load(stdin, comp, said); stop {
		return status
	}
	if !p.startStomp() {
		return 1
	}
	// the client may be made later, by a stomp action that came with a
	// reload or the debugger's f: close the one there is at the end
	defer func() { p.stomp.Close() }()
	if p.s.agent && !p.startAgent(comp) {
		return 1
	}
	if p.s.interact {
		return p.interact(ctx, stdin, comp)
	}
	return p.evaluate(ctx)
}

// startLog says in the log, live with -l, what pmie runs as (not for the
// debugger), warns of --raw-shell-values, makes PCP's stats file (which
// names the log) and has SIGHUP rotate a daemon's log.
func (p *session) startLog(logf *logFile) {
	s := p.s
	if s.logfile != "" && s.live() && !s.interact {
		primary := ""
		if s.primary {
			primary = " [primary]"
		}
		fmt.Fprintf(p.stderr, "%s: PID = %d, via %s%s\n\n", prog, p.log.pid, s.via(), primary)
	}
	if s.rawShell {
		io.WriteString(p.stderr, prog+": "+rawShellWarning)
	}
	p.sv.openStats(s, logf.realName(), p.stats, p.stderr)
	if logf != nil && s.daemon() && !s.agent {
		p.sig.hangups(func() { logf.rotate(p.log.pid, s.via(), p.log) })
	} else {
		p.sig.hangups(nil)
	}
}

// load loads the rules with comp and tells PCP's service files where
// they come from. stop says that pmie ends there, with status: the rules
// did not load, or they were only to be checked.
func (p *session) load(stdin io.Reader, comp *eval.Compiler, said *countWriter) (status int, stop bool) {
	p.agentContexts()
	loaded, lastBad := loadRules(p.s, comp, p.src, stdin, p.stderr, func(file string, r *eval.Rule) {
		if r != nil {
			p.keyFiles[r.Key] = file
		}
		if p.contexts != nil {
			p.contexts.Statement(r, comp.B.MetricInits())
		}
	})
	if !loaded {
		p.out.Flush()
		if p.src.fatal != nil {
			fmt.Fprint(p.stderr, p.src.fatal)
		}
		return 1, true
	}
	p.markDerivedRules()
	p.sv.setConfig(firstConfig(p.s))
	p.sv.setHost(p.src.hostOf(p.src.dflt))
	return p.checked(checkUnits(p.program, p.stderr), lastBad, said)
}

// checked is the answer of pmie's checks, --werror (anything said on
// standard error, counted by said), --check-units (mixed, the rules that
// mix units) and -C (lastBad, the last statement had an error): stop says
// that pmie ends there, with status.
func (p *session) checked(mixed int, lastBad bool, said *countWriter) (status int, stop bool) {
	s := p.s
	switch {
	case s.strict && said.n > 0:
		return 1, true
	case s.checkUnits && mixed > 0:
		return 1, true
	case s.check && lastBad:
		// pmie's -C status: whether the last statement parsed had an error
		return 1, true
	case s.checkUnits || s.check:
		return 0, true
	}
	return 0, false
}

// session is one run of pmie: its sources, time, and the rules loaded.
type session struct {
	s      settings
	sig    *signals
	out    *bufio.Writer
	stderr io.Writer   // for messages from the main goroutine
	msgs   *syncWriter // for messages from others
	log    *logger
	hosts  *rules.Hosts // what has been said of live hosts

	src   *sources
	loc   *time.Location
	delta float64 // default sample interval, seconds
	now   float64 // when evaluation would start by default
	rt    *eval.Runtime

	b        *eval.Builder
	program  *eval.Program
	keyFiles map[string]string // the file of each rule, by key

	sv    *service     // PCP's service files
	stats *rules.Stats // the engine's counts

	dcfg       *wire.Settings // --yaml-config's
	dyaml      []byte         // its contents
	yamlRules  bool           // the rule files are the daemon configuration's
	derivedSum []byte         // contents of the derived files in use
	cur        atomic.Pointer[sources]
	forks      []*sources // sources made by reloads (engine's goroutine)
	helpers    helperSet  // pmie-notify, as started

	stomp      *stomp.Client // the JMS server's, for stomp actions
	stompTried bool          // its configuration was read after start-up

	contexts *agent.Contexts // -x: pmie's PMAPI contexts, for the PDUs
	agent    *agent.Writer   // -x: what the summary PMDA is sent
}

// fleet reports whether pmie evaluates a fleet (the daemon
// configuration's fleet section).
func (p *session) fleet() bool { return p.dcfg != nil && p.dcfg.Fleet != nil && len(p.s.archives) == 0 }

// setUp opens the sources and works out the time zone, the default
// interval and the time window, as pmie does before reading rules.
func (p *session) setUp() error {
	s := p.s
	var err error
	if p.fleet() {
		// each member names its host: there is no default one
		p.src = &sources{opener: &source.Opener{}, meta: map[string]*metaSource{}, handed: map[string]bool{},
			log: p.log, first: -1, ns: s.namespace}
		if s.hostzone {
			return fmt.Errorf("%s: -z cannot be used with a fleet (its hosts may be in several time zones)\n", prog)
		}
	} else if p.src == nil {
		if p.src, err = openSources(s, nil, p.log); err != nil {
			return err
		}
	}
	p.cur.Store(p.src)
	if p.loc, err = p.src.zone(s, p.out); err != nil {
		return err
	}
	p.out.Flush() // as pmie's line buffering would, before an interrupt
	p.delta = 10
	if s.interval != "" {
		if p.delta, err = intervalSeconds(s.interval); err != nil {
			return fmt.Errorf("%s: -t argument not in pmParseInterval(3) format:\n%v\n", prog, err)
		}
	}
	p.rt = &eval.Runtime{Clock: eval.NewClock()}
	p.now = p.src.first
	if !p.src.archive {
		p.now = float64(time.Now().UnixNano()) / 1e9
	}
	p.rt.Clock.Reflect(p.now, p.delta, calendar(p.loc))
	_, err = p.src.window(s, p.now, p.loc)
	return err
}

// compiler makes a new program and the compiler that fills it.
func (p *session) compiler() *eval.Compiler {
	p.b = p.builder(p.src, p.hosts)
	p.program = &eval.Program{}
	return &eval.Compiler{B: p.b, Prog: p.program, Delta: p.delta, Clock: p.rt.Clock, Mode: p.s.mode()}
}

// builder makes the builder that binds rules to the metrics of src, with
// the settings of the command line (how shell actions take values:
// --raw-shell-values), at start-up and at every reload alike. Live
// hosts that cannot be reached are reported to hosts, if not nil.
func (p *session) builder(src *sources, hosts *rules.Hosts) *eval.Builder {
	return &eval.Builder{Env: src.env(p.rt, hosts), Prepare: p.s.prepare()}
}

// evaluate runs the rules over the time window and returns pmie's exit
// status.
func (p *session) evaluate(ctx context.Context) int {
	s, src := p.s, p.src
	w, err := src.window(s, p.now, p.loc)
	if err != nil {
		fmt.Fprint(p.stderr, err)
		return 1
	}
	runner, cfg := p.engineConfig(w)
	var d *pmiedaemon.Daemon
	if p.dcfg != nil || s.listen != "" {
		if d, err = p.startDaemon(runner, &cfg); err != nil {
			fmt.Fprintf(p.stderr, "%s: %v\n", prog, err)
			return 1
		}
		defer func() {
			p.out.Flush()
			if err := d.Close(context.Background()); err != nil {
				p.log.notify(rules.Error, err.Error())
			}
		}()
	}
	defer func() {
		for _, f := range p.forks {
			f.close()
		}
	}()
	if p.dcfg != nil && p.dcfg.StateFile != "" && !src.archive {
		st := loadState(p.dcfg.StateFile, p.log.notify)
		st.restore(p.program.Rules)
		st.observe(&cfg)
		p.helpers.resume(st, p.program.Rules)
		st.start(p.helpers.firing)
		defer st.close()
	}
	eng := rules.New(cfg, p.b, p.program)
	if !src.archive && !s.agent && (s.configFile != "" || len(s.files) > 0) {
		// (not under -x: the summary PMDA takes each metric's
		// descriptor once, and pmie has no reload)
		stopReload := p.startReloads(ctx, eng, d)
		defer stopReload()
	}
	if src.archive {
		p.sig.enter(phaseArchive)
		archiveProcs()
	}
	if status, stop := p.ran(eng.Run(ctx), eng.Tasks()); stop {
		return status
	}
	if s.systemd && realProcess {
		sdNotify("STOPPING=1")
	}
	return 0
}

// ran ends a run of the engine's tasks that returned err: it says what
// failed, or that the evaluator is exiting. stop says that pmie ends, with
// status, after a failure or a signal.
func (p *session) ran(err error, tasks int) (status int, stop bool) {
	p.out.Flush()
	if status, ok := agentStopped(err, p.stderr); ok {
		return status, true
	}
	if err != nil {
		fmt.Fprintf(p.stderr, "%s: %s\n", prog, errorText(err))
		return 1, true
	}
	if sig, ok := p.sig.stopped(); ok {
		return exitStatus(sig), true
	}
	if !p.s.quiet && tasks > 0 {
		p.log.notify(rules.Info, "evaluator exiting")
	}
	return 0, false
}

// engineConfig is how the engine runs the rules over the time window w,
// and the runner of their actions.
func (p *session) engineConfig(w span) (*actions.Runner, rules.Config) {
	s, src := p.s, p.src
	ctime := newCtime(p.loc)
	runner := &actions.Runner{Replay: src.archive, Out: p.out, Ctime: ctime,
		Log:          func(msg string) { p.log.notify(rules.Error, msg) },
		Syslog:       (&actions.SystemLog{}).Send,
		AlarmProgram: pcpconf.Get("PCP_XCONFIRM_PROG"),
		Stomp:        p.sendStomp}
	p.rt.Act = rules.Actor(runner)
	return runner, rules.Config{
		Archive: src.archive, Start: w.start, Stop: w.stop,
		Verbose: s.verbose, ShowTime: src.archive || s.showTime, Quiet: s.quiet,
		Applet: s.applet, Report: p.report(),
		Out:        p.out,
		TimeString: func(sec float64) string { return ctime(int64(sec)) },
		Calendar:   calendar(p.loc),
		Open:       p.open,
		Now:        time.Now,
		Sleep:      p.sig.sleep,
		Notify:     p.log.notify,
		Hosts:      p.hosts,
		Stats:      p.stats,
	}
}

// archiveProcs gives an archive replay two processors where the machine
// has them, unless $GOMAXPROCS chose the number or pmie runs inside
// another program (its tests): the fetcher runs on one and the
// evaluation on the other. Measured on the benchmark
// (../shared/tools/bench-vs-pmie.sh's archive and rules, 2 processors, 31
// interleaved runs): 60.1 ms of wall time and 60.5 ms of CPU on one, 39.1
// ms and 65.9 ms on two; pmieconf's rules (30 runs) 27.6 ms and 29.4 ms on
// one, 22 ms and 23-26 ms on two.
func archiveProcs() {
	if realProcess && os.Getenv("GOMAXPROCS") == "" && runtime.NumCPU() > 1 {
		runtime.GOMAXPROCS(2)
	}
}

// calendar breaks times into the fields of pmie's reserved variables in
// the reporting zone.
func calendar(loc *time.Location) eval.Calendar {
	return func(sec int64) (int, int, int, int, int, int, int) {
		t := time.Unix(sec, 0).In(loc)
		return t.Second(), t.Minute(), t.Hour(), t.Day(), int(t.Month()) - 1, t.Year(), int(t.Weekday())
	}
}
