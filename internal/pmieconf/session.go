package pmieconf

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gopcp/pmie/pmapi"
)

// HelpText is pmieconf's list of commands, as "help" prints it.
const HelpText = "  1. help  [ { . | all | global | <rule> | <group> } [<variable>] ]\n" +
	"               descriptive text on one or more variables or rules\n" +
	"  2. rules  [ enabled | disabled ]\n" +
	"               list of available, enabled, or disabled rules\n" +
	"  3. groups    list of available groups of rules\n" +
	"  4. status    print status information\n" +
	"  5. enable  { . | all | <rule> | <group> }\n" +
	"               switch evaluation on for given rule(s)\n" +
	"  6. disable  { . | all | <rule> | <group> }\n" +
	"               switch evaluation off for given rule(s)\n" +
	"  7. list  { . | all | global | <rule> | <group> } [<variable>]\n" +
	"               print values of variables for given rule(s)\n" +
	"  8. modify  { . | all | global | <rule> | <group> } <variable> <value>\n" +
	"               change the value of a rule variable\n" +
	"  9. undo  { . | all | global | <rule> | <group> } [<variable>]\n" +
	"               revert to default value of rule variable\n" +
	" 10. verbose  [ { on | off } ]\n" +
	"               change amount of info displayed ('*' denotes global variables)\n" +
	" 11. quit      save changes then exit\n" +
	" 12. abort     discard changes then exit"

// Session runs pmieconf's commands on a rule set and the pmie file made
// from it.
type Session struct {
	Set      *Set
	File     string // the pmie file
	Resolved bool   // File has been made absolute and free of links
	Program  string // named in the generated file and in messages
	Auto     bool   // -c: the file is "Auto-generated"
	// Interactive is set when commands come from a terminal: messages
	// are worded for a person and a change names the pmie processes
	// using the file. As in pmieconf, a session run with no command
	// counts as interactive until it starts reading commands.
	Interactive bool
	// Terminal is set when both commands and output are on a terminal:
	// error messages then go to Out, as "  Error - ...".
	Terminal bool
	// Pager, if set, pages output as pmieconf does on a terminal.
	Pager    *Pager
	Verbose  bool
	Out, Err io.Writer
	Now      func() time.Time
	// Processes lists the PIDs of the running pmie processes using a
	// configuration file.
	Processes func(file string) ([]string, error)
	// Conf is a PCP configuration variable (PCP_SYSCONF_DIR and
	// PCP_BINADM_DIR are named in the advice to restart pmie).
	Conf func(name string) string

	modified bool
	previous string // the rule or group named last, for "."
	quitDone bool
	quitOK   bool
}

func (s *Session) conf(name string) string {
	if s.Conf == nil {
		return ""
	}
	return s.Conf(name)
}

// w is where output goes that pmieconf pages on a terminal; what it
// prints with plain printf goes straight to Out.
func (s *Session) w() io.Writer {
	if s.Pager != nil {
		return s.Pager
	}
	return s.Out
}

// Command results.
const (
	cmdFailed = -1
	cmdOK     = 0
	cmdQuit   = 1
	cmdAbort  = 2
)

func (s *Session) errorf(format string, args ...any) {
	if s.Pager != nil {
		s.Pager.error(fmt.Sprintf(format, args...))
		return
	}
	if s.Terminal {
		fmt.Fprintf(s.Out, "  Error - %s\n", fmt.Sprintf(format, args...))
		return
	}
	fmt.Fprintf(s.Err, "%s: error - %s\n", s.Program, fmt.Sprintf(format, args...))
}

// errorMsg reports an error as pmieconf reports some of its messages:
// as a printf format (CFormat).
func (s *Session) errorMsg(err error) {
	s.errorf("%s", CFormat(err.Error()))
}

