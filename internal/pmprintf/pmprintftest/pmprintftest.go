// Package pmprintftest runs a command's cases of
// testdata/golden/pcp-stderr, where real PCP's tools send what they give
// through libpcp's pmprintf and pmflush, by $PCP_STDERR, and compares
// ours with them. The cases' directory and environment are set up as the
// goldens' gen.sh sets them up.
package pmprintftest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/goldenfile"
)

// Run is the command run in the case's directory (the working
// directory), with the case's environment set in the process's.
type Run func(t *testing.T, args []string) (code int, stdout, stderr string)

// stamp is a log line's "[Sun Nov 29 04:48:02] pmie(6371)", which the
// goldens have as "[STAMP] pmie".
var stamp = regexp.MustCompile(`\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]*\] ([a-z]*)\([0-9]*\)`)

// Cases runs the cases of tool in the golden directory dir, giving the
// outputs (standard output and error, the files written) to clean, if
// not nil, before they are compared.
func Cases(t *testing.T, dir, tool string, run Run, clean func(string) string) {
	testdata, err := filepath.Abs(filepath.Join(dir, "../.."))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := goldenfile.ReadCases(dir, 4)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range cases {
		if f[1] != tool {
			continue
		}
		n++
		t.Run(f[0], func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, f[0]+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			got := runCase(t, testdata, f[1], f[2], f[3], run, clean)
			if got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
	if n == 0 {
		t.Fatalf("no cases of %s", tool)
	}
}

func runCase(t *testing.T, testdata, tool, mode, args string, run Run, clean func(string) string) string {
	d := t.TempDir()
	files := map[string]string{
		"f":           "earlier\n",
		"confirm":     "#!/bin/sh\nfor a; do printf \"<%s>\\n\" \"$a\"; done >>confirm.log\necho out; echo err >&2\n",
		"noexec":      "#!/bin/sh\n",
		"bad.derived": "foo = bar +\n",
		"bad.pmie":    "x = ;\n",
		"small.pmie":  "l = kernel.all.load;\n",
	}
	for name, text := range files {
		perm := os.FileMode(0o644)
		if name == "confirm" {
			perm = 0o755
		}
		if err := os.WriteFile(filepath.Join(d, name), []byte(text), perm); err != nil {
			t.Fatal(err)
		}
	}
	unset(t, "PCP_STDERR")
	unset(t, "PCP_XCONFIRM_PROG")
	t.Setenv("TZ", "UTC")
	set := map[string][]string{
		"unset":      nil,
		"file":       {"PCP_STDERR", d + "/f"},
		"new":        {"PCP_STDERR", d + "/g"},
		"missingdir": {"PCP_STDERR", d + "/nodir/f"},
		"dir":        {"PCP_STDERR", d},
		"empty":      {"PCP_STDERR", ""},
		"dialog":     {"PCP_STDERR", "DISPLAY", "PCP_XCONFIRM_PROG", d + "/confirm"},
		"dialog-lc":  {"PCP_STDERR", "display", "PCP_XCONFIRM_PROG", d + "/confirm"},
		"noprog":     {"PCP_STDERR", "DISPLAY", "PCP_XCONFIRM_PROG", d + "/missing"},
		"noexec":     {"PCP_STDERR", "DISPLAY", "PCP_XCONFIRM_PROG", d + "/noexec"},
		"emptyprog":  {"PCP_STDERR", "DISPLAY", "PCP_XCONFIRM_PROG", ""},
		"noconf":     {"PCP_STDERR", "DISPLAY", "PCP_CONF", d + "/none"},
	}
	kv, ok := set[mode]
	if !ok {
		t.Fatalf("unknown mode %q", mode)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		t.Setenv(kv[i], kv[i+1])
	}
	t.Chdir(d)
	code, stdout, stderr := run(t, strings.Fields(strings.ReplaceAll(args, "$T", testdata)))
	norm := func(s string) string {
		s = stamp.ReplaceAllString(strings.ReplaceAll(s, d, "DIR"), "[STAMP] $1")
		if clean != nil {
			s = clean(s)
		}
		return s
	}
	var b strings.Builder
	fmt.Fprintf(&b, "command: %s %s\nmode: %s\nexit: %d\n", tool, args, mode, code)
	block := func(label, text string, there bool) {
		if !there {
			fmt.Fprintf(&b, "%s: none\n", label)
			return
		}
		text = norm(text)
		fmt.Fprintf(&b, "%s: %d bytes\n%s\n", label, len(text), text)
	}
	block("stdout", stdout, true)
	block("stderr", stderr, true)
	for _, f := range [][2]string{{"f", "f"}, {"g", "g"}, {"dialog", "confirm.log"}} {
		text, err := os.ReadFile(filepath.Join(d, f[1]))
		block(f[0], string(text), err == nil)
	}
	return b.String()
}

// unset unsets name for the rest of the test.
func unset(t *testing.T, name string) {
	t.Setenv(name, "")
	os.Unsetenv(name)
}
