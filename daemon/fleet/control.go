package fleet

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/internal/pcpopt"
)

// PCP's farm is described by control files that pmie_check(1) reads: the
// file given (by default $PCP_PMIECONTROL_PATH, /etc/pcp/pmie/control)
// and then every file of the directory of the same name with ".d" added,
// in the C locale's order. Each line is a comment (#), a variable
// assignment ($name=value, in force for the lines after it, in this and
// later files; $version says the format, $class the class of pmiectl(1))
// or one pmie:
//
//	host primary(y|n) socks(y|n) logfile args...
//
// (format 1.0 has no primary field). PCP_LOG_DIR anywhere in a line is
// replaced by its value, LOCALHOSTNAME in the log file's name by this
// machine's name, and a host of LOCALHOSTNAME by local:. pmie_check
// starts "pmie -b -h host -l logfile args" in the log file's directory,
// so a relative rule file (-c) is found there or, if it is a bare name,
// in $PCP_VAR_DIR/config/pmie.
//
// ReadControl reads them the same way, with pmie_check's checks and its
// words for what is wrong. The primary pmie (primary y) is left to
// pmie.service, as PCP's pmie_farm does (pmie_check -p); a host behind
// pmsocks is reached without it, as pmie_check does where pmsocks is not
// installed.

// Env is what control files are read with: PCP's variables and this
// machine's name. The zero Env reads them from PCP's configuration.
type Env struct {
	LogDir   string // $PCP_LOG_DIR
	VarDir   string // $PCP_VAR_DIR
	Hostname string // for LOCALHOSTNAME
}

// ControlDir is the directory of further control files beside file.
func ControlDir(file string) string { return file + ".d" }

// ControlFiles are the files ReadControl reads for file: file itself,
// then those of ControlDir(file) in order (backup copies left by
// package managers aside).
func ControlFiles(file string) []string {
	out := []string{file}
	dir := ControlDir(file)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	var names []string
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names) // byte order, as LC_COLLATE=POSIX sort
	for _, n := range names {
		out = append(out, filepath.Join(dir, n))
	}
	return out
}

// ReadControl reads the control file file and those of its ".d"
// directory, returning the members they describe and what is wrong with
// them. A file that cannot be read is an error (the main one must exist,
// as for pmie_check).
func ReadControl(file string, env Env) ([]Member, []Problem) {
	r := &controlReader{env: env.filled(), vars: map[string]string{}}
	for i, f := range ControlFiles(file) {
		data, err := os.ReadFile(f)
		if err != nil {
			if i == 0 || !os.IsNotExist(err) {
				r.problems = append(r.problems, Problem{File: f, Msg: "cannot read control file: " + errText(err)})
			}
			continue
		}
		r.parse(f, string(data))
	}
	return r.members, r.problems
}

// ParseControl reads the lines of one control file, text, named file in
// messages.
func ParseControl(file, text string, env Env) ([]Member, []Problem) {
	r := &controlReader{env: env.filled(), vars: map[string]string{}}
	r.parse(file, text)
	return r.members, r.problems
}

func (e Env) filled() Env {
	if e.LogDir == "" {
		e.LogDir = pcpconf.Get("PCP_LOG_DIR")
	}
	if e.VarDir == "" {
		e.VarDir = pcpconf.Get("PCP_VAR_DIR")
	}
	if e.Hostname == "" {
		if h, err := os.Hostname(); err == nil {
			e.Hostname = h
		} else {
			e.Hostname = "localhost"
		}
	}
	return e
}

type controlReader struct {
	env      Env
	vars     map[string]string // variables assigned so far, all files
	members  []Member
	problems []Problem

	file  string
	line  int
	class string // this file's $class
}

func (r *controlReader) errorf(warning bool, msg string) {
	r.problems = append(r.problems, Problem{File: r.file, Line: r.line, Warning: warning, Msg: msg})
}

// parse reads one file's lines.
func (r *controlReader) parse(file, text string) {
	r.file, r.line, r.class = file, 0, ""
	text = strings.ReplaceAll(text, "PCP_LOG_DIR", r.env.LogDir)
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		r.line++
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0 || strings.HasPrefix(fields[0], "#"):
			continue
		case strings.HasPrefix(fields[0], "$"):
			r.assign(strings.Join(fields, " "))
			continue
		}
		if !r.member(fields) {
			return // a bad version: the rest of the file is not read
		}
	}
}

// assignment is compiled when first used: pmie, which links this
// package, seldom reads a control file, and every process would pay for
// compiling it at start-up.
var assignment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\$([A-Za-z][A-Za-z0-9_]*)=(.*)$`)
})

// assign reads a $name=value line as pmie_check does: a quoted value up
// to its closing quote, an unquoted one up to a blank or any of ;&<>|.
func (r *controlReader) assign(text string) {
	m := assignment().FindStringSubmatch(text)
	if m == nil {
		r.errorf(true, "in-line command is not a variable assignment, line ignored")
		return
	}
	name, value := m[1], m[2]
	switch {
	case strings.HasPrefix(value, "'") || strings.HasPrefix(value, `"`):
		if end := strings.IndexByte(value[1:], value[0]); end >= 0 {
			value = value[1 : end+1]
		} else {
			value = value[1:]
		}
	default:
		if i := strings.IndexAny(value, ";&<>| \t"); i >= 0 {
			value = value[:i]
		}
	}
	switch name {
	case "PATH", "IFS":
		r.errorf(true, "cannot change $"+name+", line ignored")
		return
	case "class":
		r.class = value
	}
	r.vars[name] = value
}