var commandNames = map[string]int{
	"help": 1, "h": 1, "?": 1, "rules": 2, "r": 2, "groups": 3, "g": 3,
	"status": 4, "s": 4, "enable": 5, "e": 5, "disable": 6, "d": 6,
	"list": 7, "l": 7, "modify": 8, "m": 8, "undo": 9, "u": 9,
	"verbose": 10, "v": 10, "quit": 11, "q": 11, "abort": 12, "a": 12,
}

// Run runs one command: args[0] is its name or number.
func (s *Session) Run(args []string) int {
	if len(args) == 0 {
		args = []string{""}
	}
	cmd := pmapi.Atoi(args[0])
	if cmd <= 0 || cmd > 12 {
		var ok bool
		if cmd, ok = commandNames[args[0]]; !ok {
			cmd = 0
		}
	}
	argv := append([]string(nil), args[1:]...)
	switch cmd {
	case 1:
		return s.help(argv)
	case 2:
		return s.rules(argv)
	case 3:
		return s.groups(argv)
	case 4:
		return s.status(argv)
	case 5, 6, 8:
		return s.modify(cmd, argv)
	case 7:
		return s.list(argv)
	case 9:
		return s.undo(argv)
	case 10:
		return s.verbose(argv)
	case 11:
		s.Quit()
		return cmdQuit
	case 12:
		return cmdAbort
	}
	s.errorf("unrecognised command \"%s\" - try \"help\"", args[0])
	return cmdFailed
}

// target resolves a rule or group argument, "." naming the last one.
func (s *Session) target(name string) ([]*Rule, string, error) {
	if name == "." {
		name = s.previous
	}
	rules, err := s.Set.Lookup(name)
	return rules, name, err
}

// argCount reports whether command cmd has from lo to hi arguments, and
// says which way it is wrong if not.
func (s *Session) argCount(cmd string, argv []string, lo, hi int) bool {
	switch {
	case len(argv) < lo:
		s.errorf("too few arguments for \"%s\" command", cmd)
	case len(argv) > hi:
		s.errorf("too many arguments for \"%s\" command", cmd)
	default:
		return true
	}
	return false
}

func (s *Session) help(argv []string) int {
	if len(argv) == 0 {
		io.WriteString(s.Out, HelpText+"\n")
		return cmdOK
	}
	if !s.argCount("help", argv, 0, 2) {
		return cmdFailed
	}
	rules, name, err := s.target(argv[0])
	if err != nil {
		s.errorMsg(err)
		return cmdFailed
	}
	sts := cmdOK
	for _, r := range rules {
		s.Set.printSummary(s.w(), r, "  rule: ")
		if len(argv) == 1 {
			printHelp(s.w(), r.Self.Help, r.Self.HasHelp)
		} else if err := s.Set.printVar(s.w(), r, argv[1], true); err != nil {
			s.errorf("%s", err)
			sts = cmdFailed
		}
	}
	s.previous = name
	return sts
}

func (s *Session) list(argv []string) int {
	if !s.argCount("list", argv, 1, 2) {
		return cmdFailed
	}
	rules, name, err := s.target(argv[0])
	if err != nil {
		s.errorMsg(err)
		return cmdFailed
	}
	sts := cmdOK
	for i, r := range rules {
		if len(argv) == 1 {
			if i > 0 {
				io.WriteString(s.w(), "\n")
			}
			s.Set.printRule(s.w(), r, s.Verbose)
			continue
		}
		s.Set.printSummary(s.w(), r, "  rule: ")
		if err := s.Set.printVar(s.w(), r, argv[1], false); err != nil {
			s.errorf("%s", err)
			sts = cmdFailed
		}
	}
	s.previous = name
	return sts
}

func (s *Session) rules(argv []string) int {
	if !s.argCount("rules", argv, 0, 1) {
		return cmdFailed
	}
	want := func(*Rule) bool { return true }
	if len(argv) == 1 {
		switch argv[0] {
		case "enabled":
			want = func(r *Rule) bool { return r.Self.Enabled }
		case "disabled":
			want = func(r *Rule) bool { return !r.Self.Enabled }
		default:
			s.errorf("invalid argument for \"rules\" command")
			return cmdFailed
		}
	}
	for _, r := range s.Set.Rules[1:] {
		if want(r) {
			s.Set.printSummary(s.w(), r, "  ")
		}
	}
	return cmdOK
}

