// Command pmietest runs unit tests of pmie rule files, as promtool's
// "test rules" does for Prometheus rules: YAML test files give rule files,
// synthetic input (or archives), and what the rules must give at chosen
// evaluation times. The rules are evaluated by the same engine pmie runs
// over archives (pmie -a), on the input's clock.
//
//	pmietest [-v] [--run REGEX] [--junit FILE] TESTFILE...
//
// It prints each failure (the test, the time, what was expected and what
// the rules gave, and the rule's file:line) and a summary, and exits with
// status 1 if any test failed or any test file is bad (its problems are
// reported as file:line:col with the line and a caret).
//
// It is a command of its own, not "pmie test": pmie takes any number of
// rule files as operands, so "pmie test x.yaml" already means two rule
// files, and a long option would change what the abbreviations of pmie's
// own long options mean (as promtool is apart from prometheus).
//
// For checking tests against real pmie (scripts/pmietest-vs-pmie.sh):
//
//	pmietest --export DIR TESTFILE...
//
// writes, for each test with synthetic input, DIR/NNN/ with input.json
// (its input, for scripts/pmietest-archive.py to write as archives with
// PCP's pmi module), pmie.args (pmie's arguments, one a line), pmie.env
// (its environment) and test.json (which test it is); and
//
//	pmietest --check-pmie DIR
//
// compares the output of real pmie -v left in DIR/NNN/pmie.out with each
// test's expectations, and with what this engine prints, and prints the
// counts.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"

	"github.com/gopcp/pmie/internal/ruletest"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is pmietest: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pmietest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	verbose := fs.Bool("v", false, "also list the tests that pass")
	runRE := fs.String("run", "", "run only the tests whose names match `REGEX`")
	junit := fs.String("junit", "", "also write the results as JUnit XML to `FILE`")
	export := fs.String("export", "", "write each test's input and pmie command to `DIR`, for scripts/pmietest-vs-pmie.sh")
	checkPmie := fs.String("check-pmie", "", "compare real pmie's output left in `DIR` by scripts/pmietest-vs-pmie.sh with the tests")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: pmietest [-v] [--run REGEX] [--junit FILE] TESTFILE...\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var re *regexp.Regexp
	if *runRE != "" {
		var err error
		if re, err = regexp.Compile(*runRE); err != nil {
			fmt.Fprintf(stderr, "pmietest: --run: %v\n", err)
			return 2
		}
	}
	switch {
	case *checkPmie != "":
		return ruletest.CheckPmie(*checkPmie, stdout, stderr)
	case fs.NArg() == 0:
		fs.Usage()
		return 2
	case *export != "":
		if err := ruletest.Export(*export, fs.Args(), re); err != nil {
			fmt.Fprintf(stderr, "pmietest: %v\n", err)
			return 1
		}
		return 0
	}
	var suites []*ruletest.Suite
	for _, path := range fs.Args() {
		suites = append(suites, ruletest.RunFile(path, re))
	}
	failed := ruletest.WriteText(stdout, suites, *verbose)
	if *junit != "" {
		if err := writeJUnit(*junit, suites); err != nil {
			fmt.Fprintf(stderr, "pmietest: --junit: %v\n", err)
			return 1
		}
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// writeJUnit writes the results to a file as JUnit XML.
func writeJUnit(path string, suites []*ruletest.Suite) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := ruletest.WriteJUnit(f, suites); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
