package pmieconf

import (
	"bytes"
	"os"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// Why a rule of a generated file is deprecated.
const (
	reasonNoRule  = "rule definition no longer exists"
	reasonVersion = "rule version no longer supported"
)

// savedReader reads the saved-state block of a generated pmie file: the
// "// version rule variable = value" lines between the header and
// "// end". Every line of the block starts "//"; a line that does not
// ends it.
type savedReader struct {
	src  []byte
	i    int
	name string
	line int
	// buf is pmieconf's token buffer, as reading the rules left it.
	buf tokenBuffer
}

func (r *savedReader) getc() int {
	if r.i >= len(r.src) {
		r.i = len(r.src) + 1 // reading on after the end consumes nothing
		return -1
	}
	c := r.src[r.i]
	r.i++
	return int(c)
}

// newLine passes a newline: the next line must start "//".
func (r *savedReader) newLine() bool {
	r.line++
	return r.getc() == '/' && r.getc() == '/'
}

// token returns the next word, quoted string or '='; ok is false at the
// end of the block.
func (r *savedReader) token() (string, bool, error) {
	c := r.getc()
	for !isGraph(c) {
		if c == -1 {
			return "", false, nil
		}
		if c == '\n' && !r.newLine() {
			return "", false, nil
		}
		c = r.getc()
	}
	var b strings.Builder
	switch c {
	case '"':
		for c = r.getc(); c != '"'; c = r.getc() {
			if c == '\\' {
				c = r.getc()
			}
			if c == -1 || b.Len() == maxUnquoted {
				return "", false, r.invalid("end-of-string", pmapi.CString(b.String()))
			}
			if c == '\n' {
				return "", false, r.invalid("end-of-string", "end-of-line")
			}
			b.WriteByte(byte(c))
		}
		r.buf.store(b.String(), true)
		return pmapi.CString(b.String()), true, nil
	case '=':
		r.buf.store("=", true)
		return "=", true, nil
	}
	for isGraph(c) {
		if c == '=' {
			r.i--
			break
		}
		if b.Len() == maxUnquoted {
			return "", false, r.invalid("end-of-token", b.String())
		}
		b.WriteByte(byte(c))
		c = r.getc()
	}
	word := b.String()
	if c == '\n' && !strings.HasPrefix(word, "end") && !r.newLine() {
		r.buf.store(word, false)
		return "", false, nil
	}
	if c == '\n' && strings.HasPrefix(word, "end") {
		r.line++
	}
	r.buf.store(word, true)
	return word, true, nil
}

func (r *savedReader) invalid(expected, found string) error {
	return fromFile{r.name, r.line}.invalid(expected, found)
}

// ReadSaved reads back a pmie file pmieconf generated from the set's
// rules: the changes it records are applied to the set, and the text
// after its generated section is kept to be written again. A rule it
// has that the set does not (or in another version) is kept there too,
// commented out, and reported by the next write. The warning is set when
// the file was made from another rules path.
func (s *Set) ReadSaved(name string, src []byte) (warning string, err error) {
	if len(src) == 0 {
		return "", nil
	}
	r := &savedReader{src: src, name: name, line: 1, buf: append(tokenBuffer(nil), s.tok...)}
	path, err := r.header()
	if err != nil {
		return "", err
	}
	for _, p := range strings.Split(path, ":") {
		if p == "" || p == BuiltinPath {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return "", cerrorf("cannot access rules path component: \"%s\"", p)
		}
	}
	if path != s.Path {
		warning = sprintf("warning - pmie configuration file \"%s\"\n may not have been built using rules path:\n\t\"%s\"\n (originally built using \"%s\")",
			name, s.Path, path)
	}
	if err := s.readChanges(r); err != nil {
		return "", err
	}
	s.keepText(src[min(r.i, len(src)):])
	return warning, nil
}

// BadHeader is the complaint about a file that is not a generated pmie
// file, such as a directory, which pmieconf opens and reads nothing from.
func BadHeader(name string) error {
	return cerrorf("%s is not a rule customization file (bad header)", name)
}

func (r *savedReader) header() (string, error) {
	bad := BadHeader(r.name)
	for _, want := range []string{"//", savedMagic} {
		if tok, ok, err := r.token(); err != nil || !ok || tok != want {
			return "", bad
		}
	}
	tok, ok, err := r.token()
	if err != nil || !ok {
		return "", bad
	}
	if tok != savedVersion {
		return "", cerrorf("unknown version number in %s: \"%s\" (expected %s)", r.name, tok, savedVersion)
	}
	path, ok, err := r.token()
	if err != nil || !ok {
		return "", cerrorf("no rules path specified in %s after version number", r.name)
	}
	return path, nil
}

// readChanges applies the "// version rule variable = value" lines.
func (s *Set) readChanges(r *savedReader) error {
	for {
		tok, ok, err := r.token()
		if err != nil {
			return err
		}
		if !ok {
			return r.invalid("rule identifier or \"end\" symbol", "end-of-file")
		}
		if tok == "end" {
			return nil
		}
		version, n := strtoul(tok)
		if n != len(tok) {
			return r.invalid("version number", tok)
		}
		var words [4]string
		for i, what := range []string{"rule name", "rule attribute", "'=' symbol", "rule attribute value"} {
			w, ok, err := r.token()
			if err != nil {
				return err
			}
			if !ok {
				found := r.buf.held()
				if i >= 2 {
					found = "end-of-file"
				}
				return r.invalid(what, found)
			}
			if i == 2 && w != "=" {
				// pmieconf reports whatever its message buffer last held.
				return cerror(s.lastMsg)
			}
			words[i] = w
		}
		rule := s.Find(words[0])
		if rule == nil {
			s.lastMsg = errmsgf("rule named \"%s\" does not exist", words[0])
		}
		if rule == nil || rule.Version != uint32(version) {
			continue // deprecated when its section is read
		}
		if err := s.change(rule, words[1], words[3], fromFile{r.name, r.line}); err != nil {
			return err
		}
	}
}

// keepText reads the rest of a generated file, line by line: rules of
// the generated section that the set no longer has are kept commented
// out, and everything after the section's end is kept as it is.
func (s *Set) keepText(rest []byte) {
	var kept strings.Builder
	keepRule, keepAll := false, false
	for len(rest) > 0 {
		// pmieconf reads lines of at most 4095 bytes.
		n := bytes.IndexByte(rest, '\n') + 1
		if n == 0 || n > 4095 {
			n = min(len(rest), 4095)
		}
		line := string(rest[:n])
		rest = rest[n:]
		if keepAll {
			kept.WriteString(line)
			continue
		}
		if line == endLine {
			keepAll = true
			continue
		}
		if version, name, ok := ruleHeading(line); ok {
			reason := ""
			if r := s.Find(name); r == nil {
				reason = reasonNoRule
			} else if r.Version != version {
				reason = reasonVersion
			}
			keepRule = reason != ""
			if keepRule {
				line = sprintf("// %d %s (deprecated, %s)\n", version, name, reason)
				s.deprecate(name, version, reason)
			}
		}
		if keepRule {
			kept.WriteString("// " + line)
		}
	}
	s.saved = kept.String()
}

func (s *Set) deprecate(name string, version uint32, reason string) {
	for _, d := range s.deprecated {
		if d.Name == name && d.Version == version {
			return
		}
	}
	s.deprecated = append(s.deprecated, Deprecated{Name: name, Version: version, Reason: reason})
}

// TakeDeprecated returns the rules found deprecated since it was last
// called.
func (s *Set) TakeDeprecated() []Deprecated {
	d := s.deprecated
	s.deprecated = nil
	return d
}

// ruleHeading matches a line as sscanf(line, "// %u %s") does: "//",
// optional white space, an unsigned number, optional white space and a
// word.
func ruleHeading(line string) (uint32, string, bool) {
	if !strings.HasPrefix(line, "//") {
		return 0, "", false
	}
	rest := line[2:]
	v, n := strtoul(rest)
	if n == 0 {
		return 0, "", false
	}
	rest = rest[n:]
	rest = rest[skipSpace(rest):]
	end := 0
	for end < len(rest) && !isSpace(rest[end]) {
		end++
	}
	if end == 0 {
		return 0, "", false
	}
	return uint32(v), rest[:end], true
}
