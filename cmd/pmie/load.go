package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

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

// loadRules reads the rule files (or standard input) and compiles them;
// keyFiles, if not nil, is told the file of each rule (by key).
func loadRules(s settings, comp *eval.Compiler, src *sources, stdin io.Reader, stderr io.Writer, keyFiles map[string]string) bool {
	files := s.files
	if s.configFile != "" {
		files = []string{s.configFile}
	}
	if len(files) == 0 {
		text, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "%s: cannot read standard input: %v\n", prog, err)
			return false
		}
		compileText(comp, src, "", string(text), stderr, keyFiles)
		return src.fatal == nil
	}
	for _, f := range files {
		path, err := findConfig(f)
		if err != nil {
			fmt.Fprint(stderr, err)
			return false
		}
		text, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "%s: cannot open config file %s\n", prog, path)
			continue
		}
		if !compileText(comp, src, path, string(text), stderr, keyFiles) {
			return false
		}
	}
	return true
}

// compileText parses one rule file and compiles its statements, printing
// diagnostics as pmie does, in order. It stops, returning false, at an
// archive that cannot be opened.
func compileText(comp *eval.Compiler, src *sources, name, text string, stderr io.Writer, keyFiles map[string]string) bool {
	return rules.CompileText(comp, name, text, rules.Loading{
		Compiled: func(_ *lang.Stmt, r *eval.Rule) {
			if r != nil && keyFiles != nil {
				keyFiles[r.Key] = name
			}
		},
		Errs:   stderr,
		Notify: func(msg string) { (&logger{w: stderr, pid: os.Getpid()}).notify(rules.Error, msg) },
		Prefetch: func(stmts []*lang.Stmt) func() {
			src.prefetch(stmts)
			return src.cool
		},
		Stop: func() bool { return src.fatal != nil },
	})
}
