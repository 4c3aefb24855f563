package main

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/pmprintf/pmprintftest"
)

// TestPCPStderrGoldens compares where pminfo's usage, option errors and
// libpcp's messages go, by $PCP_STDERR (standard error, a file, a
// dialog), with real pminfo's (testdata/golden/pcp-stderr).
func TestPCPStderrGoldens(t *testing.T) {
	pmprintftest.Cases(t, "../../testdata/golden/pcp-stderr", "pminfo", func(t *testing.T, args []string) (int, string, string) {
		var out, errs bytes.Buffer
		code := run(Env{Args: append([]string{"pminfo"}, args...), Environ: os.Environ(), Stdout: &out, Stderr: &errs,
			Open: openSource, Derived: newDerived, LocalTZ: time.UTC})
		return code, out.String(), errs.String()
	}, nil)
}
