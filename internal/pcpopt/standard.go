package pcpopt

import (
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gopcp/pmie/internal/pmcpp"
	"github.com/gopcp/pmie/pmapi"
)

// Version is the PCP version the tools report with -V.
const Version = "6.0.3"

// Standard holds the standard PCP options as pmGetOptions(3) collects
// them, and the messages it would print with pmprintf.
type Standard struct {
	Prog string
	// Multi allows several hosts or archives, each its own context
	// (PM_OPTFLAG_MULTI); without it several -a make one comma list.
	Multi bool

	Archives []string
	Hosts    []string
	Local    bool     // -L
	Specs    []string // -K
	// Namespace is the namespace loaded from the -n or -N file (or
	// $PCP_NAMESPACE, $PCP_UNIQNAMES), nil if none.
	Namespace *pmapi.Namespace
	// Container is --container's name, nil if not given (pmGetOptions
	// puts it in $PCP_CONTAINER, which a connection to pmcd then asks
	// for).
	Container *string

	Window   pmapi.WindowSpec // -S, -T, -A, -O (nil if not given)
	Interval string           // -t
	Samples  string           // -s
	TZ       string           // -Z
	HasTZ    bool             // -Z given (perhaps as "")
	HostZone bool             // -z
	Debug    []string

	Context pmapi.SourceKind // set by End: the kind of source chosen
	Errors  int
	// RuntimeErr marks errors that are not about usage (a file that
	// will not load): no usage message follows them.
	RuntimeErr bool
	Exit       bool // -V: print Messages and exit 0
	// guiMode and guiPort are $PCP_GUIMODE and $PCP_GUIPORT (pmtime's -g
	// and -p), only checked
	guiMode, guiPort bool
	Msgs             []string // pmprintf output, in order
	// Flush, if set, is pmflush: it sends Msgs where $PCP_STDERR says
	// and returns the errno a failure to send left (internal/pmprintf),
	// for the places libpcp flushes while the options are read.
	Flush func() error
	// Early is what libpcp writes straight to standard error as it
	// starts, before any pmprintf output (an invalid $PCP_DEBUG).
	Early string
	// Stderr takes what pmcpp (run on a -n file) prints, at once as
	// its own process would; os.Stderr if nil
	Stderr io.Writer
}

// Printf adds a message, as pmprintf does.
func (s *Standard) Printf(msg string) { s.Msgs = append(s.Msgs, msg) }

// Fail adds a message and counts an error.
func (s *Standard) Fail(msg string) {
	s.Printf(s.Prog + ": " + msg + "\n")
	s.Errors++
}

// Environ applies the PCP_* environment defaults that pmGetOptions reads
// before the command line (__pmStartOptions), in environment order.
func (s *Standard) Environ(env []string) {
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		name, ok := strings.CutPrefix(name, "PCP_")
		if !ok {
			continue
		}
		switch name {
		case "ALIGN_TIME":
			s.Window.Align = &value
		case "ARCHIVE":
			s.addArchive(value)
		case "ARCHIVE_LIST":
			s.addArchiveList(value)
		case "HOST":
			s.addHost(value)
		case "HOST_LIST":
			s.addHostList(value)
		case "SPECLOCAL":
			s.addSpec(value)
		case "GUIMODE":
			s.setGUI(false)
		case "GUIPORT":
			s.setGUI(true)
		case "LOCALMODE", "LOCALPMDA":
			s.setLocal()
		case "ORIGIN", "ORIGIN_TIME":
			s.Window.Origin = &value
		case "START_TIME":
			s.Window.Start = &value
		case "FINISH_TIME":
			s.Window.End = &value
		case "INTERVAL":
			s.setInterval(value)
		case "SAMPLES":
			s.setSamples(value)
		case "DEBUG":
			if !validDebug(value) {
				s.Early += "Error: $PCP_DEBUG=" + value + " is not valid, ignored\n"
			}
			s.setDebug(value)
		case "TIMEZONE":
			s.setTZ(value)
		case "HOSTZONE":
			s.setHostZone()
		case "NAMESPACE":
			s.loadNamespace(value, true)
		case "UNIQNAMES":
			s.loadNamespace(value, false)
		}
	}
}

