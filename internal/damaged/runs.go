package damaged

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/goldenfile"
)

// Run is what a tool made of one damaged archive: its exit status and
// output, as testdata/golden/damaged/pminfo.txt and pmie.txt hold them
// for real PCP's tools (see gen.sh there).
type Run struct {
	Exit           int
	Stdout, Stderr string
}

// Crashed reports whether the tool died or was stopped (after looping)
// rather than exiting.
func (r Run) Crashed() bool { return r.Exit >= 124 }

// ReadRuns reads a file of runs: for each case, "case: NAME", "exit: N",
// "stdout: N bytes" and that many bytes and a newline, and the same for
// stderr.
func ReadRuns(path string) (map[string]Run, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := goldenfile.New(path, string(data))
	out := map[string]Run{}
	for r.More() {
		name, err := r.Value("case")
		if err != nil {
			return nil, err
		}
		var run Run
		exit, err := r.Value("exit")
		if err == nil {
			run.Exit, err = strconv.Atoi(exit)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s: bad exit line", path, name)
		}
		if run.Stdout, err = r.Block("stdout"); err != nil {
			return nil, err
		}
		if run.Stderr, err = r.Block("stderr"); err != nil {
			return nil, err
		}
		out[name] = run
	}
	return out, nil
}

// detailLine matches the lines our tools add to PCP's messages: a
// warning of damage passed over, or the detail of damage reported, each
// naming the file, the part of the archive and the offset.
var detailLine = regexp.MustCompile(`^\S+: (warning: )?(\S+): (volume \d+|metadata|temporal index): offset -?\d+: `)

// Details splits our tool's stderr into the lines PCP's tool would print
// and the paths of the files our added lines name.
func Details(stderr string) (pcp string, files []string) {
	var keep []string
	for l := range strings.SplitSeq(stderr, "\n") {
		if m := detailLine.FindStringSubmatch(l); m != nil {
			files = append(files, m[2])
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n"), files
}

// Outcome is how our tool's run of a case compares with real PCP's.
type Outcome int

const (
	Same      Outcome = iota // the same exit status and output (less our added lines)
	Explained                // different, and ours names the damaged file and offset
	Unclear                  // different, and ours says nothing of where the damage is
)

// Compare compares our run of case name with real PCP's.
func Compare(name string, ours, real Run) Outcome {
	pcp, files := Details(ours.Stderr)
	if !real.Crashed() && ours.Exit == real.Exit && ours.Stdout == real.Stdout && pcp == real.Stderr {
		return Same
	}
	for _, f := range files {
		if strings.HasPrefix(f[strings.LastIndexByte(f, '/')+1:], name+".") {
			return Explained
		}
	}
	return Unclear
}

// Metrics are the metrics pminfo -f is asked for, and Rules the rule
// file (in testdata/golden/damaged/rules, without .pmie) pmie runs, for
// the damaged archives made from the test archive source.
func Metrics(source string) []string {
	if strings.HasPrefix(source, "synth-") {
		return []string{"synth.counter.u64", "synth.instant.string", "synth.discrete.u32"}
	}
	return []string{"hinv.ncpu", "kernel.all.load", "kernel.uname.release", "disk.dev.read"}
}

// Rules: see Metrics.
func Rules(source string) string {
	if strings.HasPrefix(source, "synth-") {
		return "synth"
	}
	return "linux"
}

// Corpus makes the corpus from the test archives in testdata/archives
// under root (the repository, relative to the test's directory) in a
// temporary directory, which becomes the test's working directory, and
// returns its cases.
func Corpus(t testing.TB, root string) []Case {
	t.Helper()
	src, err := filepath.Abs(filepath.Join(root, "testdata/archives"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cases, err := Write(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	return cases
}

// CheckRuns runs each case with run and compares what it gives with
// want, real tool's runs, failing the test where ours differs without
// naming the damaged file and offset, and logging the counts.
func CheckRuns(t testing.TB, tool string, cases []Case, want map[string]Run, run func(Case) Run) {
	t.Helper()
	counts := map[Outcome]int{}
	for _, c := range cases {
		real, ok := want[c.Name]
		if !ok {
			t.Errorf("%s: no golden (run testdata/golden/damaged/gen.sh)", c.Name)
			continue
		}
		ours := run(c)
		o := Compare(c.Name, ours, real)
		counts[o]++
		switch o {
		case Explained:
			t.Logf("%s (%s): differs from real %s (exit %d), and says where", c.Name, c.Damage, tool, real.Exit)
		case Unclear:
			t.Errorf("%s (%s): differs from real %s and does not say where the damage is\nours (exit %d):\n%s%s\nreal (exit %d):\n%s%s",
				c.Name, c.Damage, tool, ours.Exit, ours.Stdout, ours.Stderr, real.Exit, real.Stdout, real.Stderr)
		}
	}
	t.Logf("damaged corpus: %s the same as real %s for %d of %d archives; %d differ and name the file and offset",
		tool, tool, counts[Same], len(cases), counts[Explained])
}
