// Command pminfo displays information about performance metrics, as PCP
// 6.0.3's pminfo(1) does and with the same output: names, descriptors
// (-d), values (-f, -F, -x), PMIDs (-m, -M), help text (-t, -T), labels
// (-l) and series identifiers (-s), from an archive (-a), pmcd (-h) or
// the embedded collector (-L), opened as package pmapi/source opens them.
package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/gopcp/pmie/internal/cstdio"
	_ "github.com/gopcp/pmie/internal/hugeheap" // huge pages for the heap: one fault for 2 MB
	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/internal/pcpopt"
	"github.com/gopcp/pmie/internal/pmprintf"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/source"
)

const synopsis = "[options] [metricname | pmid | indom]..."

// shortOpts is pminfo's getopt string.
const shortOpts = "a:b:c:CdD:Ffh:IK:lLMmN:n:O:stTvVxzZ:?"

// options is pminfo's option table, in usage order.
var options = []pcpopt.Option{
	pcpopt.Header("General options"),
	{Long: "archive", HasArg: true, Short: 'a', ArgName: "FILE", Help: "metrics source is a PCP log archive"},
	{Long: "debug", HasArg: true, Short: 'D', ArgName: "DBG"},
	{Long: "host", HasArg: true, Short: 'h', ArgName: "HOST", Help: "metrics source is PMCD on host"},
	{Long: "container", HasArg: true, ArgName: "NAME", Help: "specify an individual container to be queried"},
	{Long: "local-PMDA", Short: 'L', Help: "metrics source is local connection to a PMDA"},
	{Long: "spec-local", HasArg: true, Short: 'K', ArgName: "SPEC", Help: "optional additional PMDA spec for local connection"},
	{Long: "namespace", HasArg: true, Short: 'n', ArgName: "FILE", Help: "use an alternative PMNS"},
	{Long: "uniqnames", HasArg: true, Short: 'N', ArgName: "FILE", Help: "like -n but only one name allowed for each PMID"},
	{Long: "origin", HasArg: true, Short: 'O', ArgName: "TIME", Help: "initial sample time within the time window"},
	{Long: "timezone", HasArg: true, Short: 'Z', ArgName: "TZ", Help: "set reporting timezone"},
	{Long: "hostzone", Short: 'z', Help: "set reporting timezone to local time of metrics source"},
	{Long: "version", Short: 'V', Help: "display version number and exit"},
	{Long: "help", Short: '?', Help: "show this usage message and exit"},
	pcpopt.Header("Protocol options"),
	{Long: "batch", HasArg: true, Short: 'b', ArgName: "N", Help: "fetch N metrics at a time for -f and -v [128]"},
	{Long: "desc", Short: 'd', Help: "get and print metric description"},
	{Long: "fetch", Short: 'f', Help: "fetch and print values for all instances"},
	{Long: "fetchall", Short: 'F', Help: "fetch and print values for non-enumerable indoms"},
	{Long: "fullindom", Short: 'I', Help: "print InDom in verbose format"},
	{Long: "labels", Short: 'l', Help: "print InDom, metric and instance labels"},
	{Long: "pmid", Short: 'm', Help: "print PMID"},
	{Long: "fullpmid", Short: 'M', Help: "print PMID in verbose format"},
	{Long: "series", Short: 's', Help: "print source, metric, instance series identifiers"},
	{Long: "oneline", Short: 't', Help: "get and display (terse) oneline text"},
	{Long: "helptext", Short: 'T', Help: "get and display (verbose) help text"},
	pcpopt.Header("Metrics options"),
	{Long: "derived", HasArg: true, Short: 'c', ArgName: "FILE", Help: "load derived metric definitions from FILE(s)"},
	{Long: "events", Short: 'x', Help: "unpack and report on any fetched event records"},
	{Long: "verify", Short: 'v', Help: "verify mode, be quiet and only report errors"},
}

// Env is everything pminfo takes from its process, so tests can run it.
type Env struct {
	Args    []string // including the program name
	Environ []string
	Stdout  io.Writer
	Stderr  io.Writer
	// Open opens the source pminfo is told to read (openSource, or a
	// test's fake), telling warn of damage to an archive that reading
	// passes over.
	Open func(spec source.Spec, o source.Opener) (pmapi.Context, error)
	// Derived, if set, gives pminfo derived metrics (newDerived, over
	// package derive), reading the environment through getenv.
	Derived func(getenv func(string) (string, bool)) Deriver
	// LocalTZ is the zone times are shown in without -z or -Z.
	LocalTZ *time.Location
}

