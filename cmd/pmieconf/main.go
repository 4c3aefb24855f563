// Command pmieconf shows and changes the variables of pmie rule
// templates and generates pmie configuration files from them, as PCP
// 6.0.3's pmieconf(1) does, with the same output.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/gopcp/pmie/internal/cstdio"
	_ "github.com/gopcp/pmie/internal/hugeheap" // huge pages for the heap: one fault for 2 MB
	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/internal/pcpopt"
	"github.com/gopcp/pmie/internal/pmieconf"
	"github.com/gopcp/pmie/internal/pmprintf"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/pmapi"
)

const synopsis = "[options] [ command [args...] ]"

const shortOpts = "cFf:r:v?"

var options = []pcpopt.Option{
	pcpopt.Header("Options"),
	{Short: 'c', Help: "an automated pmie configuration by the system"},
	{Long: "force", Short: 'F', Help: "force creation/update of pmie file, then exit"},
	{Long: "config", HasArg: true, Short: 'f', ArgName: "FILE", Help: "location of generated pmie configuration file"},
	{Long: "rules", HasArg: true, Short: 'r', ArgName: "PATH", Help: "path specifying groups of rule files"},
	{Long: "verbose", Short: 'v', Help: "increase level of diagnostics"},
	{Long: "help", Short: '?', Help: "show this usage message and exit"},
}

// Env is what pmieconf takes from the process, so tests can run it.
type Env struct {
	Args []string
	// LookupEnv reads the environment: a variable may be set but empty.
	LookupEnv func(string) (string, bool)
	Uid       int
	Stdin     io.Reader
	// StdinTTY and StdoutTTY say whether the streams are terminals.
	StdinTTY, StdoutTTY bool
	// Pager pages output on the terminal, given the writer it shows
	// output on; nil to leave output unpaged.
	Pager          func(io.Writer) *pmieconf.Pager
	Stdout, Stderr io.Writer
}

func main() {
	// As with stdio, output to a terminal is seen at once; otherwise it
	// is buffered.
	out := bufio.NewWriterSize(os.Stdout, 8192)
	var stdout io.Writer = out
	if cstdio.IsTerminal(os.Stdout) {
		stdout = os.Stdout
	}
	env := Env{Args: os.Args, LookupEnv: os.LookupEnv, Uid: os.Getuid(), Stdin: os.Stdin,
		StdinTTY: cstdio.IsTerminal(os.Stdin), StdoutTTY: cstdio.IsTerminal(os.Stdout), Stdout: stdout, Stderr: os.Stderr}
	env.Pager = func(w io.Writer) *pmieconf.Pager {
		rows, cols := termSize(os.Stdin)
		return &pmieconf.Pager{Out: w, Rows: rows, Cols: cols, ReadKey: func() (byte, bool) { return readKey(os.Stdin) }}
	}
	code := run(env)
	out.Flush()
	os.Exit(code)
}

// options as given on the command line.
type opts struct {
	auto, force, verbose bool
	file, rules          string
	haveFile, haveRules  bool
	command              []string
}

// parseArgs reads the command line: ok is false, after the messages and
// the usage message, when it is wrong.
func parseArgs(env Env, prog string) (o opts, ok bool) {
	// libpcp's pmprintf and pmflush: messages go where $PCP_STDERR says
	msgs := &pmprintf.Buffer{Prog: prog, Stderr: env.Stderr, LookupEnv: env.LookupEnv}
	bad := false
	evs, operands := pcpopt.Parse(env.Args[1:], shortOpts, options)
	for _, ev := range evs {
		if ev.Err != "" {
			msgs.Print(prog + ": " + ev.Err + "\n")
			bad = true
			continue
		}
		switch ev.Short {
		case 'c':
			o.auto = true
		case 'F':
			o.force = true
		case 'f':
			o.file, o.haveFile = ev.Arg, true
		case 'r':
			o.rules, o.haveRules = ev.Arg, true
		case 'v':
			o.verbose = true
		default:
			bad = true
		}
	}
	if o.force && len(operands) > 0 {
		msgs.Print(prog + ": cannot use -F option with a command\n")
		operands = nil
		bad = true
	}
	if len(operands) > 5 {
		msgs.Print(prog + ": too many arguments\n")
		bad = true
	}
	if len(operands) > 5 {
		operands = operands[:5]
	}
	for i, a := range operands {
		if len(a) > 1025 {
			operands[i] = a[:1025]
		}
	}
	o.command = operands
	if bad {
		msgs.Send(pcpopt.Usage(prog, synopsis, options) + "\nCommands:\n" + pmieconf.HelpText + "\n")
		return o, false
	}
	return o, true
}

