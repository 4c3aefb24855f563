package archive

// Comparisons with real libpcp on the shared corpus of real archives.
// They run only when $PMIE_ORACLE names a built fetchdump oracle (see
// testdata/golden/archive/oracle) and the shared corpus has archives
// ($PMIE_CORPUS/archives, by default ../shared/corpus/archives beside
// the repository: see internal/realtest); the corpus itself is not part
// of this repository.

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/realtest"
	"github.com/gopcp/pmie/pmapi"
)

func corpusDir(t *testing.T) (string, string) {
	oracle := os.Getenv("PMIE_ORACLE")
	if oracle == "" {
		t.Skip("PMIE_ORACLE not set")
	}
	return oracle, realtest.Corpus(t, "archives")
}

// forEachArchive calls fn with each corpus archive (or only the one
// named by $PMIE_CORPUS_ONLY) opened as a context.
func forEachArchive(t *testing.T, dir string, fn func(name string, c *Context)) {
	only := os.Getenv("PMIE_CORPUS_ONLY")
	for _, name := range corpusArchives(dir) {
		if only != "" && only != name {
			continue
		}
		c, err := openCached(dir, name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		fn(name, c)
	}
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

var archiveCache = make(map[string]*Archive)

// openCached opens a context of the comma-separated archives names in
// dir, reading each archive's files only once per test run.
func openCached(dir, names string) (*Context, error) {
	var opened []*Archive
	var paths []string
	for n := range strings.SplitSeq(names, ",") {
		paths = append(paths, filepath.Join(dir, n))
	}
	for _, path := range expandArchiveList(strings.Join(paths, ",")) {
		a := archiveCache[path]
		if a == nil {
			var err error
			if a, err = OpenArchive(path); err != nil {
				return nil, err
			}
			archiveCache[path] = a
		}
		opened = append(opened, a)
	}
	return newContext(names, opened)
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
	c, err := openCached(dir, args[0])
	if err != nil {
		return fmt.Sprintf("open err %d\n", pmapi.Code(err))
	}
	defer c.Close()
	var prefix string
	for len(args) > 2 && (args[1][0] == '+' || args[1][0] == '-') && strings.Contains(args[1], ":") {
		if err := applyProfile(c, args[1]); err != nil {
			prefix += fmt.Sprintf("profile %s err %d\n", args[1], pmapi.Code(err))
		}
		args = append(args[:1:1], args[2:]...)
	}
	out := oursCommand(t, c, args)
	if prefix != "" {
		// fetchdump prints profile errors before its header line.
		head, rest, _ := strings.Cut(out, "\n")
		out = head + "\n" + prefix + rest
	}
	return out
}

// applyProfile applies a fetchdump profile argument, +INDOM:INST,... or
// -INDOM:INST,...
func applyProfile(c *Context, spec string) error {
	ind, list, _ := strings.Cut(spec[1:], ":")
	d, sr, _ := strings.Cut(ind, ".")
	dom, _ := strconv.Atoi(d)
	ser, _ := strconv.Atoi(sr)
	var insts []int32
	for f := range strings.SplitSeq(list, ",") {
		if f != "" {
			n, _ := strconv.Atoi(f)
			insts = append(insts, int32(n))
		}
	}
	indom := pmapi.NewInDom(uint32(dom), uint32(ser))
	if spec[0] == '+' {
		return c.AddProfile(indom, insts)
	}
	return c.DelProfile(indom, insts)
}

// oursCommand runs a fetchdump command on an open context.
func oursCommand(t *testing.T, c *Context, args []string) string {
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
	case "script":
		script, err := os.ReadFile(filepath.Join(goldenDir, "scripts", args[2]))
		if err != nil {
			t.Fatal(err)
		}
		return dumpScript(c, string(script))
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

// profileCommands are fetchdump commands with instance profiles on the
// first instance domain of the archive that has three instances or more.
func profileCommands(dir, name string) [][]string {
	c, err := openCached(dir, name)
	if err != nil {
		return nil
	}
	for _, n := range allNames(c) {
		id, _ := c.LookupName(n)
		d, _ := c.LookupDesc(id)
		if d.InDom == pmapi.InDomNull {
			continue
		}
		insts, _ := c.InDomArchive(d.InDom)
		if len(insts) < 3 {
			continue
		}
		ind := fmt.Sprintf("%d.%d", d.InDom.Domain(), d.InDom.Serial())
		some := fmt.Sprintf("%s:%d,%d", ind, insts[0].ID, insts[2].ID)
		return [][]string{
			{name, "+" + some, "interp", "0", "1.1", "60"},
			{name, "-" + ind + ":", "+" + some, "interp", "0.2", "0.7", "60"},
			{name, "-" + some, "interp", "0", "2", "40"},
			{name, "+" + some, "-" + ind + ":" + fmt.Sprint(insts[2].ID), "forw", "0", "10"},
			{name, "-" + ind + ":", "+" + some, "back", "100000", "10"},
		}
	}
	return nil
}

func TestCorpusAgainstLibpcp(t *testing.T) {
	oracle, dir := corpusDir(t)
	only := os.Getenv("PMIE_CORPUS_ONLY")
	var sameAll, totalAll int
	for _, name := range corpusArchives(dir) {
		if only != "" && only != name {
			continue
		}
		for _, cmd := range append(corpusCommands(name), profileCommands(dir, name)...) {
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

// runTool runs a PCP command in dir with no global derived metrics.
func runTool(t *testing.T, dir string, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=")
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// sampleNames picks up to n metric names of c, spread over its
// namespace, leaving out event records (which pmval does not
// interpolate) and aggregates.
func sampleNames(c *Context, n int) []string {
	var names []string
	for _, name := range allNames(c) {
		id, err := c.LookupName(name)
		if err != nil {
			continue
		}
		d, _ := c.LookupDesc(id)
		if d.Type == pmapi.TypeEvent || d.Type == pmapi.TypeHighresEvent || d.Type == pmapi.TypeAggregate {
			continue
		}
		names = append(names, name)
	}
	if len(names) <= n {
		return names
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, names[i*len(names)/n])
	}
	return out
}

func TestCorpusPmval(t *testing.T) {
	_, dir := corpusDir(t)
	var same, total int
	forEachArchive(t, dir, func(name string, c *Context) {
		for _, metric := range sampleNames(c, 12) {
			for _, opts := range [][]string{{"-t", "1.7", "-s", "300"}, {"-r", "-t", "0.6", "-S", "+0.45", "-s", "300"}} {
				args := append([]string{"-Z", "UTC", "-a", name}, opts...)
				args = append(args, metric)
				want := runTool(t, dir, "pmval", args...)
				if _, _, ok := splitPmval(want); !ok {
					// pmval could not start; nor can we if the metric's
					// instance domain is missing from the archive.
					id, _ := c.LookupName(metric)
					d, _ := c.LookupDesc(id)
					if _, err := c.InDomArchive(d.InDom); err == nil || !strings.Contains(want, pmapi.Code(err).Error()) {
						t.Errorf("pmval %v: %s", args, want)
					}
					continue
				}
				comparePmval(t, dir, args, want, &same, &total)
			}
		}
	})
	t.Logf("corpus pmval: %d of %d value lines reproduced", same, total)
}

// pminfoValues prints what "pminfo -f -O OFFSET" prints for the metrics
// of c: for archives pminfo fetches one metric at a time, each in
// ModeForw from the origin (the archive's start to the microsecond, plus
// the offset, no later than its end). Event records and aggregates are
// left out (their sections are dropped from pminfo's output too).
func pminfoValues(c *Context, offset string) string {
	var b strings.Builder
	names := allNames(c)
	start, end := c.Bounds()
	origin := start - start%1000 + pmapi.Time(parseNS(offset))
	origin = min(origin, end-end%1000)
	cached := pmapi.InDom(pmapi.InDomNull)
	var cache []pmapi.Instance
	for lo := 0; lo < len(names); lo++ {
		batch := names[lo : lo+1]
		ids, descs := lookupAll(c, batch)
		c.SetMode(pmapi.ModeForw, origin, 0)
		var r pmapi.Result
		err := c.Fetch(ids, &r)
		for i, name := range batch {
			d := descs[ids[i]]
			if d.Type == pmapi.TypeEvent || d.Type == pmapi.TypeHighresEvent || d.Type == pmapi.TypeAggregate {
				continue
			}
			if err != nil {
				fmt.Fprintf(&b, "%s: pmFetch: %s\n", name, err)
				continue
			}
			fmt.Fprintf(&b, "\n%s\n", name)
			vs := r.Sets[i]
			switch {
			case vs.Err != nil:
				fmt.Fprintf(&b, "Error: %s\n", vs.Err)
				continue
			case len(vs.Values) == 0:
				b.WriteString("No value(s) available!\n")
				continue
			}
			for _, v := range vs.Values {
				if d.InDom != pmapi.InDomNull {
					if d.InDom != cached {
						cache, _ = c.InDom(d.InDom)
						cached = d.InDom
					}
					found := false
					for _, in := range cache {
						if in.ID == v.Inst {
							fmt.Fprintf(&b, "    inst [%d or \"%s\"]", v.Inst, in.Name)
							found = true
							break
						}
					}
					if !found {
						fmt.Fprintf(&b, "pmNameIndom: indom=%s inst=%d: %s\n", d.InDom, v.Inst, pmapi.ErrInst)
						fmt.Fprintf(&b, "    inst [%d]", v.Inst)
					}
				} else {
					b.WriteString("   ")
				}
				b.WriteString(" value ")
				switch d.Type {
				case pmapi.TypeFloat:
					b.WriteString(cG(float64(v.Atom.Float32()), 8))
				case pmapi.TypeDouble:
					b.WriteString(cG(v.Atom.Float64(), 16))
				case pmapi.TypeString:
					b.WriteString(`"` + v.Atom.Str() + `"`)
				default:
					b.WriteString(formatAtom(d.Type, v.Atom))
				}
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// dropSections removes from pminfo output the sections of the named
// metrics (a blank line, the metric's name, and its value lines) and
// their "NAME: pmFetch: ..." lines.
func dropSections(out string, drop map[string]bool) string {
	var b strings.Builder
	skip, blank := false, false
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		name, _, fetchErr := strings.Cut(line, ": pmFetch: ")
		switch {
		case line == "":
			if blank && !skip {
				b.WriteString("\n")
			}
			skip, blank = false, true
			continue
		case fetchErr:
			skip = false
			if drop[name] {
				continue
			}
		case blank:
			skip = drop[line]
		}
		if skip {
			blank = false
			continue
		}
		if blank {
			b.WriteString("\n")
			blank = false
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

func TestCorpusPminfo(t *testing.T) {
	_, dir := corpusDir(t)
	var same, total int
	forEachArchive(t, dir, func(name string, c *Context) {
		drop := map[string]bool{"event.flags": true, "event.missed": true}
		for _, n := range allNames(c) {
			id, _ := c.LookupName(n)
			d, _ := c.LookupDesc(id)
			if d.Type == pmapi.TypeEvent || d.Type == pmapi.TypeHighresEvent || d.Type == pmapi.TypeAggregate {
				drop[n] = true
			}
		}
		for _, off := range []string{"0", "1", "2.5", "7", "30", "1000000"} {
			args := []string{"-a", name, "-f"}
			if off != "0" {
				args = append(args, "-O", "+"+off)
			}
			want := dropSections(runTool(t, dir, "pminfo", args...), drop)
			got := pminfoValues(c, off)
			s, n, diff := compare(want, got)
			same += s
			total += n
			if diff != "" {
				t.Errorf("pminfo %s: %d/%d lines same; %s", strings.Join(args, " "), s, n, diff)
			}
		}
	})
	t.Logf("corpus pminfo -f: %d of %d lines reproduced", same, total)
}

// TestCorpusIgnoreMarks compares interpolation with libpcp's under
// $PCP_IGNORE_MARK_RECORDS, on the corpus archives that have <mark>s.
func TestCorpusIgnoreMarks(t *testing.T) {
	oracle, dir := corpusDir(t)
	for _, name := range []string{"gap2", "interpmark", "changeinst", "omnibus_v2", "20180127.08.40", "pmiostat_mark"} {
		for _, env := range []string{"", "2", "5sec", "0.5"} {
			for _, args := range [][]string{{"interp", "0", "1", "60"}, {"interp", "100000", "-1.3", "60"}, {"interp", "0.3", "0.45", "90"}} {
				full := append([]string{name}, args...)
				cmd := exec.Command(oracle, full...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=", "PCP_IGNORE_MARK_RECORDS="+env)
				out, _ := cmd.Output()
				c, _ := Open(dir + "/" + name)
				c.opts.IgnoreMarks = true
				if env != "" {
					d, _ := time.ParseDuration(map[string]string{"2": "2s", "5sec": "5s", "0.5": "0.5s"}[env])
					c.opts.IgnoreMarkGap = d
				}
				count, _ := strconv.Atoi(args[3])
				got := dumpFetch(c, pmapi.ModeInterp, args[1], args[2], count, nil)
				if s, tot, diff := compare(string(out), got); diff != "" {
					t.Errorf("%s %v env=%q: %d/%d %s", name, args, env, s, tot, diff)
				}
			}
		}
	}
}

// randomScript makes a fetchdump script of steps over the archive c:
// mode changes to random times, fetches of random subsets of its
// metrics, now and then an instance profile, and, for a context of one
// archive, listings of its instance domains. (In a context of several
// archives libpcp reloads an archive's metadata whenever reading crosses
// into it, and a v3 delta instance domain record loaded again lands
// unresolved in front of its resolved copy, so pmGetInDom can then give
// the raw delta; we do not reproduce that.)
func randomScript(rng *rand.Rand, c *Context) string {
	names := allNames(c)
	start, end := c.Bounds()
	span := end.Sub(start).Seconds()
	var b strings.Builder
	when := func() string { return strconv.FormatFloat(rng.Float64()*(span+4)-2, 'f', 6, 64) }
	deltas := []string{"0.1", "0.5", "1", "3", "7.3", "-0.5", "-2", "60"}
	for range 12 {
		switch rng.Intn(5) {
		case 0, 1:
			fmt.Fprintf(&b, "interp %s %s\n", when(), deltas[rng.Intn(len(deltas))])
		case 2:
			fmt.Fprintf(&b, "forw %s\n", when())
		case 3:
			fmt.Fprintf(&b, "back %s\n", when())
		case 4:
			id, _ := c.LookupName(names[rng.Intn(len(names))])
			d, _ := c.LookupDesc(id)
			if d.InDom != pmapi.InDomNull {
				insts, _ := c.InDomArchive(d.InDom)
				if len(insts) > 0 {
					fmt.Fprintf(&b, "+%d.%d:%d\n", d.InDom.Domain(), d.InDom.Serial(), insts[rng.Intn(len(insts))].ID)
				}
			}
		}
		n := 1 + rng.Intn(6)
		if rng.Intn(4) == 0 && len(c.archives) == 1 {
			b.WriteString("indoms\n")
		}
		if rng.Intn(3) == 0 {
			fmt.Fprintf(&b, "fetch %d\n", n)
			continue
		}
		var some []string
		for range 1 + rng.Intn(8) {
			some = append(some, names[rng.Intn(len(names))])
		}
		fmt.Fprintf(&b, "fetch %d %s\n", n, strings.Join(some, " "))
	}
	return b.String()
}

// TestCorpusScripts runs random sequences of mode changes, fetches of
// different metrics and profile changes on one context, against libpcp:
// the state one fetch leaves must carry over to the next as it does
// there. It runs them on every corpus archive, on contexts of several
// corpus archives of one host, and on the test archives.
func TestCorpusScripts(t *testing.T) {
	oracle, dir := corpusDir(t)
	var same, total, skipped int
	run := func(dir, name string) {
		rng := rand.New(rand.NewSource(int64(len(name)) * 7919))
		for i := range scriptsPerArchive() {
			c, err := openCached(dir, name)
			if err != nil {
				t.Fatal(err)
			}
			script := randomScript(rng, c)
			cmd := exec.Command(oracle, name, "script")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PCP_DERIVED_CONFIG=")
			cmd.Stdin = strings.NewReader(script)
			want, err := cmd.Output()
			if err != nil {
				// libpcp itself can fail an assertion (and abort) on
				// some sequences in multi-archive contexts.
				// Ours must still get through it.
				t.Logf("%s script %d: fetchdump: %v; not compared:\n%s", name, i, err, script)
				c, _ = openCached(dir, name)
				dumpScript(c, script)
				skipped++
				continue
			}
			c, _ = openCached(dir, name)
			got := dumpScript(c, script)
			s, n, diff := compare(string(want), got)
			same += s
			total += n
			if diff != "" {
				t.Errorf("%s script %d: %d/%d lines same; %s\nscript:\n%s", name, i, s, n, diff, script)
				if d := os.Getenv("PMIE_FAILED_SCRIPTS"); d != "" {
					os.WriteFile(filepath.Join(d, fmt.Sprintf("%s.%d.script", name, i)), []byte(script), 0o644)
				}
			}
		}
	}
	forEachArchive(t, dir, func(name string, _ *Context) { run(dir, name) })
	if os.Getenv("PMIE_CORPUS_ONLY") == "" {
		for _, set := range []string{"omnibus_v2,omnibus_v3", "20180127.08.40,20180416", "sample_expr,interpmark,instant-base,log-derived,gap2"} {
			run(dir, set)
		}
		for _, name := range []string{"linux-v2", "linux-v3", "linux-xz", "mark", "multivol", "procs", "synth-v2", "synth-v3", "set",
			"linux-v2,linux-v3,mark,multivol", "procs,linux-v3", "multivol,mark,linux-v2"} {
			run(archivesDir, name)
		}
	}
	t.Logf("corpus scripts: %d of %d oracle lines reproduced; %d scripts where libpcp failed", same, total, skipped)
}

// scriptsPerArchive is how many random scripts TestCorpusScripts runs
// on each archive: $PMIE_CORPUS_SCRIPTS, or 6.
func scriptsPerArchive() int {
	if n, err := strconv.Atoi(os.Getenv("PMIE_CORPUS_SCRIPTS")); err == nil && n > 0 {
		return n
	}
	return 6
}
