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
func TestPCPStderrGoldens(t *testing.T) {
	pmprintftest.Cases(t, "../../testdata/golden/pcp-stderr", "pmieconf", func(t *testing.T, args []string) (int, string, string) {
		var out, errs bytes.Buffer
		code := run(Env{Args: append([]string{"pmieconf"}, args...), LookupEnv: os.LookupEnv, Uid: os.Getuid(),
			Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs})
		return code, out.String(), errs.String()
	}, nil)
}
