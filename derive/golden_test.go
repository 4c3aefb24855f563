package derive

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
)

// The goldens in testdata/golden/derive were made by gen.py there with
// real PCP 6.0.3: for each expression, what pminfo -d and pminfo -f -O
// print, and the values libpcp computes at every record of the archive.
// These tests do the same with Wrap over a replay of that archive and
// compare.

const goldenDir = "../testdata/golden/derive"

// goldenEntry is one expression of a golden file.
type goldenEntry struct {
	name, expr string
	undefined  string
	sections   []goldenSection
}

type goldenSection struct {
	title string
	lines []string
	text  string // lines as the tool printed them
}

func readGolden(t *testing.T, path string) []*goldenEntry {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []*goldenEntry
	var e *goldenEntry
	var s *goldenSection
	for _, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "=== "):
			name, expr, _ := strings.Cut(line[4:], " = ")
			e = &goldenEntry{name: name, expr: expr}
			out = append(out, e)
			s = nil
		case strings.HasPrefix(line, "--- undefined "):
			e.undefined = line[len("--- undefined "):]
		case strings.HasPrefix(line, "--- "):
			e.sections = append(e.sections, goldenSection{title: line[4:]})
			s = &e.sections[len(e.sections)-1]
		case line == `\ no newline`:
			s.text = strings.TrimSuffix(s.text, "\n")
		case strings.HasPrefix(line, "|"):
			l := strings.TrimPrefix(strings.TrimPrefix(line, "|"), " ")
			s.lines = append(s.lines, l)
			s.text += l + "\n"
		default:
			t.Fatalf("%s: unexpected line %q", path, line)
		}
	}
	return out
}

// goldenContext makes a registry holding entry's definition, loaded from
// a configuration file called one.conf as the goldens were made, and
// wraps a fresh replay of the golden archive with it.
func goldenContext(t *testing.T, e *goldenEntry) (pmapi.Context, string) {
	reg := NewRegistry()
	var diags []Diagnostic
	reg.loadText("one.conf", e.name+" = "+e.expr+"\n", &diags)
	ctx, _ := Wrap(loadReplay(t, "../testdata/derive/golden.json"), reg)
	return ctx, PCPReport(diags)
}

// pminfoDesc does what pminfo -d name does.
func pminfoDesc(ctx pmapi.Context, name string) (stdout, stderr string) {
	var out strings.Builder
	var names []string
	err := pmapi.Traverse(ctx, name, func(n string) error { names = append(names, n); return nil })
	if err == nil && len(names) == 0 {
		names = []string{name}
	}
	if err != nil {
		return "", fmt.Sprintf("Error: %s: %v\n", name, err)
	}
	for _, n := range names {
		id, err := ctx.LookupName(n)
		if err != nil {
			fmt.Fprintf(&out, "%s: pmLookupName: %v\n", n, err)
			continue
		}
		d, err := ctx.LookupDesc(id)
		if err != nil {
			fmt.Fprintf(&out, "%s: pmLookupDesc: %v\n", n, err)
			continue
		}
		fmt.Fprintf(&out, "\n%s\n%s", n, describe(d))
	}
	return out.String(), ""
}

// describe is pminfo's mydesc.
func describe(d pmapi.Desc) string {
	units := d.Units.String()
	if units == "" {
		units = "none"
	}
	return fmt.Sprintf("    Data Type: %s  InDom: %s 0x%x\n    Semantics: %s  Units: %s\n",
		d.Type.Describe(), d.InDom, uint32(d.InDom), d.Sem, units)
}

// pminfoFetch does what pminfo -f -O off name does.
func pminfoFetch(ctx pmapi.Context, name string, off pmapi.Time) string {
	var names []string
	if err := pmapi.Traverse(ctx, name, func(n string) error { names = append(names, n); return nil }); err != nil {
		return ""
	}
	if len(names) == 0 {
		names = []string{name}
	}
	ids := make([]pmapi.PMID, len(names))
	for i, n := range names {
		ids[i], _ = ctx.LookupName(n)
	}
	s := ctx.(pmapi.Seeker)
	start, _ := s.Bounds()
	s.SetMode(pmapi.ModeForw, start+off, 0)
	var r pmapi.Result
	var b strings.Builder
	if err := ctx.Fetch(ids, &r); err != nil {
		for _, n := range names {
			fmt.Fprintf(&b, "%s: pmFetch: %v\n", n, err)
		}
		return b.String()
	}
	for i, n := range names {
		d, err := ctx.LookupDesc(ids[i])
		if err != nil {
			fmt.Fprintf(&b, "%s: pmLookupDesc: %v\n", n, err)
			continue
		}
		fmt.Fprintf(&b, "\n%s\n%s", n, dump(ctx, d, &r.Sets[i]))
	}
	return b.String()
}

