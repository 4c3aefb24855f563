package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCheckGoldens runs pmie -C on every case of testdata/golden/pmie-check
// (good, partly bad, wholly bad, empty and unopenable files, several files,
// standard input) and compares its exit status and output with real
// pmie's. pmie -C's status is that of the last statement it parsed.
func TestCheckGoldens(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/golden/pmie-check")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	statuses, _ := filepath.Glob("*.status")
	if len(statuses) < 20 {
		t.Fatalf("only %d cases", len(statuses))
	}
	for _, st := range statuses {
		c := strings.TrimSuffix(st, ".status")
		args := []string{c + ".pmie"}
		stdin := ""
		if b, err := os.ReadFile(c + ".args"); err == nil {
			words := strings.Fields(string(b))
			if words[0] == "<" {
				in, err := os.ReadFile(words[1])
				if err != nil {
					t.Fatal(err)
				}
				args, stdin = nil, string(in)
			} else {
				args = words
			}
		}
		wantOut, err := os.ReadFile(c + ".out")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(st)
		want, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		var out bytes.Buffer
		got := run(context.Background(), nil, append([]string{"-C", "-a", "../../archives/pmie/alpha"}, args...),
			strings.NewReader(stdin), &out, &out)
		if got != want || out.String() != string(wantOut) {
			t.Errorf("%s: status %d, want %d; output:\n%s\nwant:\n%s", c, got, want, out.String(), wantOut)
		}
	}
}

// TestStrictCheck checks --werror: -C that fails on anything reported,
// an error in any statement or a warning, as promtool check rules does,
// and reports the rule files' problems in our precise form (file:line:col,
// the line and a caret under what each is about), compared with
// testdata/golden/pmie-werror (ours: go test -update rewrites them).
func TestStrictCheck(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/golden/pmie-check")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for file, want := range map[string]int{
		"good.pmie":     0,
		"empty.pmie":    0,
		"errfirst.pmie": 1, // pmie -C says 0: the error is not in the last statement
		"warning.pmie":  1, // pmie -C says 0: a warning
		"novar.pmie":    1,
		"partly.pmie":   1,
		"badinst.pmie":  1,
		"notbool.pmie":  1,
	} {
		var out bytes.Buffer
		got := run(context.Background(), nil, []string{"--werror", "-a", "../../archives/pmie/alpha", file},
			strings.NewReader(""), &out, &out)
		if got != want {
			t.Errorf("--werror %s: status %d, want %d; output:\n%s", file, got, want, out.String())
		}
		golden := filepath.Join("..", "pmie-werror", strings.TrimSuffix(file, ".pmie")+".out")
		if *update {
			if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if want, _ := os.ReadFile(golden); out.String() != string(want) {
			t.Errorf("--werror %s printed\n%s\nwant (%s):\n%s", file, out.String(), golden, want)
		}
	}
}