func main() {
	defer func() {
		// a bug must not look like a clean run
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "pminfo: internal error: %v\n", r)
			os.Exit(2)
		}
	}()
	os.Exit(run(Env{
		Args:    os.Args,
		Environ: os.Environ(),
		Stdout:  os.Stdout,
		Stderr:  os.Stderr,
		Open:    openSource,
		Derived: newDerived,
		LocalTZ: localZone(),
	}))
}

// openSource opens the source spec names with o.
func openSource(spec source.Spec, o source.Opener) (pmapi.Context, error) {
	return o.Open(spec)
}

// localZone is the zone glibc's localtime uses: $TZ if set, else the
// system's.
func localZone() *time.Location {
	if tz, ok := os.LookupEnv("TZ"); ok {
		return pmapi.LoadTZ(tz)
	}
	return time.Local
}

// config is what the command line asks for.
type config struct {
	std       pcpopt.Standard
	msgs      *pmprintf.Buffer // pmprintf's buffer
	deriver   Deriver          // nil without derived metrics
	batchSize int

	pMid, pFullMid, pFullIID, pDesc, pLabel, pSeries bool
	pOneline, pHelp, pValue, pForce, verify, events  bool
	needContext, needPMID                            bool
}

// parseArgs reads the command line as pmGetOptions and pminfo's own loop
// do, returning the operands.
func parseArgs(env Env, c *config) []string {
	prog := progName(env.Args[0])
	// libpcp's pmprintf and pmflush: messages go where $PCP_STDERR says
	// (made first: the environment's namespace flushes them)
	c.msgs = &pmprintf.Buffer{Prog: prog, Stderr: env.Stderr,
		LookupEnv: func(k string) (string, bool) { return lookupEnv(env.Environ, k), hasEnv(env.Environ, k) }}
	c.std = pcpopt.Standard{Prog: prog, Stderr: env.Stderr, Flush: c.flush}
	c.batchSize = 128
	c.std.Environ(env.Environ)
	io.WriteString(env.Stderr, c.std.Early)
	if env.Derived != nil {
		c.deriver = env.Derived(derivedEnv(env.Environ))
	}
	evs, operands := pcpopt.Parse(env.Args[1:], shortOpts, options)
	for _, ev := range evs {
		// pminfo claims -s, -t and -T before the standard options see them
		if ev.Err != "" || (ev.Short != 's' && ev.Short != 't' && ev.Short != 'T') {
			if c.std.Apply(ev) {
				continue
			}
		}
		switch ev.Short {
		case 'b':
			n, ok := strtol(ev.Arg)
			if !ok {
				c.std.Fail("-b requires numeric argument")
				break
			}
			c.batchSize = n
		case 'c':
			if c.deriver != nil {
				c.deriver.Load(ev.Arg, prog, msgWriter{c})
			}
		case 'd':
			c.pDesc, c.needContext, c.needPMID = true, true, true
		case 'F':
			c.pForce, c.pValue, c.needContext, c.needPMID = true, true, true, true
		case 'f':
			c.pValue, c.needContext, c.needPMID = true, true, true
		case 'l':
			c.pLabel, c.needContext, c.needPMID = true, true, true
		case 'M':
			c.pFullMid, c.pMid, c.needPMID = true, true, true
		case 'I':
			c.pFullIID, c.pDesc, c.needContext, c.needPMID = true, true, true, true
		case 'm':
			c.pMid, c.needPMID = true, true
		case 's':
			c.pSeries, c.needContext, c.needPMID = true, true, true
		case 't':
			c.pOneline, c.needContext, c.needPMID = true, true, true
		case 'T':
			c.pHelp, c.needContext, c.needPMID = true, true, true
		case 'v':
			c.verify, c.needContext, c.needPMID = true, true, true
		case 'x':
			c.events, c.pValue, c.needContext, c.needPMID = true, true, true, true
		}
	}
	c.std.End()
	return operands
}

// flush is pmflush: the messages of the command line are sent where
// $PCP_STDERR says. It returns the error a failure to send them left
// in errno, as pmprintf.Buffer.Flush does.
func (c *config) flush() error {
	for _, m := range c.std.Msgs {
		c.msgs.Print(m)
	}
	c.std.Msgs = nil
	return c.msgs.Flush()
}

