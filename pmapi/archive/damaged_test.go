package archive_test

import (
	"bufio"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
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
	tally := map[string]*[3]int{} // class -> cases, same, explained
	for _, c := range cases {
		k := damageClass(c)
		if tally[k] == nil {
			tally[k] = new([3]int)
		}
		tally[k][0]++
		w, ok := want[c.Name]
		if !ok {
			t.Errorf("%s: no golden (run testdata/golden/damaged/gen.sh)", c.Name)
			continue
		}
		lines, details := damaged.Dump(c.Name)
		got := strings.Join(lines, ";")
		if got == w {
			same++
			tally[k][1]++
			continue
		}
		if !namesFileAndOffset(details, c.Name) || !strings.Contains(got, ": ") {
			t.Errorf("%s (%s): read %q, real pmdumplog %q, and no error names the file and offset", c.Name, c.Damage, got, w)
			continue
		}
		explained++
		tally[k][2]++
		t.Logf("%s (%s): %q where real pmdumplog gives %q; %v", c.Name, c.Damage, got, w, details[len(details)-1])
	}
	t.Logf("damaged corpus: %d of %d read exactly as far as real pmdumplog; %d stop with an error naming the file and offset where it does not", same, len(cases), explained)
	classes := slices.Sorted(maps.Keys(tally))
	for _, k := range classes {
		n := tally[k]
		t.Logf("| %s | %d | %d | %d |", k, n[0], n[1], n[2])
	}
}

// damageClass is the kind of damage of c, for the summary: the format
// (v2, v3, xz, or v2 in several volumes), the part damaged (label,
// temporal index, metadata or data volume) and how (cut, bytes
// inverted, file removed).
func damageClass(c damaged.Case) string {
	format := "v2"
	switch {
	case strings.Contains(c.Source, "xz"):
		format = "xz"
	case strings.HasSuffix(c.Source, "v3"):
		format = "v3"
	case c.Source == "multivol":
		format = "v2, 3 volumes"
	}
	part := "data volume"
	switch {
	case strings.HasPrefix(c.File, ".index"):
		part = "temporal index"
	case strings.HasPrefix(c.File, ".meta"):
		part = "metadata"
	}
	if strings.Contains(c.Damage, "label") {
		part += " label"
	}
	how := "bytes inverted"
	switch {
	case strings.Contains(c.Damage, "removed"):
		how = "removed"
	case strings.Contains(c.Damage, " cut "), strings.Contains(c.Damage, "empty"):
		how = "cut"
	}
	if strings.Contains(c.Damage, "compressed") && !strings.Contains(c.Damage, "compressed again") {
		how += " (compressed bytes)"
	}
	return format + " | " + part + " | " + how
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