// member reads one pmie's line; it returns false after a bad version.
func (r *controlReader) member(f []string) bool {
	host := f[0]
	field := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	version, set := r.vars["version"]
	switch {
	case set && version != "1.0" && version != "1.1":
		r.errorf(false, "bad version ("+version+") in control file")
		return false
	case !set:
		r.errorf(true, "missing $version, assuming version 1.0 control format")
		r.vars["version"], version = "1.0", "1.0"
	}
	primary, socks, logfile, args := field(1), field(2), field(3), f[min(4, len(f)):]
	if version == "1.0" {
		primary, socks, logfile, args = "n", field(1), field(2), f[min(3, len(f)):]
	}
	switch {
	case primary == "" || socks == "" || logfile == "" || len(args) == 0:
		r.errorf(false, "insufficient fields in control file record")
	case primary != "y" && primary != "n":
		r.errorf(false, `primary field in control file record must be y or n, not "`+primary+`"`)
	case socks != "y" && socks != "n":
		r.errorf(false, `socks field in control file record must be y or n, not "`+socks+`"`)
	case !strings.HasPrefix(args[0], "-"):
		r.errorf(false, `args field in control file must begin with a hyphen not "`+strings.Join(args, " ")+`"`)
	case primary == "y":
		r.errorf(true, "the primary pmie (host "+host+") is left to pmie.service, as pmie_check -p does")
	default:
		if socks == "y" {
			r.errorf(true, "no pmsocks available, would run without")
		}
		r.add(host, logfile, args)
	}
	return true
}

// add makes the member for a checked line.
func (r *controlReader) add(host, logfile string, args []string) {
	logfile = strings.Replace(logfile, "LOCALHOSTNAME", r.env.Hostname, 1)
	if host == "LOCALHOSTNAME" {
		host = "local:"
	}
	if !filepath.IsAbs(logfile) {
		r.errorf(false, "log file "+logfile+" is not an absolute path")
		return
	}
	m := Member{Host: host, Class: r.class, Log: filepath.Clean(logfile),
		From: r.file + ":" + strconv.Itoa(r.line)}
	if !r.options(&m, args) {
		return
	}
	if v, ok := r.seconds("PMCD_CONNECT_TIMEOUT"); ok {
		m.ConnectTimeout = v
	}
	if v, ok := r.seconds("PMCD_REQUEST_TIMEOUT"); ok {
		m.RequestTimeout = v
	}
	r.members = append(r.members, m)
}

// seconds is a variable holding a positive number of seconds.
func (r *controlReader) seconds(name string) (time.Duration, bool) {
	v, err := strconv.ParseFloat(r.vars[name], 64)
	if err != nil || v <= 0 {
		return 0, false
	}
	return time.Duration(v * float64(time.Second)), true
}

// pmieShorts is pmie's getopt string (cmd/pmie's, without -L).
const pmieShorts = "a:A:bc:CdD:efFHh:j:l:n:O:PqS:t:T:U:vVWXxzZ:?"

// memberLongs are the long options of pmie a member's arguments may
// use.
var memberLongs = []pcpopt.Option{
	{Short: 'c', Long: "config", HasArg: true},
	{Short: 't', Long: "interval", HasArg: true},
	{Short: 'e', Long: "timestamp"},
	{Short: 'q', Long: "quiet"},
	{Short: 'V', Long: "verbose"},
	{Short: 'b', Long: "buffer"},
	{Short: 'D', Long: "debug", HasArg: true},
}

// options reads a member's pmie arguments: its rule files (-c, or
// operands), interval (-t) and reporting (-v -V -W -e -q). Options that
// make no sense for one host of many are refused.
func (r *controlReader) options(m *Member, args []string) bool {
	events, operands := pcpopt.Parse(args, pmieShorts, memberLongs)
	ok := true
	config := ""
	for _, ev := range events {
		switch {
		case ev.Err != "":
			r.errorf(false, "pmie arguments: "+ev.Err)
			ok = false
		case ev.Short == 'c':
			config = ev.Arg
		case ev.Short == 't':
			m.Interval = ev.Arg
		case ev.Short == 'v':
			m.Verbose = 1
		case ev.Short == 'V':
			m.Verbose = 2
		case ev.Short == 'W':
			m.Verbose = 3
		case ev.Short == 'e':
			m.ShowTime = true
		case ev.Short == 'q':
			m.Quiet = true
		case ev.Short == 'b' || ev.Short == 'D':
		default:
			r.errorf(false, "pmie option -"+string(ev.Short)+" is not supported for a host of a fleet")
			ok = false
		}
	}
	files := operands
	if config != "" {
		files = []string{config}
		if len(operands) > 0 {
			r.errorf(false, "pmie arguments: extra filenames cannot be given after using -c")
			return false
		}
	}
	if len(files) == 0 {
		r.errorf(false, "no rule file (-c) for host "+m.Host)
		return false
	}
	dir := filepath.Dir(m.Log)
	for _, f := range files {
		path, err := r.ruleFile(dir, f)
		if err != "" {
			r.errorf(false, err)
			ok = false
			continue
		}
		m.RuleFiles = append(m.RuleFiles, path)
	}
	return ok
}

// ruleFile finds a rule file as pmie started in dir finds it: from dir,
// else (a relative name) under $PCP_VAR_DIR/config/pmie.
func (r *controlReader) ruleFile(dir, name string) (string, string) {
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, name)
	}
	if st, err := os.Stat(p); err == nil && !st.IsDir() {
		return p, ""
	}
	if !filepath.IsAbs(name) {
		alt := filepath.Join(r.env.VarDir, "config", "pmie", name)
		if st, err := os.Stat(alt); err == nil && !st.IsDir() {
			return alt, ""
		}
		return "", "cannot find rule file " + name + " in " + dir + " or " + filepath.Dir(alt) +
			" (pmie_check would make it with pmieconf -f " + alt + " -cF)"
	}
	return "", "cannot find rule file " + name
}
