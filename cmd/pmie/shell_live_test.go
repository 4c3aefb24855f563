package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/realtest"
)

// crafted are process names (argv[0]) that try to run a command when
// pmie puts their instance names (proc.psinfo: "PID name", the name cut
// at its first space) into a shell action: each would create PWNEDn in
// pmie's directory. Between them they hold ; $(...) backquotes, single
// and double quotes, newlines, tabs and backslashes, and the PID gives
// each name a space.
var crafted = []string{
	";id>PWNED1;",
	"$(id>PWNED2)",
	"`id>PWNED3`",
	"';id>PWNED4;'",
	`";id>PWNED5;"`,
	"\nid>PWNED6\n",
	"\tid>PWNED7",
	`\';id>PWNED8;'\`,
	`\";id>PWNED9;#`,
	"*?[a]~#!&|<>{x,y}",
}

// startCrafted starts a sleep under each crafted name (after marker),
// and returns the instance names the proc PMDA gives them.
func startCrafted(t *testing.T, marker string) []string {
	t.Helper()
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep program")
	}
	var names []string
	for _, c := range crafted {
		argv0 := marker + c
		cmd := exec.Command(sleep, "60")
		cmd.Args[0] = argv0
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
		short, _, _ := strings.Cut(argv0, " ")
		names = append(names, fmt.Sprintf("%06d %s", cmd.Process.Pid, short))
	}
	sort.Strings(names)
	return names
}

// shellRules writes a recorder and the rules that give it the instance
// names through %i outside quotes (u), between single quotes (s) and
// between double quotes (d). The recorder appends its arguments, each
// ended by a NUL, to the file its first argument names.
func shellRules(t *testing.T, dir, marker string) string {
	t.Helper()
	rec := filepath.Join(dir, "rec")
	script := "#!/bin/sh\nout=$1\nshift\nfor a do printf '%s\\0' \"$a\" >>\"$out\"; done\n"
	if err := os.WriteFile(rec, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	rules := fmt.Sprintf(`crafted = some_inst ( match_inst "%s" proc.psinfo.rss > 0 )
    -> shell "%s u" " %%i" & shell "%s s" " '%%i'" & shell "%s d" " \"%%i\"";
`, marker, rec, rec, rec)
	name := filepath.Join(dir, "crafted.pmie")
	if err := os.WriteFile(name, []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// pwned lists the files the crafted names' commands made in dir.
func pwned(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "PWNED*"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	return m
}

// recorded is the distinct arguments the recorder got into file.
func recorded(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Error(err)
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, a := range strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00") {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// pmieArgs evaluates the rules twice, a second apart, on the local pmcd.
func pmieArgs(rules string) []string {
	return []string{"-h", "local:", "-c", rules, "-t", "1sec", "-T", "1500msec"}
}

// TestShellValuesLive runs shell actions on instance names of processes
// with crafted names, from the real pmcd's proc PMDA: our pmie runs no
// injected command and each action gets the names as text, wherever %i
// stands; with --raw-shell-values, and real pmie, the commands run.
func TestShellValuesLive(t *testing.T) {
	realtest.Require(t, realtest.Proc)
	marker := fmt.Sprintf("Q%dQ", os.Getpid())
	names := startCrafted(t, marker)

	t.Run("ours", func(t *testing.T) {
		dir := t.TempDir()
		rules := shellRules(t, dir, marker)
		t.Chdir(dir)
		var out, errs bytes.Buffer
		if code := run(context.Background(), nil, pmieArgs(rules), strings.NewReader(""), &out, &errs); code != 0 {
			t.Fatalf("status %d: %s", code, errs.String())
		}
		if p := pwned(t, dir); len(p) > 0 {
			t.Errorf("injected commands ran: %v", p)
		}
		if errs.Len() > 0 && strings.Contains(errs.String(), "not run") {
			t.Errorf("actions refused:\n%s", errs.String())
		}
		for _, where := range []string{"u", "s", "d"} {
			got := recorded(t, filepath.Join(dir, where))
			if strings.Join(got, "\x00") != strings.Join(names, "\x00") {
				t.Errorf("%%i in place %s: the action got\n%q\nwant\n%q", where, got, names)
			}
		}
	})

	t.Run("raw-shell-values", func(t *testing.T) {
		dir := t.TempDir()
		rules := shellRules(t, dir, marker)
		t.Chdir(dir)
		var out, errs bytes.Buffer
		run(context.Background(), nil, append([]string{"--raw-shell-values"}, pmieArgs(rules)...),
			strings.NewReader(""), &out, &errs)
		if !strings.HasPrefix(errs.String(), "pmie: "+rawShellWarning) {
			t.Errorf("no warning; messages:\n%s", errs.String())
		}
		if p := pwned(t, dir); len(p) == 0 {
			t.Error("pmie's way: the crafted names' commands should have run")
		} else {
			t.Logf("as pmie, the crafted names ran: %v", p)
		}
	})

	t.Run("real pmie", func(t *testing.T) {
		realtest.Require(t, realtest.Pmie)
		dir := t.TempDir()
		rules := shellRules(t, dir, marker)
		cmd := exec.Command("pmie", pmieArgs(rules)...)
		cmd.Dir = dir
		msgs, _ := cmd.CombinedOutput()
		p := pwned(t, dir)
		if len(p) == 0 {
			t.Errorf("real pmie ran none of the injected commands; it said:\n%s", msgs)
		}
		t.Logf("real pmie ran the commands of crafted names: %v", p)
	})
}