// progName is the program's name, as pmieconf takes it from argv[0].
func progName(arg0 string) string {
	if i := strings.LastIndexByte(arg0, '/'); i >= 0 {
		return arg0[i+1:]
	}
	return arg0
}

// exitStatus, panicked, ends run with that status, as exit(3) ends
// pmieconf wherever it is.
type exitStatus int

// run is pmieconf: it returns the exit status.
func run(env Env) (code int) {
	defer catchExit(&code)
	prog := progName(env.Args[0])
	o, ok := parseArgs(env, prog)
	if !ok {
		return 1
	}
	c := &command{env: env, prog: prog, o: o, conf: pmConfig(env)}
	c.s = c.session()
	warning, err := c.load()
	if err != nil {
		return c.fail(err)
	}
	if len(c.s.Set.Rules) <= 1 {
		fmt.Fprintf(env.Stderr, "%s: no rules were found using rule path: %s\n", prog, c.rules)
		return 1
	}
	if o.force || warning != "" {
		if !c.s.Write() {
			return 1
		}
		if o.force {
			return 0
		}
	}
	return c.commands()
}

// catchExit, deferred by run, sets its status to that of an exitStatus
// panic; any other panic goes on.
func catchExit(code *int) {
	if r := recover(); r != nil {
		st, ok := r.(exitStatus)
		if !ok {
			panic(r)
		}
		*code = int(st)
	}
}

// pmConfig is pmGetConfig for env: the first look-up reads pcp.conf, and
// one that cannot be read ends pmieconf there, as in libpcp.
func pmConfig(env Env) func(string) string {
	cfg := pcpconf.New(env.LookupEnv)
	return func(name string) string {
		v, err := cfg.Get(name)
		if err != nil {
			io.WriteString(env.Stderr, err.Error())
			panic(exitStatus(1))
		}
		return v
	}
}

// command is one run of pmieconf, past its options.
type command struct {
	env   Env
	prog  string
	o     opts
	conf  func(string) string // pmGetConfig
	s     *pmieconf.Session
	rules string // the rule path, as pmieconf keeps it
}

// fail reports err, as the templates' own diagnostics or as pmieconf's
// errors, and returns the exit status.
func (c *command) fail(err error) int {
	var diag *lang.Diagnostic
	if errors.As(err, &diag) {
		fmt.Fprintf(c.env.Stderr, "%s: %s\n", c.prog, err)
	} else {
		fmt.Fprintf(c.env.Stderr, "%s: error - %s\n", c.prog, pmieconf.CFormat(err.Error()))
	}
	return 1
}

// session makes the session of the options given: interactive, until
// its commands are read, when no command nor -c is given; with ctime's
// zone, $TZ; finding pmie processes in $PCP_TMP_DIR.
func (c *command) session() *pmieconf.Session {
	env, o := c.env, c.o
	s := &pmieconf.Session{Program: c.prog, Auto: o.auto, Verbose: o.verbose,
		Interactive: len(o.command) == 0 && !o.auto,
		Out:         env.Stdout, Err: env.Stderr,
		Conf: c.conf}
	if tz, _ := env.LookupEnv("TZ"); tz != "" {
		// ctime(3)'s zone, which may be a POSIX rule ("JST-9") that
		// Go's time.Local does not read
		loc := pmapi.LoadTZ(tz)
		s.Now = func() time.Time { return time.Now().In(loc) }
	}
	s.Processes = func(file string) ([]string, error) { return pmieconf.PmieProcesses(c.conf("PCP_TMP_DIR"), file) }
	return s
}

