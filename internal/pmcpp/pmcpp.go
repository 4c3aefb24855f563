// Package pmcpp preprocesses a file as PCP's pmcpp(1) does when libpcp
// runs it on a namespace file ("pmcpp FILE", no options): C comments
// blanked, #include and #shell, #define/#undef of word macros,
// #ifdef/#ifndef/#else/#endif (not nested), and "# N "file"" line
// markers where the input moves from one file to another. The first
// error ends the run, with pmcpp's two-line message.
//
// Its quirks are kept, as libpcp's lexer sees them: a directive is a '#'
// in the first column only, a keyword matches as a prefix ("#elsewhere"
// is an #else with extra text), a '#' line that is no directive passes
// through (and ends the skipping of a false #ifdef block), an #else that
// makes its block true leaves a nameless macro behind (so a second such
// #else, or one after an #undef, is a "Macro redefinition"), and a last
// line without a newline is dropped.
package pmcpp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/pmapi"
)

// maxLevel is how many files (the top one, includes and shell commands)
// may be open at once.
const maxLevel = 5

// Run preprocesses file as "pmcpp FILE", writing pmcpp's messages to
// stderr as they arise: the output and whether pmcpp would exit 0. As in
// libpcp, $PCP_ALT_CPP names a program to run instead (one that cannot
// be run fails as one that exits non-zero).
func Run(file string, stderr io.Writer) ([]byte, bool) {
	if alt := os.Getenv("PCP_ALT_CPP"); alt != "" {
		var out bytes.Buffer
		cmd := exec.Command(alt, file)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, &out, stderr
		err := cmd.Run()
		return out.Bytes(), err == nil
	}
	return Config{VarDir: pcpconf.Get("PCP_VAR_DIR")}.Run(file, stderr)
}

// Config is where included files are looked for beyond the current
// directory and the top file's: $PCP_VAR_DIR/pmns.
type Config struct {
	VarDir string
}

// input is one open file (or #shell command) and its line count.
type input struct {
	name   string
	r      *bufio.Reader
	lineno int
	closer io.Closer
	cmd    *exec.Cmd // a #shell command, waited for at its end
}

// macro is a #define; an #undef empties its name, as pmcpp does, so that
// it matches only a nameless lookup.
type macro struct{ name, value string }

// if states
const (
	ifFalse = iota
	ifTrue
	ifNone
)

// errStop unwinds a run at its first error, after the message.
var errStop = errors.New("pmcpp error")

type run struct {
	cfg     Config
	topDir  string
	stderr  io.Writer
	files   []*input
	line    []byte // the current line, with its newline
	macros  []macro
	inIf    int
	ifLine  int
	skip    bool
	comment int // line a comment still open began on, else 0
	ibufLen int // the size of pmcpp's input buffer
	out     bytes.Buffer
}

// Run is pmcpp FILE with c's include directory.
func (c Config) Run(file string, stderr io.Writer) (out []byte, ok bool) {
	r := &run{cfg: c, stderr: stderr, inIf: ifNone, ibufLen: 256}
	err := r.main(file)
	// an error leaves includes and commands open: pmcpp's exit ends them
	for _, f := range r.files[min(1, len(r.files)):] {
		f.closer.Close()
		if f.cmd != nil {
			f.cmd.Process.Kill()
			f.cmd.Wait()
		}
	}
	return r.out.Bytes(), err == nil
}

func (r *run) cur() *input { return r.files[len(r.files)-1] }

// fail prints pmcpp's message for an error: where (the file and line
// with the line's text, or the file alone at its end) and what.
func (r *run) fail(format string, args ...any) error {
	if len(r.files) > 0 {
		if f := r.cur(); f.lineno > 0 {
			fmt.Fprintf(r.stderr, "pmcpp: %s[%d]: %s", f.name, f.lineno, r.line)
		} else {
			fmt.Fprintf(r.stderr, "pmcpp: %s:\n", f.name)
		}
	}
	fmt.Fprintf(r.stderr, "pmcpp: Error: "+format+"\n", args...)
	return errStop
}