func (s *Session) groups(argv []string) int {
	if !s.argCount("groups", argv, 0, 0) {
		return cmdFailed
	}
	last := ""
	for _, r := range s.Set.Rules[1:] {
		i := strings.IndexByte(r.Name(), '.')
		if i < 0 {
			continue
		}
		if g := r.Name()[:i]; g != last {
			last = g
			fmt.Fprintf(s.w(), "  %s\n", g)
		}
	}
	return cmdOK
}

func (s *Session) status(argv []string) int {
	if !s.argCount("status", argv, 0, 0) {
		return cmdFailed
	}
	on := 0
	for _, r := range s.Set.Rules[1:] {
		if r.Self.Enabled {
			on++
		}
	}
	var pids []string
	if s.Processes != nil {
		pids, _ = s.Processes(s.File)
	}
	what := "processes (PIDs)"
	if len(pids) == 1 {
		what = "process (PID)"
	}
	fmt.Fprintf(s.Out, "  verbose:  %s\n  enabled rules:  %d of %d\n  pmie configuration file:  %s\n  pmie %s using this file: ",
		onOff(s.Verbose), on, len(s.Set.Rules)-1, s.File, what)
	if len(pids) == 0 {
		io.WriteString(s.Out, " (none found)")
	}
	for _, p := range pids {
		io.WriteString(s.Out, " "+p)
	}
	io.WriteString(s.Out, "\n")
	return cmdOK
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (s *Session) verbose(argv []string) int {
	switch {
	case len(argv) == 0:
		fmt.Fprintf(s.Out, "  verbose:  %s\n", onOff(s.Verbose))
		return cmdOK
	case len(argv) > 1:
		s.errorf("too many arguments for \"verbose\" command")
		return cmdFailed
	case argv[0] == "on":
		s.Verbose = true
	case argv[0] == "off":
		s.Verbose = false
	default:
		s.errorf("invalid argument, expected \"on\" or \"off\"")
		return cmdFailed
	}
	return cmdOK
}

func tooFewMany(n, want int) string {
	if n < want {
		return "few"
	}
	return "many"
}

// modify runs modify, and enable and disable, its shorthands.
func (s *Session) modify(cmd int, argv []string) int {
	switch {
	case cmd == 8:
		if len(argv) != 3 {
			s.errorf("too %s arguments for \"modify\" command", tooFewMany(len(argv), 3))
			return cmdFailed
		}
	case len(argv) > 0 && argv[0] == "global":
		s.errorf("invalid argument - \"global\"")
		return cmdFailed
	default:
		word, value := "enable", "yes"
		if cmd == 6 {
			word, value = "disable", "no"
		}
		if len(argv) != 1 {
			// pmieconf checks for "global" in an argument it may not have.
			s.errorf("too %s arguments for \"%s\" command", tooFewMany(len(argv), 1), word)
			return cmdFailed
		}
		argv = []string{argv[0], "enabled", value}
	}
	target, variable, value := argv[0], argv[1], argv[2]
	if target == "." {
		target = s.previous
	}
	if a := lookupAttr(variable); a != attrNone && a != attrEnabled {
		s.errorf("no change - variable \"%s\" is always readonly", variable)
		return cmdFailed
	}
	rules, err := s.Set.Lookup(target)
	if err != nil {
		s.errorMsg(err)
		return cmdFailed
	}
	for _, r := range rules {
		next, err := s.Set.Change(r, variable, value)
		if err != nil {
			s.errorf("change aborted - %s", err)
			return cmdFailed
		}
		value = next
	}
	s.modified = true
	s.previous = target
	return cmdOK
}

func (s *Session) undo(argv []string) int {
	if !s.argCount("undo", argv, 1, 2) {
		return cmdFailed
	}
	rules, name, err := s.target(argv[0])
	if err != nil {
		s.errorMsg(err)
		return cmdFailed
	}
	for _, r := range rules {
		if len(argv) == 2 {
			// "undo rule ''" names a variable, one that is not there
			s.Set.ResetVar(r, argv[1])
		} else if err := s.Set.Reset(r); err != nil {
			s.errorMsg(err)
			return cmdFailed
		}
	}
	s.previous = name
	s.modified = true
	return cmdOK
}

// Quit writes the pmie file if anything changed (once, however often it
// is called) and, in an interactive session, names the pmie processes
// that need restarting. It reports false if the file could not be
// written.
func (s *Session) Quit() bool {
	if s.quitDone {
		return s.quitOK
	}
	s.quitDone = true
	if s.modified && !s.Write() {
		return false
	}
	if s.modified && s.Interactive && s.Processes != nil {
		s.restartAdvice()
	}
	s.quitOK = true
	return true
}

func (s *Session) restartAdvice() {
	pids, err := s.Processes(s.File)
	if err != nil {
		s.errorMsg(err)
		return
	}
	if len(pids) == 0 {
		return
	}
	es, which := "es", "these processes"
	if len(pids) == 1 {
		es, which = "", "this process"
	}
	fmt.Fprintf(s.w(), "  %s is in use by %d running pmie process%s:\n\t", s.File, len(pids), es)
	for _, p := range pids {
		fmt.Fprintf(s.w(), "%s ", p)
	}
	fmt.Fprintf(s.w(), "\n  Restart %s for the configuration change to take effect.", which)
	io.WriteString(s.w(), "\n  o  Use kill(1) to stop; e.g.\tkill -INT ")
	for _, p := range pids {
		fmt.Fprintf(s.w(), "%s ", p)
	}
	fmt.Fprintf(s.w(), "\n  o  Refer to pmie_check(1) for a convenient mechanism for restarting pmie\n"+
		"     daemons launched under the control of %s/pmie/control;\n"+
		"     e.g.\t%s/pmie_check -V\n", s.conf("PCP_SYSCONF_DIR"), s.conf("PCP_BINADM_DIR"))
}

// Write writes the pmie file, making its directory if need be, then
// reports any rules found deprecated. It reports false (having said why)
// on failure.
func (s *Session) Write() bool {
	if err := s.writeFile(); err != nil {
		s.errorMsg(err)
		return false
	}
	dep := s.Set.TakeDeprecated()
	if len(dep) == 0 {
		return true
	}
	if s.Interactive {
		io.WriteString(s.w(), "  Warning - some rules have been deprecated:\n")
	} else {
		fmt.Fprintf(s.w(), "%s: some rules have been deprecated:\n", s.Program)
	}
	for _, d := range dep {
		fmt.Fprintf(s.w(), "    %s (deprecated, %s)\n", d.Name, d.Reason)
	}
	fmt.Fprintf(s.w(), "\n  See %s for details\n", s.File)
	return true
}

func (s *Session) writeFile() error {
	if i := strings.LastIndexByte(s.File, '/'); i >= 0 {
		dir := s.File[:i]
		if fi, err := os.Stat(dir); err != nil {
			os.MkdirAll(dir, 0o777) // as "mkdir -p", whose failure shows when the file is opened
		} else if !fi.IsDir() {
			// pmieconf names the part after the directory, which it has
			// just cut off.
			return cerror(`"" exists and is not a directory`)
		}
	}
	f, err := os.OpenFile(s.File, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return cerrorf("cannot write file %s: %s", s.File, Strerror(err))
	}
	if !s.Resolved {
		abs, err := Realpath(s.File)
		if err != nil {
			f.Close()
			return cerrorf("failed to resolve %s realpath: %s", s.File, Strerror(err))
		}
		s.File, s.Resolved = abs, true
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	err = s.Set.Generate(f, s.Program, s.Auto, now(), s.Err)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
