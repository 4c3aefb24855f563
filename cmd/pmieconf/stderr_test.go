package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/pmprintf/pmprintftest"
)

// TestPCPStderrGoldens compares where pmieconf's usage and option errors
// go, by $PCP_STDERR (standard error, a file, a dialog), with real
// pmieconf's (testdata/golden/pcp-stderr).
//
// Some of the cases have no -f, and one ("--fo", that is --force) writes
// the default pmie file, which for root is the system's: the pmie files
// of root and of other users are put in a directory of the test's own.
func TestPCPStderrGoldens(t *testing.T) {
	pmprintftest.Cases(t, "../../testdata/golden/pcp-stderr", "pmieconf", func(t *testing.T, args []string) (int, string, string) {
		home := t.TempDir()
		t.Setenv("PCP_SYSCONF_DIR", home)
		t.Setenv("HOME", home)
		var out, errs bytes.Buffer
		code := run(Env{Args: append([]string{"pmieconf"}, args...), LookupEnv: os.LookupEnv, Uid: os.Getuid(),
			Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs})
		return code, out.String(), errs.String()
	}, nil)
}