// load finds the pmie file, loads the rule templates and reads the pmie
// file back into them. It returns the warning reading the file gave, if
// any (the file is then written again).
func (c *command) load() (warning string, err error) {
	if err := locateFile(c.env, c.o, c.conf, c.s); err != nil {
		return "", err
	}
	c.rules = pmieconf.CutPath(rulesPath(c.env, c.o, c.conf, c.prog))
	set, err := pmieconf.Load(c.rules)
	if err != nil {
		return "", err
	}
	c.s.Set = set
	return readSaved(c.s)
}

// commands runs the commands, of the command line or else of standard
// input, and returns the exit status.
func (c *command) commands() int {
	s, env := c.s, c.env
	if len(c.o.command) == 0 && !c.o.auto {
		// Until now a session without a command counts as interactive;
		// from here on only if its commands come from a terminal.
		s.Interactive = env.StdinTTY
		s.Terminal = env.StdinTTY && env.StdoutTTY
		if s.Terminal && env.Pager != nil {
			s.Pager = env.Pager(env.Stdout)
		}
		return s.Interact(env.Stdin)
	}
	if s.Run(c.o.command) == -1 {
		return 1
	}
	if !s.Quit() {
		return 1
	}
	return 0
}

// rulesPath is where the rule templates are: -r PATH, else
// $PMIECONF_PATH (when set, even empty), else PCP's template directory, or, when PCP's is not
// there (PCP not installed), the built-in templates, with a note saying
// so.
func rulesPath(env Env, o opts, conf func(string) string, prog string) string {
	if o.haveRules {
		return o.rules
	}
	if rules, ok := env.LookupEnv("PMIECONF_PATH"); ok {
		return rules
	}
	rules := conf("PCP_VAR_DIR") + "/config/pmieconf"
	if _, err := os.Stat(rules); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(env.Stderr, "%s: no rule templates in %s (PCP not installed?): using the built-in templates (-r %s)\n",
			prog, rules, pmieconf.BuiltinPath)
		return pmieconf.BuiltinPath
	}
	return rules
}

// locateFile sets the pmie file: -f FILE, else the default, which for
// root is the system's and for others is in their home directory ($HOME
// may be empty, but must be set).
func locateFile(env Env, o opts, conf func(string) string, s *pmieconf.Session) error {
	if env.Uid != 0 {
		home, ok := env.LookupEnv("HOME")
		if !ok {
			return errors.New("$HOME undefined in environment")
		}
		s.File = o.file
		if !o.haveFile {
			s.File = home + "/.pcp/pmie/config.pmie"
		}
		return nil
	}
	switch {
	case !o.haveFile && o.auto:
		s.File = conf("PCP_VAR_DIR") + "/config/pmie/config.default"
	case !o.haveFile:
		s.File = conf("PCP_SYSCONF_DIR") + "/pmie/config.default"
	default:
		path, err := pmieconf.Realpath(o.file)
		switch {
		case err == nil:
			s.File, s.Resolved = path, true
		case errors.Is(err, fs.ErrNotExist):
			s.File = path // the path resolved as far as it exists
		default:
			return pmieconf.Errorf("failed to resolve realpath for %s: %s", o.file, pmieconf.Strerror(err))
		}
	}
	return nil
}

// readSaved reads back the pmie file if there is one: as many bytes as
// fstat says it has, as pmieconf reads it, so that a device or a FIFO
// (size 0) is an empty file rather than a read without end.
func readSaved(s *pmieconf.Session) (string, error) {
	src, err := pmieconf.ReadSized(s.File)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if errors.Is(err, syscall.EISDIR) {
		return "", pmieconf.BadHeader(s.File)
	}
	if err != nil {
		return "", pmieconf.Errorf("cannot open %s: %s", s.File, pmieconf.Strerror(err))
	}
	return s.Set.ReadSaved(s.File, src)
}
