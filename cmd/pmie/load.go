package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/rules"
)

// pcpVarDir is $PCP_VAR_DIR, where pmie looks for config files named
// without a path.
func pcpVarDir() string {
	if d := os.Getenv("PCP_VAR_DIR"); d != "" {
		return d
	}
	return "/var/lib/pcp"
}

// findConfig locates a config file as pmie does: as given, or else under
// $PCP_VAR_DIR/config/pmie.
func findConfig(name string) (string, error) {
	_, err := os.Stat(name)
	if err == nil {
		return name, nil
	}
	if filepath.IsAbs(name) {
		return "", fmt.Errorf("%s: cannot access config file %s: %s\n", prog, name, errnoText(err))
	}
	alt := filepath.Join(pcpVarDir(), "config", "pmie", name)
	if _, err2 := os.Stat(alt); err2 != nil {
		return "", fmt.Errorf("%s: cannot access config file as either %s or %s: %s\n", prog, name, alt, errnoText(err))
	}
	return alt, nil
}

// errnoText is strerror's text for a file error.
func errnoText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		err = pe.Err
	}
	s := err.Error()
	if s != "" {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// loadRules reads the rule files (or standard input) and compiles them.
// ok is false when pmie stops loading (a file that cannot be found, an
// archive that cannot be opened); lastBad reports, as pmie's -C exit
// status does, whether the last statement pmie parsed had an error.
func loadRules(s settings, comp *eval.Compiler, src *sources, stdin io.Reader, stderr io.Writer) (ok, lastBad bool) {
	files := s.files
	if s.configFile != "" {
		files = []string{s.configFile}
	}
	if len(files) == 0 {
		text, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "%s: cannot read standard input: %v\n", prog, err)
			return false, false
		}
		ok, lastBad = compileText(comp, src, "", string(text), stderr)
		return ok && src.fatal == nil, lastBad
	}
	for _, f := range files {
		path, err := findConfig(f)
		if err != nil {
			fmt.Fprint(stderr, err)
			return false, lastBad
		}
		text, err := os.ReadFile(path)
		if errors.Is(err, syscall.EISDIR) {
			// pmie opens a directory and reads it as empty
			text, err = nil, nil
		}
		if err != nil {
			// pmie parses nothing, so the last status stays
			fmt.Fprintf(stderr, "%s: cannot open config file %s\n", prog, path)
			continue
		}
		var ok bool
		if ok, lastBad = compileText(comp, src, path, string(text), stderr); !ok {
			return false, lastBad
		}
	}
	return true, lastBad
}

// firstConfig is the rules file pmie records in its statistics file: the
// first named, where it was found, or "<stdin>".
func firstConfig(s settings) string {
	files := s.files
	if s.configFile != "" {
		files = []string{s.configFile}
	}
	if len(files) == 0 {
		return "<stdin>"
	}
	path, _ := findConfig(files[0])
	return path
}

// compileText parses one rule file and compiles its statements, printing
// diagnostics as pmie does, in order. It stops, returning false, at an
// archive that cannot be opened. lastBad reports whether the last
// statement pmie parsed had an error (syntax or semantic).
func compileText(comp *eval.Compiler, src *sources, name, text string, stderr io.Writer) (ok, lastBad bool) {
	f := lang.ParsePmie(name, text)
	src.prefetch(f.Stmts)
	defer src.cool()
	di := 0
	// syntax prints the parser's diagnostics up to offset before.
	syntax := func(before int) {
		for ; di < len(f.Diags) && (before < 0 || f.Diags[di].Span.Start.Offset < before); di++ {
			io.WriteString(stderr, lang.PCPPmieText(name, lang.Diagnostics{f.Diags[di]}))
		}
	}
	lastBad = f.FinalErrors > 0
	for _, st := range f.Stmts {
		syntax(st.Span.Start.Offset)
		where := pmieWhere(name, scannerLine(f.Src, st.Span.End.Offset))
		comp.B.Report = func(d eval.Diag) {
			switch {
			case d.Syntax:
				fmt.Fprintf(stderr, "%s: syntax error - %s\n%s\n", prog, where, d.Msg)
			case d.Warning:
				fmt.Fprintf(stderr, "%s: warning - %s\n%s\n", prog, where, d.Msg)
			case d.Notify:
				(&logger{w: stderr, pid: os.Getpid()}).notify(rules.Error, d.Msg)
			default:
				fmt.Fprintf(stderr, "%s\n", d.Msg)
			}
		}
		comp.Statement(st)
		if st == f.FinalStmt && comp.B.Errors() > 0 {
			lastBad = true
		}
		if src.fatal != nil {
			return false, lastBad
		}
	}
	syntax(-1)
	return true, lastBad
}

// scannerLine is the line pmie's scanner has reached when it finishes the
// statement ending at offset end: past the ";" and the white space after
// it. 0 means the end of the file.
func scannerLine(src *lang.Source, end int) int {
	t := src.Text
	i := end
	for i < len(t) && t[i] != ';' && t[i] != '}' {
		i++
	}
	if i < len(t) {
		i++
	}
	for i < len(t) && (t[i] == ' ' || t[i] >= '\t' && t[i] <= '\r') {
		i++
	}
	if i >= len(t) {
		return 0
	}
	return src.Pos(i).Line
}

// pmieWhere is where pmie says an error is: "near line N of file F".
func pmieWhere(file string, line int) string {
	switch {
	case line == 0:
		return "at end of file"
	case file == "":
		return fmt.Sprintf("near line %d of standard input", line)
	}
	return fmt.Sprintf("near line %d of file %s", line, file)
}