func (r *run) marker() {
	f := r.cur()
	fmt.Fprintf(&r.out, "# %d \"%s\"\n", f.lineno+1, f.name)
}

func (r *run) main(file string) error {
	f, err := openFile(file)
	r.files = []*input{{name: file}}
	if err != nil {
		return r.fail("%s", pmapi.Code(err).Error())
	}
	defer f.Close()
	r.files[0].r = bufio.NewReader(f)
	r.topDir = dirname(file)
	r.marker()
	for {
		line, ok, err := r.readLine(r.cur().r)
		if err != nil {
			return err
		}
		if !ok {
			if !r.endInput() {
				break
			}
			continue
		}
		r.line = line
		r.cur().lineno++
		if err := r.doLine(); err != nil {
			return err
		}
	}
	r.files = r.files[:1]
	r.cur().lineno = 0
	if r.comment != 0 {
		return r.fail("Comment at line %d not terminated before end of file", r.comment)
	}
	if r.inIf != ifNone {
		return r.fail("End of input and no matching #endif for #ifdef or #ifndef at line %d", r.ifLine)
	}
	return nil
}

// endInput closes the current input at its end, reporting whether there
// is an outer one to go back to.
func (r *run) endInput() bool {
	f := r.cur()
	if f.cmd != nil {
		err := f.cmd.Wait()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				fmt.Fprintf(r.stderr, "Warning: #shell cmd terminated by signal %d\n", int(ws.Signal()))
			} else {
				fmt.Fprintf(r.stderr, "Warning: #shell cmd returns %d exit status\n", ee.ExitCode())
			}
		}
	}
	if len(r.files) == 1 {
		return false
	}
	f.closer.Close()
	r.files = r.files[:len(r.files)-1]
	r.marker()
	return true
}

// readLine reads a line as pmcpp's fgets loop does, into its input
// buffer: fgets reads up to the buffer's room, through a newline; what it
// read is kept as far as a NUL; while what is kept does not end in a
// newline, the buffer doubles and fgets reads on after it. So a NUL ends
// the text kept of a line, which runs on into the next (or, for a line
// longer than the buffer, from the next fgets), and a last line without
// a newline is not a line (ok false). The buffer never shrinks; past 1 GiB
// pmcpp's realloc fails (its size an int doubled past INT_MAX), its
// fatal error (err): memory stays bounded on input without newlines
// (/dev/zero), as in pmcpp.
func (r *run) readLine(br *bufio.Reader) (line []byte, ok bool, err error) {
	for {
		room := r.ibufLen - len(line) - 1 // fgets(ip, ibuflen-(ip-ibuf), f)
		read, nul, nl := 0, false, false
		for read < room && !nl {
			if _, err := br.Peek(1); err != nil {
				if read == 0 {
					return nil, false, nil // fgets reads nothing: the end
				}
				break
			}
			buf, _ := br.Peek(min(br.Buffered(), room-read))
			if i := bytes.IndexByte(buf, '\n'); i >= 0 {
				buf, nl = buf[:i+1], true
			}
			if !nul {
				if i := bytes.IndexByte(buf, 0); i >= 0 {
					line, nul = append(line, buf[:i]...), true
				} else {
					line = append(line, buf...)
				}
			}
			read += len(buf)
			br.Discard(len(buf))
		}
		if len(line) > 0 && line[len(line)-1] == '\n' {
			return line, true, nil
		}
		if r.ibufLen > math.MaxInt32/2 {
			// realloc(ibuf, ibuflen*2) of an int gone negative
			fmt.Fprintf(r.stderr, "[%s] pmcpp(%d) Error: pmcpp: ibuf realloc: malloc(%d) failed: %s\n",
				time.Now().Format("Mon Jan _2 15:04:05"), os.Getpid(), uint64(1<<64-1<<31), pmapi.Code(syscall.ENOMEM).Error())
			return nil, false, errStop
		}
		r.ibufLen *= 2
	}
}

