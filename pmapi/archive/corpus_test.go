package archive

// Comparisons with real libpcp on the shared corpus of real archives.
// They run only when $PMIE_ORACLE names a built fetchdump oracle (see
// testdata/golden/archive/oracle) and $PMIE_CORPUS (default
// /work/shared/corpus/archives) holds the archives; the corpus itself
// is not part of this repository.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

func corpusDir(t *testing.T) (string, string) {
	oracle := os.Getenv("PMIE_ORACLE")
	if oracle == "" {
		t.Skip("PMIE_ORACLE not set")
	}
	dir := os.Getenv("PMIE_CORPUS")
	if dir == "" {
		dir = "/work/shared/corpus/archives"
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no corpus:", err)
	}
	return oracle, dir
}

// corpusArchives lists the base names of the archives in dir.
func corpusArchives(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		if b, suf := baseName(e.Name()); suf == "meta" {
			out = append(out, b)
		}
	}
	return out
}

// runOracle runs fetchdump with args in dir.
func runOracle(t *testing.T, oracle, dir string, args ...string) string {
	cmd := exec.Command(oracle, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fetchdump %v: %v", args, err)
	}
	return string(out)
}

// ours runs the Go equivalent of a fetchdump command.
func ours(t *testing.T, dir string, args ...string) string {
	var names []string
	for n := range strings.SplitSeq(args[0], ",") {
		names = append(names, filepath.Join(dir, n))
	}
	c, err := Open(strings.Join(names, ","))
	if err != nil {
		return fmt.Sprintf("open err %d\n", pmapi.Code(err))
	}
	defer c.Close()
	n := func(s string) int { i, _ := strconv.Atoi(s); return i }
	switch args[1] {
	case "interp":
		return dumpFetch(c, pmapi.ModeInterp, args[2], args[3], n(args[4]), args[5:])
	case "forw":
		return dumpFetch(c, pmapi.ModeForw, args[2], "0", n(args[3]), args[4:])
	case "back":
		return dumpFetch(c, pmapi.ModeBack, args[2], "0", n(args[3]), args[4:])
	case "records":
		return dumpRecords(c)
	case "meta":
		return dumpMeta(c)
	case "indom":
		return dumpInDoms(c, args[2], args[3], n(args[4]))
	}
	t.Fatalf("bad command %v", args)
	return ""
}

// compare reports how many of want's lines got reproduces in order, and
// the first difference.
func compare(want, got string) (same, total int, diff string) {
	w := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	g := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	total = len(w)
	for i := range w {
		if i < len(g) && w[i] == g[i] {
			same++
		} else if diff == "" {
			gl := "<missing>"
			if i < len(g) {
				gl = g[i]
			}
			ctx := ""
			for k := max(0, i-3); k < i; k++ {
				ctx += "      " + w[k] + "\n"
			}
			diff = fmt.Sprintf("line %d:\n%s  want %s\n  got  %s", i+1, ctx, w[i], gl)
		}
	}
	if diff == "" && len(g) != len(w) {
		diff = fmt.Sprintf("got %d lines, want %d", len(g), len(w))
	}
	return same, total, diff
}

// corpusCommands are the fetchdump commands run on each archive.
func corpusCommands(name string) [][]string {
	cmds := [][]string{
		{name, "records"},
		{name, "meta"},
		{name, "indom", "0", "1", "5"},
		{name, "forw", "0", "10"},
		{name, "forw", "3.5", "3"},
		{name, "back", "100000", "3"},
		{name, "back", "4.25", "3"},
	}
	for _, step := range []string{"1", "0.5", "2.5", "7", "60", "-3"} {
		start := "0"
		if strings.HasPrefix(step, "-") {
			start = "100000"
		}
		cmds = append(cmds, []string{name, "interp", start, step, "80"})
	}
	cmds = append(cmds, []string{name, "interp", "-1.5", "0.3", "40"})
	return cmds
}

func TestCorpusAgainstLibpcp(t *testing.T) {
	oracle, dir := corpusDir(t)
	only := os.Getenv("PMIE_CORPUS_ONLY")
	var sameAll, totalAll int
	for _, name := range corpusArchives(dir) {
		if only != "" && only != name {
			continue
		}
		for _, cmd := range corpusCommands(name) {
			want := runOracle(t, oracle, dir, cmd...)
			got := ours(t, dir, cmd...)
			same, total, diff := compare(want, got)
			sameAll += same
			totalAll += total
			if diff != "" {
				t.Errorf("%s: %d/%d lines same; %s", strings.Join(cmd, " "), same, total, diff)
			}
		}
	}
	t.Logf("corpus: %d of %d oracle lines reproduced", sameAll, totalAll)
}
