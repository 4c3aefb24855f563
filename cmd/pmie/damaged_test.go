package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/damaged"
)

// evaluatorExiting is pmie's last message, which carries the time and
// process id; the goldens leave it out.
var evaluatorExiting = regexp.MustCompile(`(?m)^\[[^]]*\] pmie\(\d+\) Info: evaluator exiting\n`)

// TestDamagedArchives runs pmie over each archive of the damaged corpus
// (package internal/damaged) with a few rules, and compares what it
// prints with what real pmie printed (testdata/golden/damaged/pmie.txt,
// made by gen.sh there), leaving out the lines ours adds on stderr to
// say where the damage is. Where they differ (real pmie crashes, loops,
// or reads garbage), ours must name the damaged file and the offset.
func TestDamagedArchives(t *testing.T) {
	want, err := damaged.ReadRuns("../../testdata/golden/damaged/pmie.txt")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := filepath.Abs("../../testdata/golden/damaged/rules")
	if err != nil {
		t.Fatal(err)
	}
	cases := damaged.Corpus(t, "../..")
	t.Setenv("TZ", "UTC")
	t.Setenv("PCP_DERIVED_CONFIG", "")
	damaged.CheckRuns(t, "pmie", cases, want, func(c damaged.Case) damaged.Run {
		var stdout, stderr bytes.Buffer
		args := []string{"-a", c.Name, "-c", filepath.Join(rules, damaged.Rules(c.Source)+".pmie")}
		status := run(context.Background(), nil, args, strings.NewReader(""), &stdout, &stderr)
		return damaged.Run{Exit: status, Stdout: stdout.String(), Stderr: evaluatorExiting.ReplaceAllString(stderr.String(), "")}
	})
}
