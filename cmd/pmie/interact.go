package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"syscall"
	"time"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/internal/pcpopt"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/rules"
)

// pmie -d, its debugger: commands read from standard input, one a line,
// to load rules, list them, and run them over spans of time.

const debugPrompt = "pmie> "

const debugMenu = "pmie debugger commands\n\n" +
	"  f [file-name]      - load expressions from given file or stdin\n" +
	"  l [expr-name]      - list named expression or all expressions\n" +
	"  r [interval]       - run for given or default interval\n" +
	"  S time-spec        - set start time for run\n" +
	"  T time-spec        - set default interval for run command\n" +
	"  v [expr-name]      - print subexpression used for %h, %i and\n" +
	"                       %v bindings\n" +
	"  h or ?             - print this menu of commands\n" +
	"  q                  - quit\n\n"

// maxCommand is the longest command line pmie reads at once: the rest of
// a longer line is read as the next command, less the character at the
// limit, which pmie reads and drops.
const maxCommand = 255

// intMax is the end of time for a live run, as pmie has it: INT_MAX
// seconds.
const intMax = math.MaxInt32

// debugger is the state of pmie -d.
type debugger struct {
	p       *session
	comp    *eval.Compiler // the compiler of the rules loaded so far
	in      *bufio.Reader
	eng     *rules.Engine
	start   float64 // where the next run starts
	runTime float64 // how long a run lasts unless told
	last    float64 // the archives' end (intMax live)
}

// interact runs pmie's debugger and returns pmie's exit status.
func (p *session) interact(ctx context.Context, stdin io.Reader, comp *eval.Compiler) int {
	w, err := p.src.window(p.s, p.now, p.loc)
	if err != nil {
		fmt.Fprint(p.stderr, err)
		return 1
	}
	_, cfg := p.engineConfig(w)
	d := &debugger{p: p, comp: comp, in: bufio.NewReader(stdin), start: w.start, runTime: w.stop - w.start, last: intMax}
	if p.src.archive {
		d.last = p.src.last
	} else {
		d.runTime = intMax - w.start
	}
	d.eng = rules.New(cfg, p.b, p.program)
	fmt.Fprintf(p.out, "Performance Co-Pilot Inference Engine (pmie), Version %s\n\n%s%s", pcpopt.Version, debugMenu, debugPrompt)
	p.out.Flush()
	for {
		line, more := d.readLine()
		if !more {
			break
		}
		quit, status := d.command(ctx, line)
		if status >= 0 {
			p.out.Flush()
			return status
		}
		if quit {
			break
		}
		io.WriteString(p.out, debugPrompt)
		p.out.Flush()
	}
	p.out.Flush()
	return 0
}

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// readLine reads a command as pmie does: white space (blank lines too)
// is passed over, then the line is read up to its newline or maxCommand
// characters. more is false at the end of the input, where a last line
// without a newline is not a command.
func (d *debugger) readLine() (line []byte, more bool) {
	c, err := d.in.ReadByte()
	for err == nil && isSpace(c) {
		c, err = d.in.ReadByte()
	}
	for err == nil && c != '\n' && len(line) < maxCommand {
		line = append(line, c)
		c, err = d.in.ReadByte()
	}
	return line, err == nil
}

// argument is what follows a command's letter, without the white space
// around it, or "" with ok false for nothing.
func argument(rest []byte) (arg string, ok bool) {
	i, j := 0, len(rest)
	for i < j && isSpace(rest[i]) {
		i++
	}
	for j > i && isSpace(rest[j-1]) {
		j--
	}
	return string(rest[i:j]), i < j
}

// splitCommand splits a command line into its command, one printable
// character (isgraph) after any white space, and its argument (see
// argument). ok is false for a line with no command.
func splitCommand(line []byte) (cmd byte, arg string, given, ok bool) {
	i := 0
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	if i == len(line) || line[i] <= ' ' || line[i] >= 0x7f {
		return 0, "", false, false
	}
	arg, given = argument(line[i+1:])
	return line[i], arg, given, true
}