// doLine handles one line of input.
func (r *run) doLine() error {
	r.stripComments()
	if r.comment != 0 && r.line[0] == '\n' {
		r.out.WriteByte('\n')
		return nil
	}
	if r.line[0] == '#' {
		switch {
		case bytes.HasPrefix(r.line[1:], []byte("include")):
			return r.include()
		case bytes.HasPrefix(r.line[1:], []byte("shell")):
			return r.shell()
		}
		skip, err := r.directive()
		if err != nil {
			return err
		}
		if skip >= 0 {
			r.skip = skip == 1
			r.out.WriteByte('\n')
			return nil
		}
		// not a directive: a line of text after all
		r.skip = false
	} else if r.skip {
		r.out.WriteByte('\n')
		return nil
	}
	r.expand()
	r.out.Write(r.line)
	return nil
}

// stripComments blanks C comments (and what a comment still open covers),
// then drops the white space a blanked line ends with.
func (r *run) stripComments() {
	l := r.line
	blanked := false
	i := 0
	for ; l[i] != '\n'; i++ {
		switch {
		case r.comment > 0:
			blanked = true
			if l[i] == '*' && l[i+1] == '/' {
				r.comment = 0
				l[i], l[i+1] = ' ', ' '
				i++
			} else {
				l[i] = ' '
			}
		case l[i] == '/' && l[i+1] == '*':
			r.comment = r.cur().lineno
			blanked = true
			l[i], l[i+1] = ' ', ' '
			i++
		}
	}
	if blanked {
		for i > 0 && isSpace(l[i-1]) {
			i--
		}
		r.line = append(l[:i], '\n')
	}
}

// quoted finds the quoted operand of #include or #shell after the
// keyword: its text, or the message for what is wrong.
func (r *run) quoted(kw string, opens, closes string, what string) (string, error) {
	l := r.line
	p := 1 + len(kw)
	for p < len(l) && isBlank(l[p]) {
		p++
	}
	k := bytes.IndexByte([]byte(opens), l[p])
	if k < 0 {
		return "", r.fail("Expected \" or %c after #%s", opens[1], kw)
	}
	closer := closes[k]
	p++
	end := p
	for end < len(l) && l[end] != '\n' && l[end] != closer {
		end++
	}
	if end >= len(l) || l[end] != closer {
		return "", r.fail("Expected %c after %s", closer, what)
	}
	if len(r.files) == maxLevel {
		if kw == "include" {
			return "", r.fail("#include and/or #shell nesting too deep")
		}
		return "", r.fail("#shell and/or #include nesting too deep")
	}
	if len(bytes.TrimLeft(l[end+1:], " \t\n\v\f\r")) > 0 {
		return "", r.fail("Unexpected extra text in #%s line", kw)
	}
	return string(l[p:end]), nil
}

func (r *run) include() error {
	if r.skip {
		r.out.WriteByte('\n')
		return nil
	}
	name, err := r.quoted("include", "\"<", "\">", "file name")
	if err != nil {
		return err
	}
	f, found := r.find(name)
	if f == nil {
		return r.fail("Cannot open file for #include")
	}
	r.files = append(r.files, &input{name: found, r: bufio.NewReader(f), closer: f})
	r.marker()
	return nil
}

// find opens an included file: the name itself, else (a relative name)
// in the top file's directory, then $PCP_VAR_DIR/pmns.
func (r *run) find(name string) (*os.File, string) {
	if f, err := openFile(name); err == nil {
		return f, name
	}
	if len(name) > 0 && name[0] == '/' {
		return nil, ""
	}
	for _, dir := range []string{r.topDir, r.cfg.VarDir + "/pmns"} {
		p := dir + "/" + name
		if f, err := openFile(p); err == nil {
			return f, p
		}
	}
	return nil, ""
}