// dump is pminfo's mydump.
func dump(ctx pmapi.Context, d pmapi.Desc, vs *pmapi.ValueSet) string {
	if vs.Err != nil {
		return fmt.Sprintf("Error: %v\n", vs.Err)
	}
	if len(vs.Values) == 0 {
		return "No value(s) available!\n"
	}
	var b strings.Builder
	insts, _ := ctx.InDom(d.InDom)
	for _, v := range vs.Values {
		if d.InDom == pmapi.InDomNull {
			b.WriteString("   ")
		} else {
			name := ""
			for _, in := range insts {
				if in.ID == v.Inst {
					name = in.Name
				}
			}
			fmt.Fprintf(&b, "    inst [%d or %q]", v.Inst, name)
		}
		fmt.Fprintf(&b, " value %s\n", pmapi.FormatValue(v.Atom, 1, nil))
	}
	return b.String()
}

// offset parses pminfo's -O +SECONDS.
func offset(t *testing.T, s string) pmapi.Time {
	f, err := strconv.ParseFloat(strings.TrimPrefix(s, "+"), 64)
	if err != nil {
		t.Fatal(err)
	}
	return pmapi.Time(math.Round(f * 1e9))
}

// series fetches name at every record, as gen.py does with libpcp, in
// gen.py's notation.
func series(ctx pmapi.Context, name string) []string {
	id, _ := ctx.LookupName(name)
	d, _ := ctx.LookupDesc(id)
	s := ctx.(pmapi.Seeker)
	start, _ := s.Bounds()
	s.SetMode(pmapi.ModeForw, start, 0)
	var out []string
	var r pmapi.Result
	for ctx.Fetch([]pmapi.PMID{id}, &r) == nil {
		out = append(out, seriesLine(r.Time-start, d.Type, &r.Sets[0]))
	}
	return out
}

// interpSeries fetches entry e's metric every 3 seconds from the start of
// the golden archive, read by pmapi/archive and interpolated as libpcp
// does, as gen.py does with libpcp.
func interpSeries(t *testing.T, e *goldenEntry) ([]string, pmapi.Type) {
	a, err := archive.Open("../testdata/derive/golden")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	reg := NewRegistry()
	var diags []Diagnostic
	reg.loadText("one.conf", e.name+" = "+e.expr+"\n", &diags)
	ctx, _ := Wrap(a, reg)
	id, _ := ctx.LookupName(e.name)
	d, _ := ctx.LookupDesc(id)
	start, _ := a.Bounds()
	ctx.(pmapi.Seeker).SetMode(pmapi.ModeInterp, start, 3*time.Second)
	var out []string
	var r pmapi.Result
	for len(out) < 22 {
		if err := ctx.Fetch([]pmapi.PMID{id}, &r); err != nil {
			break
		}
		out = append(out, seriesLine(r.Time-start, d.Type, &r.Sets[0]))
	}
	return out, d.Type
}

// seriesLine is one fetch's values in gen.py's notation.
func seriesLine(at pmapi.Time, t pmapi.Type, vs *pmapi.ValueSet) string {
	stamp := fmt.Sprintf("%d.%06d", at.Sec(), at.Nsec()/1000)
	if vs.Err != nil {
		return fmt.Sprintf("%s err %v", stamp, vs.Err)
	}
	parts := []string{stamp, fmt.Sprintf("n=%d", len(vs.Values))}
	for _, v := range vs.Values {
		parts = append(parts, fmt.Sprintf("%d=%s", v.Inst, exact(t, v.Atom)))
	}
	return strings.Join(parts, " ")
}

// exact is a value written so that it can be compared exactly.
func exact(t pmapi.Type, a pmapi.Atom) string {
	switch t {
	case pmapi.Type32, pmapi.Type64:
		return strconv.FormatInt(a.Int64(), 10)
	case pmapi.TypeU32, pmapi.TypeU64:
		return strconv.FormatUint(a.Uint64(), 10)
	case pmapi.TypeFloat, pmapi.TypeDouble:
		return strconv.FormatFloat(a.Float64(), 'g', -1, 64)
	}
	return strconv.Quote(a.Str())
}

