package main

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := run(args, &out, &errs)
	return code, out.String(), errs.String()
}

func TestExamplesPass(t *testing.T) {
	files, _ := filepath.Glob("../../examples/tests/*.yaml")
	code, out, errs := runCmd(t, append([]string{"-v"}, files...)...)
	if code != 0 || errs != "" {
		t.Fatalf("status %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "--- ok: ") || !strings.HasPrefix(out[strings.LastIndex(out[:len(out)-1], "\n")+1:], "ok: ") {
		t.Errorf("output:\n%s", out)
	}
}

func TestFailureStatus(t *testing.T) {
	code, out, _ := runCmd(t, "../../internal/ruletest/testdata/fail/values.yaml")
	if code != 1 || !strings.Contains(out, "FAIL: 2 of 2 tests failed") {
		t.Errorf("status %d\n%s", code, out)
	}
	// --run selects tests by name
	code, out, _ = runCmd(t, "--run", "^alert", "../../internal/ruletest/testdata/fail/values.yaml")
	if code != 1 || !strings.Contains(out, "FAIL: 1 of 1 test failed") || strings.Contains(out, "wrong values") {
		t.Errorf("--run: status %d\n%s", code, out)
	}
	code, out, _ = runCmd(t, "--run", "^nothing$", "../../internal/ruletest/testdata/fail/values.yaml")
	if code != 0 || out != "ok: 0 tests passed\n" {
		t.Errorf("--run selecting nothing: status %d\n%s", code, out)
	}
	// a bad test file
	code, out, _ = runCmd(t, "../../internal/ruletest/testdata/bad/values.yaml")
	if code != 1 || !strings.Contains(out, "testdata/bad/values.yaml:6:19: error: values:") || !strings.Contains(out, "^~~") {
		t.Errorf("bad file: status %d\n%s", code, out)
	}
	// usage errors
	for _, args := range [][]string{{}, {"--run", "("}, {"--bogus", "x.yaml"}} {
		if code, _, errs := runCmd(t, args...); code != 2 || errs == "" {
			t.Errorf("%q: status %d, %q", args, code, errs)
		}
	}
	if code, out, _ := runCmd(t, "no/such/file.yaml"); code != 1 || !strings.Contains(out, "no such file") {
		t.Errorf("missing file: status %d\n%s", code, out)
	}
}

func TestJUnit(t *testing.T) {
	file := filepath.Join(t.TempDir(), "junit.xml")
	code, _, errs := runCmd(t, "--junit", file, "../../examples/tests/rising.yaml", "../../internal/ruletest/testdata/fail/values.yaml",
		"../../internal/ruletest/testdata/bad/dup.yaml")
	if code != 1 || errs != "" {
		t.Fatalf("status %d %s", code, errs)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests  int `xml:"tests,attr"`
		Failed int `xml:"failures,attr"`
		Suites []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	var got []string
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			state := "ok"
			if c.Failure != nil {
				state = "FAIL " + c.Failure.Message
				if c.Failure.Text == "" {
					t.Errorf("%s: failure without text", c.Name)
				}
			}
			got = append(got, filepath.Base(s.Name)+": "+c.Name+": "+state)
		}
	}
	want := []string{
		"rising.yaml: rising and falling fire on transitions only: ok",
		"values.yaml: wrong values: FAIL 7 expectations not met",
		"values.yaml: alerts: FAIL 1 expectations not met",
		"dup.yaml: (test file): FAIL bad test file",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || doc.Tests != 4 || doc.Failed != 3 {
		t.Errorf("got %d tests, %d failed:\n%s\n%s", doc.Tests, doc.Failed, strings.Join(got, "\n"), b)
	}
}

// TestREADMEExample checks that the README shows the example files as
// they are (so the example it runs is the one it shows).
func TestREADMEExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"../../examples/tests/cpu.pmie", "../../examples/tests/cpu.yaml"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var block []string
		for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
			if line != "" {
				line = "    " + line
			}
			block = append(block, line)
		}
		if !strings.Contains(string(readme), strings.Join(block, "\n")+"\n") {
			t.Errorf("the README does not show %s as it is", f)
		}
	}
	if code, out, _ := runCmd(t, "../../examples/tests/cpu.yaml"); code != 0 || out != "ok: 1 test passed\n" {
		t.Errorf("the example: status %d\n%s", code, out)
	}
	// and the failure it shows, had the test expected busy to be true
	// at 10s
	b, _ := os.ReadFile("../../examples/tests/cpu.yaml")
	abs, _ := filepath.Abs("../../examples/tests/cpu.pmie")
	text := strings.Replace(string(b), "values: {busy: false}     # 0.7", "values: {busy: true}     # 0.7", 1)
	text = strings.Replace(text, "rule_files: [cpu.pmie]", "rule_files: ["+abs+"]", 1)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cpu.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCmd(t, filepath.Join(dir, "cpu.yaml"))
	out = strings.ReplaceAll(out, abs, "examples/tests/cpu.pmie")
	out = strings.ReplaceAll(out, dir, "examples/tests")
	var shown []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		shown = append(shown, "    "+line)
	}
	if code != 1 || !strings.Contains(string(readme), "\n"+strings.Join(shown, "\n")+"\n") {
		t.Errorf("the README does not show this failure as pmietest prints it:\n%s", out)
	}
}
