package ruletest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/realtest"
)

// replay does what scripts/pmietest-vs-pmie.sh does between Export and
// CheckPmie: it writes each exported test's input as archives with PCP's
// pmi module, and runs real pmie -v over them.
func replay(t *testing.T, dir string) {
	t.Helper()
	subdirs, _ := filepath.Glob(filepath.Join(dir, "[0-9]*"))
	script, err := filepath.Abs("../../scripts/pmietest-archive.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range subdirs {
		py := exec.Command(realtest.Python, script, "input.json")
		py.Dir = d
		if out, err := py.CombinedOutput(); err != nil {
			t.Fatalf("%s: pmietest-archive.py: %v\n%s", d, err, out)
		}
		args := readLines(t, filepath.Join(d, "pmie.args"))
		pmie := exec.Command("pmie", args...)
		pmie.Dir = d
		pmie.Env = append(os.Environ(), readLines(t, filepath.Join(d, "pmie.env"))...)
		var out, errs bytes.Buffer
		pmie.Stdout, pmie.Stderr = &out, &errs
		pmie.Run() // its status is pmie's business: its output is compared
		os.WriteFile(filepath.Join(d, "pmie.out"), out.Bytes(), 0o644)
		os.WriteFile(filepath.Join(d, "pmie.err"), errs.Bytes(), 0o644)
	}
}

func readLines(t *testing.T, file string) []string {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestExamplesAgainstPmie replays every example test's input, written as
// archives with PCP's pmi module, through real pmie, and checks that
// real pmie's output meets the tests' expectations and prints the values
// as pmietest's engine does.
func TestExamplesAgainstPmie(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real pmie over every example test (seconds)")
	}
	realtest.Require(t, realtest.Pmie, realtest.PCPPython)
	files := passingFiles(t)
	dir := t.TempDir()
	if err := Export(dir, files, nil); err != nil {
		t.Fatal(err)
	}
	replay(t, dir)
	var out, errs bytes.Buffer
	if CheckPmie(dir, &out, &errs) != 0 || errs.Len() > 0 {
		t.Errorf("real pmie disagrees:\n%s%s", out.String(), errs.String())
	}
	t.Log(strings.TrimSpace(out.String()))
}

// TestSyntaxErrorAsPmie checks that a test of a rule file with a syntax
// error fails with what real pmie says about it.
func TestSyntaxErrorAsPmie(t *testing.T) {
	realtest.Require(t, realtest.Pmie, realtest.PCPPython)
	const file = "testdata/fail/syntax.yaml"
	dir := t.TempDir()
	if err := Export(dir, []string{file}, nil); err != nil {
		t.Fatal(err)
	}
	replay(t, dir)
	real, err := os.ReadFile(filepath.Join(dir, "001", "pmie.err"))
	if err != nil {
		t.Fatal(err)
	}
	s := RunFile(file, nil)
	if s.Problem != nil || len(s.Results) != 1 || s.Results[0].Passed() {
		t.Fatalf("the test did not fail: %+v", s)
	}
	abs, _ := filepath.Abs("testdata/syntax.pmie")
	want := strings.ReplaceAll(string(real), abs, "testdata/syntax.pmie")
	// less the sign-off, which has a time and a process ID
	want = regexp.MustCompile(`(?m)^\[.*\] pmie\(\d+\) Info: evaluator exiting\n`).ReplaceAllString(want, "")
	if got := s.Results[0].Messages; got != want || got == "" {
		t.Errorf("pmietest says\n%s\nreal pmie says\n%s", got, want)
	}
}