func (r *run) shell() error {
	if r.skip {
		r.out.WriteByte('\n')
		return nil
	}
	command, err := r.quoted("shell", "\"'", "\"'", "command")
	if err != nil {
		return err
	}
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Stderr = r.stderr
	stdout, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		return r.fail("Cannot open pipe for #shell")
	}
	r.files = append(r.files, &input{name: "<shell>", r: bufio.NewReader(stdout), closer: stdout, cmd: cmd})
	r.marker()
	return nil
}

// directive kinds, in the order pmcpp tries their keywords
var keywords = []string{"define", "undef", "ifdef", "ifndef", "endif", "else"}

// directive handles a #define, #undef, #ifdef, #ifndef, #else or #endif
// line: 1 when the lines after it are skipped, 0 when not, -1 when the
// line is none of them.
func (r *run) directive() (int, error) {
	op := r.keyword()
	if op == "" {
		return -1, nil
	}
	name, value, err := r.operands(op)
	if err != nil {
		return 0, err
	}
	if err := r.conditional(op); err != nil {
		return 0, err
	}
	switch {
	case op == "endif":
		return 0, nil
	case r.inIf == ifFalse:
		return 1, nil
	}
	return r.macroOp(op, name, value)
}

// keyword is the directive's keyword the line starts with after its '#',
// as a prefix, or "" for none.
func (r *run) keyword() string {
	for _, kw := range keywords {
		if bytes.HasPrefix(r.line[1:], []byte(kw)) {
			return kw
		}
	}
	return ""
}

// operands reads what follows the keyword op: the macro's name (but for
// #endif and #else) and a #define's value, then nothing but white space.
func (r *run) operands(op string) (name, value string, err error) {
	l := r.line
	ip := 1 + len(op)
	for isBlank(l[ip]) {
		ip++
	}
	if op != "endif" && op != "else" {
		if name, ip, err = r.macroName(ip); err != nil {
			return "", "", err
		}
		if op == "define" && l[ip] != '\n' {
			if value, ip, err = r.defineValue(ip); err != nil {
				return "", "", err
			}
		}
	}
	for ip < len(l) && isBlank(l[ip]) {
		ip++
	}
	if ip < len(l) && l[ip] != '\n' && l[ip] != '\r' {
		return "", "", r.fail("Unexpected extra text in a control line")
	}
	return name, value, nil
}

// macroName reads the macro name at ip: a letter or '_', then letters,
// digits and '_', up to white space. It returns the name and the position
// after it.
func (r *run) macroName(ip int) (string, int, error) {
	l := r.line
	if l[ip] == '\n' {
		return "", ip, r.fail("Missing macro name")
	}
	start := ip
	for ; !isBlank(l[ip]); ip++ {
		if isAlpha(l[ip]) || l[ip] == '_' || (ip > start && isDigit(l[ip])) {
			continue
		}
		break
	}
	if !isSpace(l[ip]) {
		return "", ip, r.fail("Illegal character in macro name")
	}
	return string(l[start:ip]), ip, nil
}

// defineValue reads a #define's value after the white space at ip: a
// word, or a string in single or double quotes. It returns the value and
// the position after it.
func (r *run) defineValue(ip int) (string, int, error) {
	l := r.line
	for isBlank(l[ip]) {
		ip++
	}
	var quote byte
	if l[ip] == '\'' || l[ip] == '"' {
		quote = l[ip]
		ip++
	}
	start := ip
	for ip < len(l) && ((quote == 0 && !isSpace(l[ip])) || (quote != 0 && l[ip] != quote)) {
		ip++
	}
	if quote != 0 && ip == len(l) {
		return "", ip, r.fail("Unterminated value string in #define")
	}
	value := string(l[start:ip])
	if quote != 0 {
		ip++
	}
	return value, ip, nil
}

