package ruletest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/gopcp/pmie/pmapi/synth"
)

// Checking tests against real pmie takes three steps (see
// scripts/pmietest-vs-pmie.sh): Export writes each test's input and the
// pmie command that replays it; the script writes the input as archives
// with PCP's pmi module and runs real pmie -v over them; CheckPmie
// compares what real pmie printed with the tests' expectations.

// exported says which test a directory of Export's is for.
type exported struct {
	File string `json:"file"`
	Test string `json:"test"`
}

// Export writes, for each test of the files whose name matches run (all
// if nil), a directory DIR/NNN holding input.json (the synthetic input
// as synth.Specs, archives named after their hosts in that directory),
// pmie.args (real pmie's arguments, one a line, for running in that
// directory), pmie.env (its environment, one VAR=value a line) and
// test.json (the test file and test name).
func Export(dir string, paths []string, run *regexp.Regexp) error {
	n := 0
	for _, path := range paths {
		f, err := ReadFile(path)
		if err != nil {
			return err
		}
		for _, t := range f.Tests {
			if run != nil && !run.MatchString(t.Name) {
				continue
			}
			n++
			if err := exportTest(filepath.Join(dir, fmt.Sprintf("%03d", n)), f, t); err != nil {
				return fmt.Errorf("%s: test %q: %v", path, t.Name, err)
			}
		}
	}
	return nil
}

// exportTest writes one test's directory.
func exportTest(dir string, f *File, t *Test) error {
	w, err := newWorld(f, t)
	if err != nil {
		return err
	}
	defer w.close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	specs := synth.Specs{Hosts: []synth.Spec{}}
	var args []string
	for _, h := range w.hosts {
		if h.synth != nil {
			specs.Hosts = append(specs.Hosts, h.synth.Spec(h.conn))
			args = append(args, "-a", h.conn)
		} else {
			abs, err := filepath.Abs(h.path)
			if err != nil {
				return err
			}
			args = append(args, "-a", abs)
		}
	}
	if t.Archives != nil && t.StartSet {
		args = append(args, "-S", "@"+w.ctime(t.Start.Unix()))
	}
	args = append(args, "-t", strconv.FormatFloat(f.Interval.Seconds(), 'f', -1, 64), "-v")
	for _, r := range f.RuleFiles {
		abs, err := filepath.Abs(r)
		if err != nil {
			return err
		}
		args = append(args, abs)
	}
	var derived []string
	for _, d := range f.DerivedFiles {
		abs, err := filepath.Abs(d)
		if err != nil {
			return err
		}
		derived = append(derived, abs)
	}
	env := "TZ=" + t.Timezone + "\nPCP_DERIVED_CONFIG=" + strings.Join(derived, ":") + "\n"
	abs, err := filepath.Abs(f.Path)
	if err != nil {
		return err
	}
	files := map[string]any{
		"input.json": specs,
		"test.json":  exported{File: abs, Test: t.Name},
		"pmie.args":  strings.Join(args, "\n") + "\n",
		"pmie.env":   env,
	}
	for name, v := range files {
		b, ok := v.(string)
		data := []byte(b)
		if !ok {
			if data, err = json.MarshalIndent(v, "", " "); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
