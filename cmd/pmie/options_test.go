package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/goldenfile"
)

// TestOptionGoldens runs pmie on each case of
// testdata/golden/pmie-options (the time window, interval and zone options
// and their PCP_* defaults from the environment, the archives, host and
// namespace the environment names, and libpcp's checks of them) and
// compares its exit status, output, messages and -l $LOG log with real
// pmie's (a usage message up to its first line).
func TestOptionGoldens(t *testing.T) {
	logDate := regexp.MustCompile(`(?m)^(Log for pmie on \S+ started|Log finished) .*$`)
	clean := func(s string) string {
		s = logDate.ReplaceAllString(logStamp.ReplaceAllString(s, "[STAMP] "), "$1 [DATE]")
		return goldenClean(s, func(l string) bool { return strings.HasPrefix(l, "Usage: pmie ") }) // ours lists options of its own
	}
	goldenCases(t, filepath.Join(repoRoot, "testdata/golden/pmie-options"), 3, func(t *testing.T, f []string) string {
		for _, kv := range strings.Fields(f[1]) {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
		t.Setenv("TZ", "UTC")
		logFile := filepath.Join(t.TempDir(), "pmie.log")
		code, out, errs := runPmie(t, goldenfile.Words(f[2], map[string]string{"LOG": logFile})...)
		return goldenReport(fmt.Sprintf("env %s TZ=UTC pmie %s", f[1], f[2]), code, clean(out), clean(errs)) +
			goldenLog(logFile, clean)
	})
}

// goldenLog is the -l log file, cleaned, as the pmie-options and
// pmie-live goldens record it after the report: nothing when pmie made
// no log.
func goldenLog(file string, clean func(string) string) string {
	log, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	l := clean(string(log))
	return fmt.Sprintf("log: %d lines\n%s", strings.Count(l, "\n"), l)
}

// goldenCases runs each case of dir/cases.txt (lines of fields fields
// split at '|', the first the case's name) as a subtest, comparing what
// run makes of it with dir/NAME.golden.
func goldenCases(t *testing.T, dir string, fields int, run func(t *testing.T, f []string) string) {
	t.Helper()
	cases, err := goldenfile.ReadCases(dir, fields)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cases {
		t.Run(f[0], func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, f[0]+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			compareLines(t, run(t, f), string(want))
		})
	}
}

// goldenClean is s, pmie's output or messages with log stamps made
// [STAMP], as the gen.sh scripts of testdata/golden/pmie-options and
// pmie-live clean them: this host's name is @HOST@, the line saying the
// evaluator is exiting is left out, and lines after one last says is
// the last are left out.
func goldenClean(s string, last func(string) bool) string {
	host, _ := os.Hostname()
	s = regexp.MustCompile(`\b`+regexp.QuoteMeta(host)+`\b`).ReplaceAllString(s, "@HOST@")
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" && !strings.HasPrefix(l, "[STAMP] Info: evaluator exiting") {
			b.WriteString(l)
		}
		if last(l) {
			break
		}
	}
	return b.String()
}

// goldenReport is a run of command as the pmie-options and pmie-live
// goldens record it: the command, its exit status, then its output and
// its messages, each counted in lines.
func goldenReport(command string, code int, out, errs string) string {
	return fmt.Sprintf("command: %s\nexit: %d\nstdout: %d lines\n%sstderr: %d lines\n%s",
		command, code, strings.Count(out, "\n"), out, strings.Count(errs, "\n"), errs)
}