// conditional checks that an #endif or #else has an #ifdef or #ifndef
// open, and an #ifdef or #ifndef none, then ends (#endif) or turns over
// (#else) the one open.
func (r *run) conditional(op string) error {
	switch op {
	case "endif":
		if r.inIf == ifNone {
			return r.fail("No matching #ifdef or #ifndef for #endif")
		}
		r.inIf = ifNone
	case "else":
		if r.inIf == ifNone {
			return r.fail("No matching #ifdef or #ifndef for #else")
		}
		r.inIf = 1 - r.inIf
	case "ifdef", "ifndef":
		if r.inIf != ifNone {
			return r.fail("Nested #ifdef or #ifndef")
		}
	}
	return nil
}

// macroOp does what op (#define, #undef, #ifdef, #ifndef, or an #else
// turned true) does with the macro name, as directive answers.
func (r *run) macroOp(op, name, value string) (int, error) {
	for i := range r.macros {
		if r.macros[i].name == name {
			return r.defined(op, &r.macros[i])
		}
	}
	return r.undefined(op, name, value)
}

// defined does op with a macro m that is defined: a test, an #undef, or
// (#define or #else) a redefinition.
func (r *run) defined(op string, m *macro) (int, error) {
	switch op {
	case "ifdef":
		r.inIf = ifTrue
		return 0, nil
	case "ifndef":
		r.inIf = ifFalse
		return 1, nil
	case "undef":
		m.name = ""
		return 0, nil
	}
	return 0, r.fail("Macro redefinition")
}

// undefined does op with a macro name that is not defined: a test, an
// #undef (nothing), or a definition.
func (r *run) undefined(op, name, value string) (int, error) {
	switch op {
	case "ifdef":
		r.inIf, r.ifLine = ifFalse, r.cur().lineno
		return 1, nil
	case "ifndef":
		r.inIf, r.ifLine = ifTrue, r.cur().lineno
		return 0, nil
	case "undef":
		return 0, nil
	}
	// #define, or an #else turned true (with no name)
	r.macros = append(r.macros, macro{name, value})
	return 0, nil
}

// expand replaces each word (a letter or '_', then letters, digits and
// '_') that names a macro with its value, once.
func (r *run) expand() {
	if len(r.macros) == 0 {
		return
	}
	l := r.line
	var out []byte
	changed := false
	for i := 0; i < len(l); {
		if !isAlpha(l[i]) && l[i] != '_' {
			out = append(out, l[i])
			i++
			continue
		}
		j := i + 1
		for j < len(l) && (isAlpha(l[j]) || isDigit(l[j]) || l[j] == '_') {
			j++
		}
		word := string(l[i:j])
		v, ok := r.lookup(word)
		if ok {
			out = append(out, v...)
			changed = true
		} else {
			out = append(out, word...)
		}
		i = j
	}
	if changed {
		r.line = out
	}
}

func (r *run) lookup(word string) (string, bool) {
	for _, m := range r.macros {
		if m.name != "" && m.name == word {
			return m.value, true
		}
	}
	return "", false
}

// openFile opens a file to read as pmcpp does: only a regular file or a
// character device (anything else is "not there").
func openFile(name string) (*os.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() && st.Mode()&os.ModeCharDevice == 0 {
		err = syscall.ENOENT
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// dirname is dirname(3) as glibc has it: trailing slashes ignored, "."
// for a name without one, and a leading "//" kept.
func dirname(p string) string {
	end := len(p)
	for end > 1 && p[end-1] == '/' {
		end--
	}
	i := strings.LastIndexByte(p[:end], '/')
	if i < 0 {
		return "."
	}
	dir := strings.TrimRight(p[:i], "/")
	if dir != "" {
		return dir
	}
	if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") {
		return "//"
	}
	return "/"
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }
func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
