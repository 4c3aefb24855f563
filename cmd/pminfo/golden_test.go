package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/goldenfile"
	"github.com/gopcp/pmie/internal/realtest"
)

// goldenDir holds real pminfo's output for the cases of cases.txt, made
// by gen.sh over the archives in testdata/archives.
const goldenDir = "../../testdata/golden/pminfo"

// golden is one recorded run of real pminfo.
type golden struct {
	name           string
	command        string
	args           []string
	exit           int
	stdout, stderr string
}

// readGolden parses a NAME.golden file (see gen.sh for its layout).
func readGolden(path string) (golden, error) {
	g := golden{name: strings.TrimSuffix(filepath.Base(path), ".golden")}
	data, err := os.ReadFile(path)
	if err != nil {
		return g, err
	}
	r := goldenfile.New(path, string(data))
	g.command = strings.TrimPrefix(r.Line(), "command: ")
	if g.exit, err = strconv.Atoi(strings.TrimPrefix(r.Line(), "exit: ")); err != nil {
		return g, fmt.Errorf("%s: bad exit line", path)
	}
	if g.stdout, err = r.Block("stdout"); err != nil {
		return g, err
	}
	if g.stderr, err = r.Block("stderr"); err != nil {
		return g, err
	}
	g.args = goldenfile.Words(strings.TrimPrefix(g.command, "PCP_DERIVED_CONFIG= TZ=UTC pminfo "), nil)
	return g, nil
}

func TestGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(goldenDir, "*.golden"))
	if err != nil || len(paths) < 100 {
		t.Fatalf("found %d goldens in %s (%v)", len(paths), goldenDir, err)
	}
	var cases []golden
	for _, p := range paths {
		g, err := readGolden(p)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, g)
	}
	t.Chdir("../../testdata/archives")
	t.Setenv("TZ", "UTC")
	for _, g := range cases {
		t.Run(g.name, func(t *testing.T) {
			if strings.HasPrefix(g.name, "live-") {
				// recorded against the local pmcd (see cases.txt)
				realtest.Require(t, realtest.Pmcd)
			}
			var stdout, stderr bytes.Buffer
			status := run(Env{
				Args:    append([]string{"pminfo"}, g.args...),
				Environ: []string{"PCP_DERIVED_CONFIG=", "TZ=UTC"},
				Stdout:  &stdout,
				Stderr:  &stderr,
				Open:    openSource,
				Derived: newDerived,
				LocalTZ: time.UTC,
			})
			if want := g.stdout; stdout.String() != want {
				t.Errorf("%s\nstdout:\n%s\nwant:\n%s", g.command, stdout.String(), want)
			}
			if want := g.stderr; stderr.String() != want {
				t.Errorf("%s\nstderr:\n%s\nwant:\n%s", g.command, stderr.String(), want)
			}
			if status != g.exit {
				t.Errorf("%s: exit %d, want %d", g.command, status, g.exit)
			}
		})
	}
}
