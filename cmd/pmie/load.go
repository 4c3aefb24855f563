package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/gopcp/pmie/eval"
	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/lang"
	"github.com/gopcp/pmie/rules"
)

// pcpVarDir is $PCP_VAR_DIR, where pmie looks for config files named
// without a path.
func pcpVarDir() string { return pcpconf.Get("PCP_VAR_DIR") }

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
	alt := pcpVarDir() + "/config/pmie/" + name // as pmie formats it
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
// compiled, if not nil, is given each statement's rule (nil if none) and
// its file's name.
func loadRules(s settings, comp *eval.Compiler, src *sources, stdin io.Reader, stderr io.Writer, compiled func(string, *eval.Rule)) (ok, lastBad bool) {
	files := s.files
	if s.configFile != "" {
		files = []string{s.configFile}
	}
	if len(files) == 0 && s.interact {
		return true, false // the debugger's f command loads them
	}
	if len(files) == 0 {
		text, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "%s: cannot read standard input: %v\n", prog, err)
			return false, false
		}
		ok, lastBad = compileText(s, comp, src, "", string(text), stderr, compiled)
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
		if ok, lastBad = compileText(s, comp, src, path, string(text), stderr, compiled); !ok {
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
// diagnostics as pmie does (or, with --werror, in our precise form:
// file:line:col, the line and a caret), in order. It stops, returning
// false, at an archive that cannot be opened. lastBad reports whether the
// last statement pmie parsed had an error (syntax or semantic). compiled,
// if not nil, is given each statement's rule (nil if none) and name.
func compileText(s settings, comp *eval.Compiler, src *sources, name, text string, stderr io.Writer, compiled func(string, *eval.Rule)) (ok, lastBad bool) {
	var diag func(*lang.Diagnostic)
	if s.strict {
		diag = func(d *lang.Diagnostic) { io.WriteString(stderr, d.Error()+"\n") }
	}
	ok = rules.CompileText(comp, name, text, rules.Loading{
		Diag:   diag,
		Errs:   stderr,
		Notify: func(msg string) { (&logger{w: stderr, pid: os.Getpid(), pm: s.msgs}).notify(rules.Error, msg) },
		Prefetch: func(stmts []*lang.Stmt) func() {
			src.prefetch(stmts)
			return src.cool
		},
		Stop:  func() bool { return src.fatal != nil },
		Final: func(bad bool) { lastBad = bad },
		Compiled: func(_ *lang.Stmt, r *eval.Rule) {
			if compiled != nil {
				compiled(name, r)
			}
		},
	})
	return ok, lastBad
}
