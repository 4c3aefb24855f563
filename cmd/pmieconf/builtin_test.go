package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/goldenfile"
	"github.com/gopcp/pmie/internal/pmieconf"
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
	"github.com/gopcp/pmie/pmapi/local"
)

const (
	builtinGoldens   = "../../testdata/golden/pmieconf-builtin"
	collectorArchive = "../../testdata/archives/collector"
)

// TestBuiltinFallback runs pmieconf -F where PCP's templates are not
// installed: it says so, uses the built-in ones, and makes the same file
// as -r @builtin does.
func TestBuiltinFallback(t *testing.T) {
	dir := t.TempDir()
	noPCP := func(name string) (string, bool) {
		if name == "PCP_VAR_DIR" {
			return filepath.Join(dir, "no-pcp"), true
		}
		return "", false
	}
	fallback, explicit := filepath.Join(dir, "fallback.pmie"), filepath.Join(dir, "explicit.pmie")
	_, errs, code := runCase([]string{"-f", fallback, "-F"}, "", noPCP)
	want := "pmieconf: no rule templates in " + dir + "/no-pcp/config/pmieconf (PCP not installed?): using the built-in templates (-r @builtin)\n"
	if code != 0 || errs != want {
		t.Fatalf("exit %d, stderr %q, want %q", code, errs, want)
	}
	if _, errs, code := runCase([]string{"-r", "@builtin", "-f", explicit, "-F"}, "", noPCP); code != 0 || errs != "" {
		t.Fatalf("-r @builtin: exit %d: %s", code, errs)
	}
	a, b := readGenerated(t, fallback), readGenerated(t, explicit)
	if a != b {
		t.Errorf("the fallback's file differs from -r @builtin's:\n%s\n---\n%s", a, b)
	}
	if !strings.HasPrefix(a, "// pmieconf-pmie 1 @builtin\n") {
		t.Errorf("header does not name the built-in templates:\n%s", a)
	}
	// Read back with a change: the rules path in the file is accepted.
	if _, errs, code := runCase([]string{"-f", fallback, "modify", "cpu.busy", "threshold", "75"}, "", noPCP); code != 0 {
		t.Fatalf("modify: exit %d: %s", code, errs)
	}
	if got := readGenerated(t, fallback); !strings.Contains(got, "// 1 cpu.busy threshold = 75%\n") {
		t.Errorf("the change was not kept:\n%s", got)
	}
}

func readGenerated(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return dateLine.ReplaceAllString(string(b), "${1}DATE")
}

// assumed is what the built-in templates' predicates take each metric
// they use to be (as pminfo -d says it): a time counter is a fraction of
// a second once pmie makes it a rate, so 100 times it is a percentage; a
// percentage is in 0..100; a size is compared only with another of the
// same units.
var assumed = map[string]string{
	"hinv.ncpu":                    "discrete none",
	"kernel.all.cpu.user":          "counter millisec",
	"kernel.all.cpu.nice":          "counter millisec",
	"kernel.all.cpu.sys":           "counter millisec",
	"kernel.all.cpu.intr":          "counter millisec",
	"kernel.all.cpu.wait.total":    "counter millisec",
	"kernel.percpu.cpu.user":       "counter millisec",
	"kernel.percpu.cpu.nice":       "counter millisec",
	"kernel.percpu.cpu.sys":        "counter millisec",
	"kernel.percpu.cpu.intr":       "counter millisec",
	"kernel.all.load":              "instant none",
	"mem.util.available":           "instant Kbyte",
	"mem.physmem":                  "discrete Kbyte",
	"swap.pagesout":                "counter count",
	"swap.used":                    "instant byte",
	"swap.length":                  "instant byte",
	"disk.dev.avactive":            "counter millisec",
	"network.interface.in.errors":  "counter count",
	"network.interface.out.errors": "counter count",
	"network.interface.in.drops":   "counter count",
	"network.interface.out.drops":  "counter count",
	"filesys.full":                 "instant none",
	"filesys.usedfiles":            "instant none",
	"filesys.maxfiles":             "discrete none",
}

var metricName = regexp.MustCompile(`\b[a-z][a-z0-9_]*(\.[A-Za-z0-9_]+)+\b`)

