package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gopcp/pmie/internal/goldenfile"
	"github.com/gopcp/pmie/internal/realtest"
)

// ctimeDate is a date as ctime(3) writes it, as pmie's print actions and
// -v/-V lines have it live.
var ctimeDate = regexp.MustCompile(`[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4}`)

// TestLiveGoldens runs each case of testdata/golden/pmie-live on the
// local pmcd, as a process of its own (this test binary as pmie: what
// shell actions write goes to its standard output and error), and
// compares its exit status, output and messages with real pmie's. It
// needs a pmcd.
func TestLiveGoldens(t *testing.T) {
	realtest.Require(t, realtest.Pmcd)
	clean := func(s string) string {
		s = ctimeDate.ReplaceAllString(logStamp.ReplaceAllString(s, "[STAMP] "), "[DATE]")
		return goldenClean(s, func(string) bool { return false })
	}
	goldenCases(t, filepath.Join(repoRoot, "testdata/golden/pmie-live"), 2, func(t *testing.T, f []string) string {
		var out, errs bytes.Buffer
		cmd := exec.Command(os.Args[0], goldenfile.Words(f[1], nil)...)
		cmd.Dir = repoRoot
		cmd.Env = append(ourEnv(), "TZ=UTC")
		cmd.Stdout, cmd.Stderr = &out, &errs
		code := 0
		if err := cmd.Run(); err != nil {
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatal(err)
			}
			code = exit.ExitCode()
		}
		return goldenReport("TZ=UTC pmie "+f[1], code, clean(out.String()), clean(errs.String()))
	})
}