// strtol reads s as strtol(3) does and reports whether all of it was
// read (an empty string reads as 0).
func strtol(s string) (int, bool) {
	n, rest := pmapi.Strtol(s)
	if rest != "" {
		return 0, false
	}
	return int(int32(n)), true // as C converts the long to an int
}

// progName is the basename of argv[0], as pmSetProgname keeps it.
func progName(arg0 string) string {
	if i := strings.LastIndexByte(arg0, '/'); i >= 0 {
		return arg0[i+1:]
	}
	return arg0
}

func run(env Env) int {
	var c config
	operands := parseArgs(env, &c)
	// stdio's buffering, which decides how output and messages
	// interleave when both go to one file
	stdout := cstdio.New(env.Stdout)
	defer stdout.Flush()
	prog := c.std.Prog
	flushMsgs := func() { c.flush() }
	if c.std.Errors > 0 || c.std.Exit {
		if !c.std.Exit && !c.std.RuntimeErr {
			c.std.Printf(pcpopt.Usage(prog, synopsis, options))
		}
		flushMsgs()
		if c.std.Exit {
			return 0
		}
		return 1
	}
	flushMsgs()

	if c.std.Context != 0 {
		c.needContext = true
	}
	if c.std.Context == pmapi.SourceArchive {
		// one metric per batch, each fetched from the start of the window
		c.batchSize = 1
	}
	if c.batchSize < 0 {
		// pminfo allocates room for a batch of names now, which a
		// negative size (-b) makes fail
		fmt.Fprintf(env.Stderr, "%s: namelist malloc: Cannot allocate memory\n", prog)
		return 1
	}
	if c.verify {
		c.pDesc, c.pMid, c.pFullMid, c.pHelp, c.pOneline = false, false, false, false, false
		c.pValue, c.pForce, c.pLabel = false, false, false
	}
	if c.std.Namespace == nil {
		c.needContext = true // the namespace comes from the source
	}

	p := &pminfo{cfg: &c, prog: prog, out: stdout, errw: env.Stderr, loc: env.LocalTZ,
		insts: newInstCache(), labels: newLabelCache()}
	if p.loc == nil {
		p.loc = time.Local
	}
	if c.needContext {
		if status, ok := p.open(env, flushMsgs); !ok {
			return status
		}
		defer p.ctx.Close()
	} else if c.std.Namespace != nil {
		// derived metric names join a -n namespace even without a source
		p.ctx = c.withDerived(env, pmapi.WithNamespace(noContext{}, c.std.Namespace))
	}
	return p.walk(operands)
}

// open makes the context pminfo reads, as pmNewContext and then
// pmGetContextOptions do. It returns false and the exit status on failure.
func (p *pminfo) open(env Env, flushMsgs func()) (int, bool) {
	c := p.cfg
	var (
		ctx pmapi.Context
		err error
	)
	open := env.Open
	if open == nil {
		open = func(source.Spec, source.Opener) (pmapi.Context, error) { return nil, errNoSource }
	}
	// libpcp's diagnostic of a bad host specification comes before
	// pminfo's message; --container is asked of pmcd
	o := source.Opener{Archive: &source.ArchiveOptions{Warn: p.warnDamage}}
	o.PMCD.Diag, o.PMCD.Container = env.Stderr, c.std.Container
	o.PMCD.Warn = func(msg string) {
		fmt.Fprintf(env.Stderr, "[%s] %s(%d) Warning: %s", time.Now().Format("Mon Jan _2 15:04:05"), p.prog, os.Getpid(), msg)
	}
	switch c.std.Context {
	case pmapi.SourceArchive:
		ctx, err = open(source.Archive(c.std.Archives[0]), o)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: Cannot open archive \"%s\": %s\n", p.prog, c.std.Archives[0], errText(err))
			p.damage(err)
			return 1, false
		}
		p.ender, _ = ctx.(ender)
		if !p.confReadable(env) {
			ctx.Close()
			return 1, false
		}
	case pmapi.SourceLocal:
		if ctx, err = open(source.Embedded(), o); err != nil {
			fmt.Fprintf(env.Stderr, "%s: Cannot make standalone connection on localhost: %s\n", p.prog, errText(err))
			return 1, false
		}
	default:
		spec := "local:"
		if c.std.Context == pmapi.SourceHost {
			spec = c.std.Hosts[0]
		}
		c.std.Context = pmapi.SourceHost
		if ctx, err = open(source.Host(spec), o); err != nil {
			fmt.Fprintf(env.Stderr, "%s: Cannot connect to PMCD on host \"%s\": %s\n", p.prog, spec, errText(err))
			return 1, false
		}
		if !p.confReadable(env) {
			ctx.Close()
			return 1, false
		}
	}
	if c.std.Namespace != nil {
		if c.std.Context == pmapi.SourceArchive {
			// pmTrimNameSpace: only the names of metrics in the archive
			c.std.Namespace.Trim(func(id pmapi.PMID) bool { _, err := ctx.LookupDesc(id); return err == nil })
		}
		ctx = pmapi.WithNamespace(ctx, c.std.Namespace)
	}
	ctx = c.withDerived(env, ctx)
	p.seeker, _ = ctx.(pmapi.Seeker)
	p.ctx = ctx
	if c.std.Context == pmapi.SourceArchive {
		if !p.contextOptions() {
			flushMsgs()
			p.out.Flush()
			return 1, false
		}
	}
	return 0, true
}