// Apply handles ev if it is a standard option (pmGetOptions' switch) and
// reports whether it was. A getopt error counts as an error here.
func (s *Standard) Apply(ev Event) bool {
	if ev.Err != "" {
		s.Fail(ev.Err)
		return true
	}
	switch ev.Long {
	case "archive-list":
		s.addArchiveList(ev.Arg)
		return true
	case "host-list":
		s.addHostList(ev.Arg)
		return true
	case "container":
		name := ev.Arg
		s.Container = &name
		return true
	}
	switch ev.Short {
	case 'A':
		s.Window.Align = &ev.Arg
	case 'a':
		s.addArchive(ev.Arg)
	case 'D':
		s.setDebug(ev.Arg)
	case 'h':
		s.addHost(ev.Arg)
	case 'K':
		s.addSpec(ev.Arg)
	case 'L':
		s.setLocal()
	case 'N', 'n':
		s.loadNamespace(ev.Arg, ev.Short == 'n')
	case 'O':
		s.Window.Origin = &ev.Arg
	case 'S':
		s.Window.Start = &ev.Arg
	case 's':
		s.setSamples(ev.Arg)
	case 'T':
		s.Window.End = &ev.Arg
	case 't':
		s.setInterval(ev.Arg)
	case 'V':
		s.Exit = true
		s.Printf(s.Prog + " version " + Version + "\n")
	case 'Z':
		s.setTZ(ev.Arg)
	case 'z':
		s.setHostZone()
	case '?':
		s.Errors++
	default:
		return false
	}
	return true
}

func (s *Standard) addArchive(name string) {
	if len(s.Hosts) > 0 {
		s.Fail("only one host or archive allowed")
		return
	}
	if s.Multi || len(s.Archives) == 0 {
		for _, a := range s.Archives {
			if a == name {
				return
			}
		}
		s.Archives = append(s.Archives, name)
		return
	}
	// one context: a comma list, without repeats
	for _, a := range strings.Split(s.Archives[0], ",") {
		if a == name {
			return
		}
	}
	s.Archives[0] += "," + name
}

func (s *Standard) addArchiveList(list string) {
	if len(s.Hosts) > 0 {
		s.Fail("only one of hosts or archives allowed")
		return
	}
	if !s.Multi {
		s.addArchive(list)
		return
	}
	for _, a := range strings.Split(list, ",") {
		if a != "" {
			s.addArchive(a)
		}
	}
}

func (s *Standard) addHostList(list string) {
	for _, h := range strings.Split(list, ",") {
		if h != "" {
			s.Hosts = append(s.Hosts, h)
		}
	}
	if len(s.Hosts) > 1 && !s.Multi {
		s.Fail("too many hosts requested: " + list)
	}
}

// addSpec takes -K, a local context's PMDA table change.
func (s *Standard) addSpec(spec string) {
	if msg := localSpecError(spec); msg != "" {
		s.Fail("pmSpecLocalPMDA failed: " + msg)
		return
	}
	s.Specs = append(s.Specs, spec)
}

// setGUI takes -g (port false) or -p (port true), pmtime's GUI mode and
// port, which tools here have no use for but check as libpcp does.
func (s *Standard) setGUI(port bool) {
	if (port && s.guiMode) || (!port && s.guiPort) {
		s.Fail("at most one of -g and -p allowed")
		return
	}
	if port {
		s.guiPort = true
	} else {
		s.guiMode = true
	}
}

func (s *Standard) addHost(host string) {
	switch {
	case len(s.Hosts) > 0 && !s.Multi:
		s.Fail("too many hosts requested: " + host)
	case len(s.Archives) > 0:
		s.Fail("only one host or archive allowed")
	default:
		s.Hosts = append(s.Hosts, host)
	}
}

func (s *Standard) setLocal() {
	s.Local = true
}

