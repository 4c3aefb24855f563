package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/goldenfile"
	"github.com/gopcp/pmie/internal/realtest"
)

// printfText is what printf(1) makes of a format without conversions:
// \n, \t, \\ and \NNN (octal) escapes.
func printfText(t *testing.T, s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; {
		case c == 'n':
			b.WriteByte('\n')
		case c == 't':
			b.WriteByte('\t')
		case c == '\\':
			b.WriteByte('\\')
		case c >= '0' && c <= '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 8)
			b.WriteByte(byte(v))
			i = j - 1
		default:
			t.Fatalf("escape \\%c not handled", c)
		}
	}
	return b.String()
}

// debugClean makes pmie's output comparable: log stamps become [STAMP],
// and a usage message ends at its first line (ours lists options of its
// own).
func debugClean(s string) string {
	s = logStamp.ReplaceAllString(s, "[STAMP] ")
	if i := strings.Index(s, "Usage: pmie "); i >= 0 {
		if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
			s = s[:i+j+1]
		}
	}
	return s
}

// TestDebugGoldens runs pmie -d, pmie's debugger, on the commands of
// testdata/golden/pmie-debug/cases.txt and compares its output and status
// with real pmie's (gen.sh).
func TestDebugGoldens(t *testing.T) {
	dir := filepath.Join(repoRoot, "testdata/golden/pmie-debug")
	cases, err := goldenfile.ReadCases(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cases {
		t.Run(f[0], func(t *testing.T) {
			name := filepath.Join(dir, f[0]+".golden")
			text, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			g := goldenfile.New(name, string(text))
			g.Line() // the command
			status, err := g.Value("exit")
			if err != nil {
				t.Fatal(err)
			}
			wantOut, err := g.Block("stdout")
			if err != nil {
				t.Fatal(err)
			}
			wantErr, err := g.Block("stderr")
			if err != nil {
				t.Fatal(err)
			}
			t.Setenv("TZ", "UTC")
			t.Chdir(root)
			var out, errs bytes.Buffer
			code := run(context.Background(), nil, goldenfile.Words(f[2], nil),
				strings.NewReader(printfText(t, f[1])), &out, &errs)
			if strconv.Itoa(code) != status {
				t.Errorf("exit status %d, want %s", code, status)
			}
			compareLines(t, out.String(), wantOut)
			compareLines(t, debugClean(errs.String()), debugClean(wantErr))
		})
	}
}

// debugRun runs pmie -d with input on its standard input.
func debugRun(t *testing.T, input string, args ...string) (int, string, string) {
	t.Helper()
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	t.Setenv("TZ", "UTC")
	var out, errs bytes.Buffer
	code := run(context.Background(), nil, append([]string{"-d"}, args...), strings.NewReader(input), &out, &errs)
	return code, out.String(), errs.String()
}

// TestDebugListUnlistable checks what our debugger lists where pmie's
// stops on an assertion (README): a reserved variable by its value, and a
// syslog action without a message by its level and tag.
func TestDebugListUnlistable(t *testing.T) {
	rules := filepath.Join(t.TempDir(), "r.pmie")
	text := "v1 = synth.instant.float #sdb > $delta;\n" +
		"v2 = synth.instant.u32 #sdb > 5 -> syslog \"-t\" \"tg\";\n"
	if err := os.WriteFile(rules, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := debugRun(t, "l\nq\n", "-a", "testdata/archives/synth-v3", rules)
	want := "pmie> v1 =\nsynth.instant.float :synthhost #sdb > 10;\n\n" +
		"v2 =\nsynth.instant.u32 :synthhost #sdb > 5 -> syslog [level=5 tag=\"tg\"];\n\npmie> "
	if code != 0 || !strings.HasSuffix(out, want) || errs != "" {
		t.Errorf("status %d, stdout ends:\n%s\nstderr:\n%s\nwant stdout to end:\n%s", code, out[max(0, len(out)-200):], errs, want)
	}
}

// TestDebugLive runs the debugger on the local pmcd: a run of a given
// length evaluates the rules from now, and the listing names pmcd's host.
func TestDebugLive(t *testing.T) {
	realtest.Require(t, realtest.Pmcd)
	rules := filepath.Join(t.TempDir(), "r.pmie")
	if err := os.WriteFile(rules, []byte("delta = 200 msec;\nn = hinv.ncpu > 0;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := debugRun(t, "l\nr 500msec\nq\n", "-v", "-h", "localhost", rules)
	if code != 0 {
		t.Fatalf("status %d, stderr:\n%s", code, errs)
	}
	if !strings.Contains(out, "pmie> n =\nhinv.ncpu :") || !strings.Contains(out, "n: true\n") {
		t.Errorf("stdout:\n%s", out)
	}
	if n := strings.Count(out, "n: true\n"); n < 2 || n > 4 {
		t.Errorf("%d evaluations in 500 msec at 200 msec, stdout:\n%s", n, out)
	}
	if !strings.Contains(errs, "Info: evaluator exiting\n") {
		t.Errorf("stderr:\n%s", errs)
	}
}