// sameSeriesLine compares one line of our series with libpcp's: numbers
// by value (NaN equals NaN), strings as JSON.
func sameSeriesLine(t pmapi.Type, ours, theirs string) bool {
	a, b := strings.Fields(ours), strings.Fields(theirs)
	if len(a) != len(b) || len(a) < 2 || a[0] != b[0] || a[1] != b[1] {
		return ours == theirs
	}
	if a[1] == "err" {
		return ours == theirs
	}
	for i := 2; i < len(a); i++ {
		ia, va, _ := strings.Cut(a[i], "=")
		ib, vb, _ := strings.Cut(b[i], "=")
		if ia != ib {
			return false
		}
		switch t {
		case pmapi.TypeFloat, pmapi.TypeDouble:
			fa, err1 := strconv.ParseFloat(va, 64)
			fb, err2 := strconv.ParseFloat(vb, 64)
			if err1 != nil || err2 != nil || !(fa == fb || math.IsNaN(fa) && math.IsNaN(fb)) {
				return false
			}
		case pmapi.TypeString:
			ua, _ := strconv.Unquote(va)
			ub, _ := strconv.Unquote(vb)
			if ua != ub {
				return false
			}
		default:
			if va != vb {
				return false
			}
		}
	}
	return true
}

// tally counts how many golden checks agree.
type tally struct{ ok, all int }

func (t *tally) check(good bool) bool {
	t.all++
	if good {
		t.ok++
	}
	return good
}

func TestGoldenExpressions(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.golden"))
	if len(files) == 0 {
		t.Fatal("no goldens")
	}
	var total tally
	exprs := 0
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			for _, e := range readGolden(t, file) {
				exprs++
				checkEntry(t, e, &total)
			}
		})
	}
	t.Logf("%d expressions, %d of %d golden sections agree", exprs, total.ok, total.all)
}

func checkEntry(t *testing.T, e *goldenEntry, total *tally) {
	t.Helper()
	var stdout, stderr string
	for i, s := range e.sections {
		switch {
		case s.title == "pminfo -d":
			ctx, cfgErr := goldenContext(t, e)
			out, trav := pminfoDesc(ctx, e.name)
			d, _ := Derived(ctx)
			stdout, stderr = out, cfgErr+trav+PCPReport(d.Diagnostics())
			if !total.check(stdout == s.text) {
				t.Errorf("%s = %s: pminfo -d:\n got: %q\nwant: %q", e.name, e.expr, stdout, s.text)
			}
			if i+1 >= len(e.sections) || e.sections[i+1].title != "stderr" {
				if !total.check(stderr == "") {
					t.Errorf("%s = %s: unexpected stderr %q", e.name, e.expr, stderr)
				}
			}
		case s.title == "stderr":
			if e.sections[i-1].title != "pminfo -d" {
				continue
			}
			if !total.check(stderr == s.text) {
				t.Errorf("%s = %s: stderr:\n got: %q\nwant: %q", e.name, e.expr, stderr, s.text)
			}
		case strings.HasPrefix(s.title, "pminfo -f -O "):
			if e.undefined != "" {
				continue
			}
			ctx, _ := goldenContext(t, e)
			got := pminfoFetch(ctx, e.name, offset(t, strings.TrimPrefix(s.title, "pminfo -f -O ")))
			if !total.check(got == s.text) {
				t.Errorf("%s = %s: %s:\n got: %q\nwant: %q", e.name, e.expr, s.title, got, s.text)
			}
		case s.title == "libpcp interp":
			got, typ := interpSeries(t, e)
			good := len(got) == len(s.lines)
			for j := 0; good && j < len(got); j++ {
				good = sameSeriesLine(typ, got[j], s.lines[j])
			}
			if !total.check(good) {
				t.Errorf("%s = %s: interpolated values:\n got: %q\nwant: %q", e.name, e.expr, got, s.lines)
			}
		case s.title == "libpcp forw":
			ctx, _ := goldenContext(t, e)
			id, _ := ctx.LookupName(e.name)
			d, _ := ctx.LookupDesc(id)
			got := series(ctx, e.name)
			good := len(got) == len(s.lines)
			for j := 0; good && j < len(got); j++ {
				good = sameSeriesLine(d.Type, got[j], s.lines[j])
			}
			if !total.check(good) {
				t.Errorf("%s = %s: values:\n got: %q\nwant: %q", e.name, e.expr, got, s.lines)
			}
		}
	}
}