// loadNamespace is pmLoadASCIINameSpace for -n (dupok) or -N. A
// namespace loaded already is not replaced: libpcp refuses to load a
// second, before reading it. A file that will not load is a run-time
// error (no usage message follows).
func (s *Standard) loadNamespace(path string, dupok bool) {
	ns, err := s.Namespace, error(pmapi.ErrDupPMNS)
	if s.Namespace == nil {
		stderr := s.Stderr
		if stderr == nil {
			stderr = os.Stderr
		}
		ns, err = pmapi.LoadPMNS(path, dupok, func(path string) ([]byte, bool) { return pmcpp.Run(path, stderr) })
	}
	if err != nil {
		if pe, ok := err.(*pmapi.PMNSError); ok {
			s.Printf(pe.Diag)
			// libpcp flushes the file's diagnostic at once, and
			// then reads the errno of an open that failed, which a
			// failure to flush has replaced
			if s.Flush != nil {
				if ferr := s.Flush(); ferr != nil && pmapi.Code(err).Symbol() == "" {
					err = ferr
				}
			}
		}
		s.Fail("Cannot load namespace from \"" + path + "\": " + pmapi.Code(err).Error())
		s.RuntimeErr = true
		return
	}
	s.Namespace = ns
}

// setSamples takes -s, which must be a number not below 0 (as strtol
// reads it: "" is 0).
func (s *Standard) setSamples(v string) {
	if n, rest := pmapi.Strtol(v); rest != "" || n < 0 {
		s.Fail("-s requires a positive numeric argument")
		return
	}
	s.Samples = v
}

// setInterval takes -t, which must be a pmParseInterval(3) interval.
func (s *Standard) setInterval(v string) {
	if _, err := pmapi.ParseInterval(v); err != nil {
		s.Printf(s.Prog + ": -t argument not in pmParseInterval(3) format:\n" + err.Error() + "\n")
		s.Errors++
		return
	}
	s.Interval = v
}

// setDebug takes a -D specification, as pmSetDebug does: libpcp's trace
// output is not made (the options are kept in Debug), but a
// specification libpcp refuses is an error.
func (s *Standard) setDebug(spec string) {
	if !validDebug(spec) {
		s.Fail("unrecognized debug options specification (" + spec + ")")
		return
	}
	s.Debug = append(s.Debug, spec)
}

// debugOptions are the names pmSetDebug knows (pmdbg -l), besides "all".
var debugOptions = strings.Fields(`pdu fetch profile value context indom pdubuf log logmeta
	optfetch af appl0 appl1 appl2 pmns libpmda timecontrol pmc derive lock interp config pmapi
	fault auth discovery attr http desperate deprecated exec labels series libweb alloc services
	appl3 appl4 appl5 access qa search query compress dev0 dev1 dev2 pmlc appl6 appl7 appl8
	appl9 tls`)

// validDebug reports whether pmSetDebug accepts spec: options separated
// by commas (a last comma may end it), each a name of debugOptions or
// "all", in any case, or a number (the old bit fields).
func validDebug(spec string) bool {
	for spec != "" {
		opt, rest, _ := strings.Cut(spec, ",")
		_, tail := pmapi.Strtol(opt)
		numeric := tail == "" && strings.ContainsAny(opt, "0123456789")
		if !numeric && !strings.EqualFold(opt, "all") && !slices.ContainsFunc(debugOptions, func(o string) bool { return strings.EqualFold(o, opt) }) {
			return false
		}
		spec = rest
	}
	return true
}

func (s *Standard) setTZ(tz string) {
	if s.HostZone {
		s.Fail("at most one of -Z and -z allowed")
		return
	}
	s.TZ, s.HasTZ = tz, true
}

func (s *Standard) setHostZone() {
	if s.HasTZ {
		s.Fail("at most one of -Z and -z allowed")
		return
	}
	s.HostZone = true
}

// End chooses the kind of source once all options are read
// (__pmEndOptions): -L, else hosts, else archives, else (with -O) the
// local host's pmlogger archives; and checks the options that need a
// source.
//
// A context already chosen (Context not 0) is kept, as libpcp keeps one
// a tool set itself (pmie takes -a and -h itself).
func (s *Standard) End() {
	switch {
	case s.Context != 0:
	case s.Local:
		s.Context = pmapi.SourceLocal
	case len(s.Hosts) > 0 && len(s.Archives) == 0:
		s.Context = pmapi.SourceHost
	case len(s.Archives) > 0 && len(s.Hosts) == 0:
		s.Context = pmapi.SourceArchive
	case s.Window.Origin != nil:
		s.Context = pmapi.SourceArchive
		s.Archives = append(s.Archives, defaultArchiveDir())
	}
	if (s.Window.Start != nil || s.Window.Align != nil || s.Window.Origin != nil) && s.Context != pmapi.SourceArchive {
		s.Fail("time window options are supported for archives only")
	}
	if s.HostZone && s.Context != pmapi.SourceArchive && s.Context != pmapi.SourceHost {
		s.Fail("use of timezone from metric source requires a source")
	}
}

