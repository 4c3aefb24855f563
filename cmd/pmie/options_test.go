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
	dir := filepath.Join(repoRoot, "testdata/golden/pmie-options")
	data, err := os.ReadFile(filepath.Join(dir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	hostWord := regexp.MustCompile(`\b` + regexp.QuoteMeta(host) + `\b`)
	logDate := regexp.MustCompile(`(?m)^(Log for pmie on \S+ started|Log finished) .*$`)
	clean := func(s string) string {
		s = logDate.ReplaceAllString(logStamp.ReplaceAllString(s, "[STAMP] "), "$1 [DATE]")
		s = hostWord.ReplaceAllString(s, "@HOST@")
		var b strings.Builder
		for _, l := range strings.SplitAfter(s, "\n") {
			if l != "" && !strings.HasPrefix(l, "[STAMP] Info: evaluator exiting") {
				b.WriteString(l)
			}
			if strings.HasPrefix(l, "Usage: pmie ") { // ours lists options of its own
				break
			}
		}
		return b.String()
	}
	cases, err := goldenfile.Cases(string(data), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cases {
		t.Run(f[0], func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, f[0]+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			for _, kv := range strings.Fields(f[1]) {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			t.Setenv("TZ", "UTC")
			logFile := filepath.Join(t.TempDir(), "pmie.log")
			code, out, errs := runPmie(t, goldenfile.Words(f[2], map[string]string{"LOG": logFile})...)
			out, errs = clean(out), clean(errs)
			got := fmt.Sprintf("command: env %s TZ=UTC pmie %s\nexit: %d\nstdout: %d lines\n%sstderr: %d lines\n%s",
				f[1], f[2], code, strings.Count(out, "\n"), out, strings.Count(errs, "\n"), errs)
			if log, err := os.ReadFile(logFile); err == nil {
				l := clean(string(log))
				got += fmt.Sprintf("log: %d lines\n%s", strings.Count(l, "\n"), l)
			}
			compareLines(t, got, string(want))
		})
	}
}
