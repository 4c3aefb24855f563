package archive

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Golden tests: what real libpcp answers for the small archives of
// testdata/archives, as the fetchdump oracle and pmval print it (see
// testdata/golden/archive/gen.sh for how the goldens were made).

const (
	archivesDir = "../../testdata/archives"
	goldenDir   = "../../testdata/golden/archive"
)

// goldenCommands reads a list of "NAME ARGS..." lines.
func goldenCommands(t *testing.T, file string) [][]string {
	f, err := os.Open(filepath.Join(goldenDir, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) > 1 {
			out = append(out, fields)
		}
	}
	return out
}

func TestGoldenFetchdump(t *testing.T) {
	cmds := goldenCommands(t, "fetchdump.cmds")
	if len(cmds) < 100 {
		t.Fatalf("only %d golden commands", len(cmds))
	}
	for _, cmd := range cmds {
		want, err := os.ReadFile(filepath.Join(goldenDir, "fetchdump", cmd[0]))
		if err != nil {
			t.Fatal(err)
		}
		got := ours(t, archivesDir, cmd[1:]...)
		if same, total, diff := compare(string(want), got); diff != "" {
			t.Errorf("fetchdump %s: %d/%d lines same; %s", strings.Join(cmd[1:], " "), same, total, diff)
		}
	}
}

func readGolden(t *testing.T, kind, name string) string {
	b, err := os.ReadFile(filepath.Join(goldenDir, kind, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