// command does one command line. quit is true for q; status is pmie's
// exit status when the command ends pmie, else -1.
func (d *debugger) command(ctx context.Context, line []byte) (quit bool, status int) {
	p := d.p
	cmd, arg, given, ok := splitCommand(line)
	if !ok {
		return false, -1
	}
	switch cmd {
	case 'f':
		return false, d.load(arg, given)
	case 'l':
		d.list(arg, given, "\"", (*eval.Rule).Listing)
	case 'v':
		d.list(arg, given, "'", (*eval.Rule).BindingListing)
	case 'r':
		if given {
			secs, err := intervalSeconds(arg)
			if err != nil {
				io.WriteString(p.stderr, err.Error())
				break
			}
			d.runTime = secs
		}
		return false, d.run(ctx)
	case 'S':
		if !given {
			fmt.Fprintf(p.stderr, "%s: error - argument required\n", prog)
			break
		}
		t, err := pmapi.ParseTime(arg, usecTime(d.start), usecTime(d.last), p.loc)
		if err != nil {
			io.WriteString(p.stderr, err.Error())
			break
		}
		d.start = float64(int64(t)/1000) / 1e6
		if p.src.archive {
			d.eng.Invalidate()
		}
	case 'T':
		if !given {
			fmt.Fprintf(p.stderr, "%s: error - argument required\n", prog)
			break
		}
		secs, err := intervalSeconds(arg)
		if err != nil {
			io.WriteString(p.stderr, err.Error())
			break
		}
		d.runTime = secs
	case 'q':
		return true, -1
	default:
		io.WriteString(p.out, debugMenu)
	}
	return false, -1
}

// intervalSeconds reads an interval as pmParseInterval does, to the
// microsecond.
func intervalSeconds(spec string) (float64, error) {
	dur, err := pmapi.ParseInterval(spec)
	if err != nil {
		return 0, err
	}
	return float64(dur.Round(time.Microsecond)/time.Microsecond) / 1e6, nil
}

// usecTime is seconds as a time to the microsecond, as pmie converts them.
func usecTime(sec float64) pmapi.Time {
	return pmapi.Time(math.Round(sec*1e6)) * 1000
}

// list lists the rule named, or all rules, with show; a name that is no
// rule's is said with quote around it, as each command says it.
func (d *debugger) list(name string, given bool, quote string, show func(*eval.Rule) string) {
	if !given {
		for _, r := range d.eng.Rules() {
			io.WriteString(d.p.out, show(r))
		}
		return
	}
	r := d.p.program.Lookup(name)
	if r == nil {
		fmt.Fprintf(d.p.out, "%s: error - rule %s%s%s not defined\n", prog, quote, name, quote)
		return
	}
	io.WriteString(d.p.out, show(r))
}

// run evaluates the rules for the run time from the start: live, from
// now, with the values of earlier runs forgotten.
func (d *debugger) run(ctx context.Context) int {
	p := d.p
	if !p.src.archive {
		d.eng.Invalidate()
		d.start = math.Max(d.start, float64(time.Now().UnixNano())/1e9)
	}
	p.out.Flush()
	if status, stop := p.ran(d.eng.RunSpan(ctx, d.start, d.start+d.runTime), d.eng.Tasks()); stop {
		return status
	}
	return -1
}

// load reads rules from a file, or from the rest of standard input, and
// adds them to those run. A file that cannot be found ends pmie.
func (d *debugger) load(name string, given bool) int {
	p := d.p
	before := len(p.program.Rules)
	comp := d.comp
	if !given {
		text, err := io.ReadAll(d.in)
		if err != nil {
			fmt.Fprintf(p.stderr, "%s: cannot read standard input: %v\n", prog, err)
			return 1
		}
		compileText(p.s, comp, p.src, "", string(text), p.stderr, nil)
	} else {
		path, err := findConfig(name)
		if err != nil {
			p.out.Flush()
			fmt.Fprint(p.stderr, err)
			return 1
		}
		text, err := os.ReadFile(path)
		if errors.Is(err, syscall.EISDIR) {
			text, err = nil, nil
		}
		if err != nil {
			fmt.Fprintf(p.stderr, "%s: cannot open config file %s\n", prog, path)
			return -1
		}
		compileText(p.s, comp, p.src, path, string(text), p.stderr, nil)
	}
	if p.src.fatal != nil {
		fmt.Fprint(p.stderr, p.src.fatal)
		return 1
	}
	d.eng.Add(p.program, p.program.Rules[before:], d.start)
	return -1
}