func builtinSet(t *testing.T) *pmieconf.Set {
	t.Helper()
	set, err := pmieconf.Load(pmieconf.BuiltinPath)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// builtinMetrics lists the metrics the built-in templates' predicates
// name.
func builtinMetrics(t *testing.T) []string {
	var names []string
	for _, r := range builtinSet(t).Rules[1:] {
		for _, m := range metricName.FindAllString(r.Predicate, -1) {
			if !slices.Contains(names, m) {
				names = append(names, m)
			}
		}
	}
	sort.Strings(names)
	return names
}

func describe(d pmapi.Desc) string {
	u := d.Units.String()
	if u == "" {
		u = "none"
	}
	return d.Sem.String() + " " + u
}

// TestBuiltinMetrics checks that every metric the built-in templates use
// is one the embedded collector has itself (not a derived metric that
// comes with PCP), with the semantics and units the predicates assume,
// and that the test archive has them just as the collector does.
func TestBuiltinMetrics(t *testing.T) {
	names := builtinMetrics(t)
	for name := range assumed {
		if !slices.Contains(names, name) {
			t.Errorf("%s is in the table but no template uses it", name)
		}
	}
	coll, err := local.Open(local.Options{})
	if err != nil {
		t.Skip("no embedded collector here:", err)
	}
	defer coll.Close()
	arch, err := archive.Open(collectorArchive)
	if err != nil {
		t.Fatal(err)
	}
	defer arch.Close()
	for _, name := range names {
		want, ok := assumed[name]
		if !ok {
			t.Errorf("a template uses %s: say in the table what it must be", name)
			continue
		}
		d, err := lookup(coll, name)
		if err != nil {
			t.Errorf("embedded collector: %v", err)
			continue
		}
		if got := describe(d); got != want {
			t.Errorf("%s is %s in the embedded collector; the templates take it for %s", name, got, want)
		}
		if ad, err := lookup(arch, name); err != nil || ad != d {
			t.Errorf("%s in %s: %+v, %v; the embedded collector's: %+v", name, collectorArchive, ad, err, d)
		}
	}
}

func lookup(c pmapi.Context, name string) (pmapi.Desc, error) {
	id, err := c.LookupName(name)
	if err != nil {
		return pmapi.Desc{}, fmt.Errorf("%s: %w", name, err)
	}
	return c.LookupDesc(id)
}

// generateBuiltin makes file from the built-in templates after the
// pmieconf commands given (the last of them, with -F).
func generateBuiltin(t *testing.T, file string, commands ...string) {
	t.Helper()
	for _, c := range commands {
		args := append([]string{"-r", pmieconf.BuiltinPath, "-f", file}, goldenfile.Words(c, nil)...)
		if _, errs, code := runCase(args, "", os.LookupEnv); code != 0 {
			t.Fatalf("pmieconf %s: exit %d: %s", c, code, errs)
		}
	}
}

// firing is when each rule of the built-in templates is true in the test
// archive, by how testdata/archives/mkcollector.py makes its values: the
// minutes after its start, keyed by the rule's message.
var firing = map[string][]int{
	"Filesystem out of inodes": {3, 4, 5},
	"Disk busy":                {4, 5, 6, 7, 8},
	"CPUs busy":                {6, 7, 8, 9},
	"High load average":        {7, 8, 9, 10},
	"Network interface errors": {9, 10, 11},
	"A CPU saturated":          {10, 11, 12},
	"Filesystem nearly full":   {10, 11, 12, 13, 14, 15},
	"Little memory available":  {11, 12, 13},
	"Swap space nearly full":   {12, 13, 14},
	"Paging out to swap":       {12, 13, 14},
	"CPUs waiting for I/O":     {13, 14, 15},
	"Network packets dropped":  {14, 15},
}

var printed = regexp.MustCompile(`^print Thu Jan  1 00:(\d\d):00 2026: (.*?) [-0-9.]+[^ ]*@box$`)

// TestBuiltinOverArchive generates pmie files from the built-in
// templates, checks that our pmie -C accepts them, and runs them over the
// test archive: the output is real pmie's (gen.sh), and with every rule
// on and no holdoff each rule is true exactly when the archive's values
// say it should be.
func TestBuiltinOverArchive(t *testing.T) {
	pmie := pmieBinary(t)
	arch, err := filepath.Abs(collectorArchive)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range readCases(t, filepath.Join(builtinGoldens, "cases")) {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), c.name+".pmie")
			var commands []string
			if c.setup != "" {
				commands = strings.Split(c.setup, " ;; ")
			}
			generateBuiltin(t, file, append(commands, c.args)...)
			if out, err := exec.Command(pmie, "-C", "-L", "-c", file).CombinedOutput(); err != nil || len(out) > 0 {
				t.Fatalf("pmie -C: %v\n%s", err, out)
			}
			cmd := exec.Command(pmie, "-z", "-a", filepath.Base(arch), "-c", file)
			cmd.Dir = filepath.Dir(arch)
			cmd.Env = append(os.Environ(), "TZ=UTC")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("pmie -a: %v", err)
			}
			want, err := os.ReadFile(filepath.Join(builtinGoldens, c.name+".out"))
			if err != nil {
				t.Fatal(err)
			}
			compareLines(t, string(out), string(want))
			if c.name == "all" {
				checkFiring(t, string(out))
			}
		})
	}
}

func checkFiring(t *testing.T, out string) {
	t.Helper()
	got := map[string][]int{}
	for _, line := range strings.Split(out, "\n") {
		if m := printed.FindStringSubmatch(line); m != nil {
			minute, _ := strconv.Atoi(m[1])
			got[m[2]] = append(got[m[2]], minute)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(firing) {
		t.Errorf("rules true at minutes\n%v\nwant\n%v", got, firing)
	}
}

// TestBuiltinLive runs every built-in rule on this machine through the
// embedded collector (pmie -L) for three evaluations a second apart: no
// errors, and from the second evaluation on (rates need two samples)
// every rule is true or false, never unknown.
func TestBuiltinLive(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc here for the embedded collector")
	}
	pmie := pmieBinary(t)
	file := filepath.Join(t.TempDir(), "live.pmie")
	generateBuiltin(t, file, "enable all", `modify global delta "1 sec"`, "-F")
	cmd := exec.Command(pmie, "-L", "-v", "-T", "2.5sec", "-c", file)
	var errs strings.Builder
	cmd.Stderr = &errs
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pmie -L: %v\n%s", err, errs.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(errs.String()), "\n") {
		if !strings.Contains(line, "Info: evaluator exiting") {
			t.Errorf("pmie -L says: %s", line)
		}
	}
	rules := len(builtinSet(t).Rules) - 1 // less the global pseudo-rule
	evals := strings.Split(strings.TrimSpace(string(out)), "\n\n")
	if len(evals) < 2 {
		t.Fatalf("%d evaluations, want at least 2:\n%s", len(evals), out)
	}
	for _, ev := range evals[1:] {
		values := regexp.MustCompile(`(?m)^[a-z.]+: (true|false)$`).FindAllString(ev, -1)
		if len(values) != rules {
			t.Errorf("%d of %d rules known in\n%s", len(values), rules, ev)
		}
	}
}
