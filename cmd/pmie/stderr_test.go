package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/pmprintf/pmprintftest"
)

// oursOnly are the lines of our usage message for options pmie does not
// have (an option, and its help on the next line when it does not fit).
var oursOnly = regexp.MustCompile(`(?m)^  (-L, --local|--check-units|--werror|--yaml-config|--route-alerts|--replay-alerts|--raw-shell-values|--web\.listen-address|--shard).*\n(                        \S.*\n)?`)

// TestPCPStderrGoldens compares where pmie's usage, option errors and
// pmNotifyErr's log lines go, by $PCP_STDERR (standard error, a file, a
// dialog), with real pmie's (testdata/golden/pcp-stderr).
func TestPCPStderrGoldens(t *testing.T) {
	pmprintftest.Cases(t, "../../testdata/golden/pcp-stderr", "pmie", func(t *testing.T, args []string) (int, string, string) {
		var out, errs bytes.Buffer
		code := run(context.Background(), nil, args, strings.NewReader(""), &out, &errs)
		return code, out.String(), errs.String()
	}, func(s string) string {
		return oursOnly.ReplaceAllStringFunc(s, func(m string) string {
			if first, help, _ := strings.Cut(m, "\n"); help != "" && len(first) < 24 {
				return help // the next line is the next option's
			}
			return ""
		})
	})
}