// confReadable is false, having said so as libpcp does, when a pcp.conf
// that the environment names cannot be read: libpcp reads its
// configuration as a context is made and exits there.
func (p *pminfo) confReadable(env Env) bool {
	_, err := pcpconf.New(func(k string) (string, bool) { return lookupEnv(env.Environ, k), hasEnv(env.Environ, k) }).Get("PCP_TMP_DIR")
	if err != nil {
		io.WriteString(env.Stderr, err.Error())
		return false
	}
	return true
}

// withDerived puts the derived metrics over ctx (Env.Derived), above any
// -n namespace so that their names join it, as libpcp's do.
func (c *config) withDerived(env Env, ctx pmapi.Context) pmapi.Context {
	if c.deriver == nil {
		return ctx
	}
	return c.deriver.Wrap(ctx, env.Stderr)
}

// derivedEnv reads PCP_DERIVED_CONFIG from environ, the rest from the
// process's environment.
func derivedEnv(environ []string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		if k == "PCP_DERIVED_CONFIG" {
			return lookupEnv(environ, k), hasEnv(environ, k)
		}
		return os.LookupEnv(k)
	}
}

// ender is an archive context that can say why it has no end
// (pmGetArchiveEnd).
type ender interface {
	End() (pmapi.Time, error)
}

// errNoSource is the error when pminfo is given no way to open sources.
var errNoSource = pmapi.ErrNYI

// contextOptions is pmGetContextOptions for an archive: the timezone (and
// its note on stdout) and the time window, which gives the origin every
// fetch starts from.
func (p *pminfo) contextOptions() bool {
	std := &p.cfg.std
	switch {
	case std.HostZone:
		src := p.ctx.Source()
		p.loc = pmapi.NewZone(src.TZ)
		fmt.Fprintf(p.out, "Note: timezone set to local timezone of host \"%s\" from archive\n\n", src.Host)
	case std.HasTZ:
		p.loc = pmapi.NewZone(std.TZ)
		fmt.Fprintf(p.out, "Note: timezone set to \"TZ=%s\"\n\n", std.TZ)
	}
	if !std.Window.Given() {
		return true
	}
	var first, last pmapi.Time
	if p.seeker != nil {
		first, last = p.seeker.Bounds()
	}
	if p.ender != nil {
		if _, err := p.ender.End(); err != nil {
			// pmGetContextOptions goes on with an open end
			last = pmapi.Time(math.MaxInt64)
			fmt.Fprintf(p.errw, "%s: Cannot locate end of archive %s: %s\n", p.prog, std.Archives[0], errText(err))
			fmt.Fprintf(p.errw, "\nWARNING: This archive is sufficiently damaged that it may not be possible to\n")
			fmt.Fprintf(p.errw, "         produce complete information.  Continuing and hoping for the best.\n\n")
			p.damage(err)
		}
	}
	w, ok, err := pmapi.ParseTimeWindow(std.Window, first, last, p.loc)
	if !ok {
		std.Fail("invalid time window.\n" + err.Error())
		return false
	}
	// pmParseTimeWindow's times are timevals: the origin is floored to
	// the microsecond (-O +1nsec is the start)
	p.origin = w.Origin - pmapi.Time((int64(w.Origin)%1000+1000)%1000)
	return true
}

func lookupEnv(environ []string, name string) string {
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

func hasEnv(environ []string, name string) bool {
	for _, kv := range environ {
		if kv == name || strings.HasPrefix(kv, name+"=") {
			return true
		}
	}
	return false
}

// errText is pmErrStr of err.
func errText(err error) string {
	return pmapi.Code(err).Error()
}
