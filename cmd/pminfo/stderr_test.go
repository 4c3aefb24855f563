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

// TestEnvNamespaceMissing has $PCP_NAMESPACE name a file that is not
// there: libpcp's two lines and status 1, as real pminfo 6.0.3 (ours
// flushed them through a pmprintf buffer not yet made, and panicked).
func TestEnvNamespaceMissing(t *testing.T) {
	var out, errs bytes.Buffer
	code := run(Env{Args: []string{"pminfo", "-m", "x"}, Environ: []string{"PCP_NAMESPACE=nofile"}, Stdout: &out, Stderr: &errs,
		Open: openSource, Derived: newDerived, LocalTZ: time.UTC})
	const want = "Error Parsing ASCII PMNS: Cannot open \"nofile\"\n" +
		"pminfo: Cannot load namespace from \"nofile\": No such file or directory\n"
	if code != 1 || out.String() != "" || errs.String() != want {
		t.Errorf("status %d, stdout %q, stderr %q; want 1, \"\", %q", code, out.String(), errs.String(), want)
	}
}
