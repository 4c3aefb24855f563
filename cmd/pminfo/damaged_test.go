package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/damaged"
)

// TestDamagedArchives runs pminfo -f over each archive of the damaged
// corpus (package internal/damaged) and compares what it prints with
// what real pminfo printed (testdata/golden/damaged/pminfo.txt, made by
// gen.sh there), leaving out the lines ours adds on stderr to say where
// the damage is. Where they differ (real pminfo crashes, loops, or reads
// garbage), ours must name the damaged file and the offset.
func TestDamagedArchives(t *testing.T) {
	want, err := damaged.ReadRuns("../../testdata/golden/damaged/pminfo.txt")
	if err != nil {
		t.Fatal(err)
	}
	cases := damaged.Corpus(t, "../..")
	t.Setenv("TZ", "UTC")
	damaged.CheckRuns(t, "pminfo", cases, want, func(c damaged.Case) damaged.Run {
		var stdout, stderr bytes.Buffer
		status := run(Env{
			Args:    append([]string{"pminfo", "-a", c.Name, "-f"}, damaged.Metrics(c.Source)...),
			Environ: []string{"PCP_DERIVED_CONFIG=", "TZ=UTC"},
			Stdout:  &stdout,
			Stderr:  &stderr,
			Open:    openSource,
			Derived: newDerived,
			LocalTZ: time.UTC,
		})
		return damaged.Run{Exit: status, Stdout: stdout.String(), Stderr: stderr.String()}
	})
}