// defaultArchiveDir is where pmlogger keeps the local host's archives,
// which -O alone refers to.
func defaultArchiveDir() string {
	dir := os.Getenv("PCP_ARCHIVE_DIR")
	if dir == "" {
		dir = "/var/log/pcp/pmlogger"
	}
	host, err := os.Hostname()
	if err != nil {
		host = "localhost"
	}
	return dir + "/" + host
}

// Usage is pmUsageMessage's text: the usage line, then each documented
// option of table with its help, aligned at column 24.
func Usage(prog, synopsis string, table []Option) string {
	var b strings.Builder
	b.WriteString("Usage: " + prog + " " + synopsis + "\n")
	for _, o := range table {
		if o.Help == "" {
			continue
		}
		if o.Header {
			b.WriteString("\n" + o.Help + ":\n")
			continue
		}
		arg := o.ArgName
		if arg == "" {
			arg = "?"
		}
		var line string
		switch {
		case o.Long != "" && o.Short != 0 && o.HasArg:
			line = "  -" + string(o.Short) + " " + arg + ", --" + o.Long + "=" + arg
		case o.Long != "" && o.Short != 0:
			line = "  -" + string(o.Short) + ", --" + o.Long
		case o.Long != "" && o.HasArg:
			line = "  --" + o.Long + "=" + arg
		case o.Long != "":
			line = "  --" + o.Long
		case o.HasArg:
			line = "  -" + string(o.Short) + " " + arg
		default:
			line = "  -" + string(o.Short)
		}
		if len(line) < 24 {
			b.WriteString(line + strings.Repeat(" ", 24-len(line)) + o.Help + "\n")
		} else {
			b.WriteString(line + "\n" + strings.Repeat(" ", 24) + o.Help + "\n")
		}
	}
	return b.String()
}

// localSpecError is what pmGetOptions' -K (__pmSpecLocalPMDA) says about
// spec, "op[,domain[,dso-path[,init-routine]]]" with op add, del or
// clear, or "" if its syntax is good. The table of DSO PMDAs that libpcp
// then changes is not kept (a local context is the embedded collector
// here), so deleting one libpcp does not know is not an error.
func localSpecError(spec string) string {
	op, rest := "", ""
	switch {
	case strings.HasPrefix(spec, "clear"):
		if spec != "clear" {
			return "unexpected text after clear op in spec"
		}
		return ""
	case strings.HasPrefix(spec, "add"), strings.HasPrefix(spec, "del"):
		op, rest = spec[:3], spec[3:]
	default:
		return "bad op in spec"
	}
	rest, ok := strings.CutPrefix(rest, ",")
	if !ok {
		return "expected , after op in spec"
	}
	hasDomain := false
	switch {
	case rest == "":
		return "missing domain in spec"
	case rest[0] == ',':
		if op != "del" {
			return "missing domain in spec"
		}
		rest = rest[1:]
	default:
		n, after := pmapi.Strtol(rest)
		dom := int32(n) // libpcp keeps strtol's long in an int
		if (after != "" && after[0] != ',') || dom < 0 || dom > 510 {
			return "bad domain in spec"
		}
		rest = strings.TrimPrefix(after, ",")
		hasDomain = true
	}
	hasPath := false
	switch {
	case rest == "":
		if op != "del" {
			return "missing dso-path in spec"
		}
	case rest[0] == ',':
		// no path, perhaps an init routine
	default:
		hasPath = true
		if _, init, _ := strings.Cut(rest, ","); init == "" && op != "del" {
			return "missing init-routine in spec"
		}
	}
	if !hasDomain && !hasPath {
		return "missing domain and dso-path in spec"
	}
	return ""
}
