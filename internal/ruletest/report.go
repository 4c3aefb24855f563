package ruletest

import (
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// Suite is the outcome of one test file: the file's own problems, or the
// results of its tests.
type Suite struct {
	Path    string
	Problem error // the file could not be read or is not a valid test file
	Results []*Result
}

// Failed counts the failed tests (a file with a problem counts as one).
func (s *Suite) Failed() int {
	if s.Problem != nil {
		return 1
	}
	n := 0
	for _, r := range s.Results {
		if !r.Passed() {
			n++
		}
	}
	return n
}

// RunFile reads a test file and runs the tests whose names match run
// (all of them if run is nil).
func RunFile(path string, run *regexp.Regexp) *Suite {
	s := &Suite{Path: path}
	f, err := ReadFile(path)
	if err != nil {
		s.Problem = err
		return s
	}
	for _, t := range f.Tests {
		if run == nil || run.MatchString(t.Name) {
			s.Results = append(s.Results, Run(f, t))
		}
	}
	return s
}

// WriteText reports the outcome of suites: every failure with the test's
// name and place, the time, what was expected and what the rules gave,
// and (verbose) a line for each test that passed; then a summary. It
// returns the number of tests that failed.
func WriteText(w io.Writer, suites []*Suite, verbose bool) int {
	failed, total := 0, 0
	for _, s := range suites {
		if s.Problem != nil {
			fmt.Fprintf(w, "--- FAIL: %s\n%s\n", s.Path, indent(s.Problem.Error(), "    "))
			failed++
			total++
			continue
		}
		for _, r := range s.Results {
			total++
			if r.Passed() {
				if verbose {
					fmt.Fprintf(w, "--- ok: %s: %s (%s)\n", s.Path, r.Test.Name, r.Elapsed.Round(time.Microsecond))
				}
				continue
			}
			failed++
			writeFailures(w, r)
		}
	}
	if failed > 0 {
		fmt.Fprintf(w, "FAIL: %d of %s failed\n", failed, tests(total))
	} else {
		fmt.Fprintf(w, "ok: %s passed\n", tests(total))
	}
	return failed
}

// tests is "1 test" or "N tests".
func tests(n int) string {
	if n == 1 {
		return "1 test"
	}
	return fmt.Sprintf("%d tests", n)
}

// writeFailures reports the failures of one test.
func writeFailures(w io.Writer, r *Result) {
	t := r.Test
	fmt.Fprintf(w, "--- FAIL: %s: %s (%s)\n", r.File.Path, t.Name, spanText(r.File.Src, t.Span))
	for _, f := range r.Failures {
		fmt.Fprint(w, indent(f.String(), "    "), "\n")
	}
	if r.Messages != "" && !strings.Contains(failureTexts(r), r.Messages) {
		fmt.Fprintf(w, "    pmie said:\n%s\n", indent(strings.TrimRight(r.Messages, "\n"), "        "))
	}
}

func failureTexts(r *Result) string {
	var b strings.Builder
	for _, f := range r.Failures {
		b.WriteString(f.Text)
	}
	return b.String()
}

// String describes a failure: where, what was expected and what came.
func (f Failure) String() string {
	var b strings.Builder
	if f.HasAt {
		fmt.Fprintf(&b, "at %s (%s): ", durationText(f.At), f.Time)
	}
	b.WriteString(f.What)
	if f.Text != "" {
		b.WriteString(":\n" + indent(strings.TrimRight(f.Text, "\n"), "    "))
		return b.String()
	}
	fmt.Fprintf(&b, "\n    expected: %s\n    got:      %s", f.Expected, f.Got)
	return b.String()
}

// indent puts prefix before every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// JUnit XML, as CI systems read it: a testsuite per file, a testcase per
// test, with a failure element for each test that failed.

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Tests   int          `xml:"tests,attr"`
	Failed  int          `xml:"failures,attr"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name   string      `xml:"name,attr"`
	Tests  int         `xml:"tests,attr"`
	Failed int         `xml:"failures,attr"`
	Time   float64     `xml:"time,attr"`
	Cases  []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      float64       `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the outcome of suites as JUnit XML.
func WriteJUnit(w io.Writer, suites []*Suite) error {
	var out junitSuites
	for _, s := range suites {
		js := junitSuite{Name: s.Path}
		if s.Problem != nil {
			js.Cases = append(js.Cases, junitCase{Name: "(test file)", ClassName: s.Path,
				Failure: &junitFailure{Message: "bad test file", Text: s.Problem.Error()}})
		}
		for _, r := range s.Results {
			c := junitCase{Name: r.Test.Name, ClassName: s.Path, Time: r.Elapsed.Seconds()}
			if !r.Passed() {
				var b strings.Builder
				for _, f := range r.Failures {
					b.WriteString(f.String() + "\n")
				}
				c.Failure = &junitFailure{Message: fmt.Sprintf("%d expectations not met", len(r.Failures)), Text: b.String()}
			}
			js.Time += c.Time
			js.Cases = append(js.Cases, c)
		}
		js.Tests = len(js.Cases)
		js.Failed = s.Failed()
		out.Tests += js.Tests
		out.Failed += js.Failed
		out.Suites = append(out.Suites, js)
	}
	io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
