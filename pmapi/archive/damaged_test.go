package archive_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/damaged"
	"github.com/gopcp/pmie/pmapi/archive"
)

// TestDamagedCorpus reads each archive of the damaged corpus (made by
// package internal/damaged from the test archives) as pmdumplog does, and
// compares how far it gets with how far real pmdumplog got
// (testdata/golden/damaged/pmdumplog.txt, made by gen.sh there). Where
// the two differ (real pmdumplog crashes, loops, or reads into garbage),
// ours must have stopped with a FormatError naming the damaged archive's
// file and an offset. Nothing may panic.
func TestDamagedCorpus(t *testing.T) {
	want := readDumpGolden(t)
	cases := damaged.Corpus(t, "../..")
	if len(cases) < 150 {
		t.Errorf("only %d damaged archives, want at least 150", len(cases))
	}
	same, explained := 0, 0
	for _, c := range cases {
		w, ok := want[c.Name]
		if !ok {
			t.Errorf("%s: no golden (run testdata/golden/damaged/gen.sh)", c.Name)
			continue
		}
		lines, details := damaged.Dump(c.Name)
		got := strings.Join(lines, ";")
		if got == w {
			same++
			continue
		}
		if !namesFileAndOffset(details, c.Name) || !strings.Contains(got, ": ") {
			t.Errorf("%s (%s): read %q, real pmdumplog %q, and no error names the file and offset", c.Name, c.Damage, got, w)
			continue
		}
		explained++
		t.Logf("%s (%s): %q where real pmdumplog gives %q; %v", c.Name, c.Damage, got, w, details[len(details)-1])
	}
	t.Logf("damaged corpus: %d of %d read exactly as far as real pmdumplog; %d stop with an error naming the file and offset where it does not", same, len(cases), explained)
}

// namesFileAndOffset reports whether one of the errors is a FormatError
// for a file of the archive name.
func namesFileAndOffset(errs []error, name string) bool {
	for _, err := range errs {
		var fe *archive.FormatError
		if errors.As(err, &fe) && strings.HasPrefix(filepath.Base(fe.Path), name+".") && strings.Contains(err.Error(), "offset") {
			return true
		}
	}
	return false
}

// readDumpGolden reads pmdumplog.txt: each line a case's name, a tab,
// and what pmdumplog made of it.
func readDumpGolden(t *testing.T) map[string]string {
	f, err := os.Open("../../testdata/golden/damaged/pmdumplog.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, _ := strings.Cut(sc.Text(), "\t")
		out[name] = rest
	}
	return out
}
