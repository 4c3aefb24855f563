package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/realtest"
)

// goldenCase is one line of testdata/golden/pmie/cases.txt.
type goldenCase struct {
	name, where string
	sets        []string
	args        string
}

func readCases(t *testing.T, path string) []goldenCase {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []goldenCase
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != 4 {
			t.Fatalf("bad case line %q", line)
		}
		out = append(out, goldenCase{strings.TrimSpace(f[0]), strings.TrimSpace(f[1]),
			strings.Fields(f[2]), strings.TrimSpace(f[3])})
	}
	return out
}

var setFlags = map[string][]string{"v": {"-v"}, "V": {"-V"}, "W": {"-W"}, "Ve": {"-V", "-e"}, "err": {"-v"}}

// errLines is pmie's standard error without the line, of the day and
// process, that says the evaluator is exiting, and with the time and
// process of messages sent to its log written [TIME] pmie(PID).
func errLines(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" && !strings.Contains(l, "Info: evaluator exiting") {
			b.WriteString(l)
		}
	}
	return logStamp.ReplaceAllString(b.String(), "[TIME] pmie(PID) ")
}

// logStamp is the start of a message pmie sends to its log.
var logStamp = regexp.MustCompile(`(?m)^\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d\] pmie\(\d+\) `)

// TestGoldens runs pmie on every golden case and compares its output with
// real pmie's. Corpus cases are skipped when the shared corpus is absent.
func TestGoldens(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	gdir := filepath.Join(repo, "testdata/golden/pmie")
	corpus := realtest.CorpusDir()
	for _, c := range readCases(t, filepath.Join(gdir, "cases.txt")) {
		dir := repo
		if c.where == "corpus" {
			dir = filepath.Join(corpus, "archives")
		}
		for _, set := range c.sets {
			t.Run(c.name+"."+set, func(t *testing.T) {
				if _, err := os.Stat(dir); err != nil {
					t.Skipf("no %s", dir)
				}
				want := readGz(t, filepath.Join(gdir, c.name+"."+set+".gz"))
				args := strings.Fields(strings.ReplaceAll(c.args, "@REPO@", repo))
				for len(args) > 0 && !strings.HasPrefix(args[0], "-") && strings.Contains(args[0], "=") {
					k, v, _ := strings.Cut(args[0], "=")
					t.Setenv(k, v)
					args = args[1:]
				}
				args = append(append([]string{"-z"}, args...), setFlags[set]...)
				t.Chdir(dir)
				var out, errs bytes.Buffer
				code := run(context.Background(), nil, args, strings.NewReader(""), &out, &errs)
				if set == "err" {
					compareLines(t, errLines(errs.String())+fmt.Sprintf("exit: %d\n", code), errLines(want))
					return
				}
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errs.String())
				}
				compareLines(t, out.String(), want)
			})
		}
	}
}

func readGz(t *testing.T, path string) string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compareLines reports the first lines where got and want differ.
func compareLines(t *testing.T, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	g := bufio.NewScanner(strings.NewReader(got))
	w := bufio.NewScanner(strings.NewReader(want))
	g.Buffer(nil, 1<<20)
	w.Buffer(nil, 1<<20)
	line, bad := 0, 0
	for {
		gok, wok := g.Scan(), w.Scan()
		line++
		if !gok && !wok {
			break
		}
		if g.Text() != w.Text() || gok != wok {
			t.Errorf("line %d:\n got  %q\n want %q", line, g.Text(), w.Text())
			if bad++; bad >= 5 {
				t.Fatal("too many differences")
			}
		}
	}
}
