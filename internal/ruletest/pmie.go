package ruletest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// pmieOutput is what real pmie -a ... -v printed: each rule's value
// and the actions it reported, by time as pmie prints it (ctime).
type pmieOutput struct {
	values  map[string]map[string]string // time: rule: value text
	actions map[string][]pmieAction      // time: actions, in order
}

type pmieAction struct{ action, message string }

var (
	valueLine  = regexp.MustCompile(`^(\S+) \((\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4})\): ?(.*)$`)
	actionLine = regexp.MustCompile(`^(print|shell|alarm|syslog|stomp) (\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}): (.*)$`)
)

// readPmieOutput reads pmie's standard output.
func readPmieOutput(r io.Reader) (*pmieOutput, error) {
	out := &pmieOutput{values: map[string]map[string]string{}, actions: map[string][]pmieAction{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := actionLine.FindStringSubmatch(line); m != nil {
			out.actions[m[2]] = append(out.actions[m[2]], pmieAction{m[1], m[3]})
			continue
		}
		if m := valueLine.FindStringSubmatch(line); m != nil {
			if out.values[m[2]] == nil {
				out.values[m[2]] = map[string]string{}
			}
			out.values[m[2]][m[1]] = m[3]
		}
	}
	return out, sc.Err()
}

// pmieTally counts what a comparison with real pmie found.
type pmieTally struct {
	checks, agreed int // expectations, and those real pmie's output meets
	lines, same    int // rule values printed by both, and those printed alike
	tests, passed  int
}

// CheckPmie compares real pmie's output, left by
// scripts/pmietest-vs-pmie.sh in the directories Export made under dir,
// with the expectations of each test and with what this engine prints.
// It reports each disagreement and the counts, and returns 1 if there
// were disagreements.
func CheckPmie(dir string, stdout, stderr io.Writer) int {
	subdirs, err := filepath.Glob(filepath.Join(dir, "[0-9]*"))
	if err != nil || len(subdirs) == 0 {
		fmt.Fprintf(stderr, "pmietest: --check-pmie: no tests exported in %s\n", dir)
		return 1
	}
	sort.Strings(subdirs)
	var tally pmieTally
	for _, d := range subdirs {
		problems, err := checkPmieTest(d, &tally)
		if err != nil {
			fmt.Fprintf(stderr, "pmietest: %s: %v\n", d, err)
			return 1
		}
		for _, p := range problems {
			fmt.Fprintln(stdout, p)
		}
	}
	fmt.Fprintf(stdout, "real pmie: %d/%d tests agree; %d/%d expectations met; %d/%d rule values printed identically\n",
		tally.passed, tally.tests, tally.agreed, tally.checks, tally.same, tally.lines)
	if tally.passed != tally.tests {
		return 1
	}
	return 0
}

// checkPmieTest compares one test's expectations with real pmie's output.
func checkPmieTest(dir string, tally *pmieTally) ([]string, error) {
	f, t, real, err := loadExported(dir)
	if err != nil {
		return nil, err
	}
	ours := Run(f, t)
	loc := pmapi.LoadTZ(t.Timezone)
	var problems []string
	for _, e := range t.Expect {
		when := ctime(loc, ours.Base.Add(e.At).Unix())
		for _, p := range comparePmie(e, real, when, ours.Observed[e.At], tally) {
			problems = append(problems, fmt.Sprintf("%s: %s: at %s: %s", f.Path, t.Name, durationText(e.At), p))
		}
	}
	tally.tests++
	if len(problems) == 0 {
		tally.passed++
	}
	return problems, nil
}

// loadExported reads which test an exported directory is for, and the
// output real pmie left there.
func loadExported(dir string) (*File, *Test, *pmieOutput, error) {
	var which exported
	b, err := os.ReadFile(filepath.Join(dir, "test.json"))
	if err != nil {
		return nil, nil, nil, err
	}
	if err := json.Unmarshal(b, &which); err != nil {
		return nil, nil, nil, err
	}
	f, err := ReadFile(which.File)
	if err != nil {
		return nil, nil, nil, err
	}
	var t *Test
	for _, x := range f.Tests {
		if x.Name == which.Test {
			t = x
		}
	}
	if t == nil {
		return nil, nil, nil, fmt.Errorf("%s has no test %q", which.File, which.Test)
	}
	out, err := os.Open(filepath.Join(dir, "pmie.out"))
	if err != nil {
		return nil, nil, nil, err
	}
	defer out.Close()
	real, err := readPmieOutput(out)
	return f, t, real, err
}

// comparePmie compares what real pmie printed at one time (when, as it
// prints times) with an expectation, and with what this engine observed
// then; it returns the disagreements.
func comparePmie(e *Expect, real *pmieOutput, when string, obs *Observed, tally *pmieTally) []string {
	var problems []string
	say := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if obs != nil {
		// every rule evaluated then, as both print it
		for _, name := range slices.Sorted(maps.Keys(obs.Values)) {
			text, ok := real.values[when][name]
			if !ok {
				continue
			}
			tally.lines++
			if mine := obs.Values[name].Text; mine == text {
				tally.same++
			} else {
				say("%s: real pmie printed %q, pmietest %q", name, text, mine)
			}
		}
	}
	for _, v := range e.Values {
		tally.checks++
		text, ok := real.values[when][v.Rule]
		if !ok {
			say("real pmie printed no value of %s", v.Rule)
			continue
		}
		if why := matchPrinted(v, text, obs, e.Tolerance); why != "" {
			say("%s: real pmie printed %q: %s", v.Rule, text, why)
			continue
		}
		tally.agreed++
	}
	if e.FiredSet {
		tally.checks++
		var fired []*Firing
		if obs != nil {
			fired = obs.Fired
		}
		if why := matchReported(e.Fired, e.FiredRules, real.actions[when], fired); why != "" {
			say("fired: %s", why)
		} else {
			tally.agreed++
		}
	}
	return problems
}

// matchPrinted checks a value pmie -v printed against an expected one;
// members are told apart by the order in which this engine prints them
// (the same as pmie's). It returns "" if they agree.
func matchPrinted(v *ValueWant, text string, obs *Observed, tol float64) string {
	tokens := splitValues(text)
	var ours *RuleValue
	if obs != nil {
		ours = obs.Values[v.Rule]
	}
	if v.Whole {
		return matchTokens(v.Members[0].Samples, tokens, tol)
	}
	if ours == nil || len(ours.Members) == 0 {
		return "pmietest has no members to compare by"
	}
	n := len(ours.Members[0].Samples)
	if len(tokens) != n*len(ours.Members) {
		return fmt.Sprintf("%d values, pmietest has %d", len(tokens), n*len(ours.Members))
	}
	for _, mw := range v.Members {
		for i, m := range ours.Members {
			if mw.matches(m) {
				if why := matchTokens(mw.Samples, tokens[i*n:(i+1)*n], tol); why != "" {
					return mw.name() + ": " + why
				}
			}
		}
	}
	return ""
}

// splitValues splits a printed value into its values (a string constant
// is one value).
func splitValues(text string) []string {
	if strings.HasPrefix(text, `"`) {
		return []string{text}
	}
	return strings.Fields(text)
}

// matchTokens checks printed values against expected samples.
func matchTokens(want []Want, tokens []string, tol float64) string {
	if len(tokens) != len(want) {
		return fmt.Sprintf("%d values, expected %d", len(tokens), len(want))
	}
	for k, w := range want {
		tok := tokens[k]
		ok := false
		switch {
		case w.Unknown:
			ok = tok == "?" || tok == "unknown"
		case w.IsTruth:
			ok = tok == w.Truth.String()
		case w.IsStr:
			ok = tok == strconv.Quote(w.Str)
		default:
			g, err := strconv.ParseFloat(tok, 64)
			ok = err == nil && math.Abs(g-w.Num) <= math.Max(printedPrecision(w.Num), tol)
			if tol == 0 && err == nil {
				ok = ok || closeEnough(g, w.Num, 0)
			}
		}
		if !ok {
			return fmt.Sprintf("value %q, expected %s", tok, samplesWantText([]Want{w}))
		}
	}
	return ""
}

// printedPrecision is how far a number pmie prints may be from its value:
// half a unit of its last printed digit (see eval's appendNumber).
func printedPrecision(v float64) float64 {
	a := math.Abs(v)
	switch {
	case v == math.Trunc(v) && a < 1<<31:
		return 0
	case a < 0.5:
		return 5e-6 * math.Max(a, 1e-300)
	case a < 5:
		return 0.005
	case a < 50:
		return 0.05
	}
	return 0.5
}

// matchReported checks the actions pmie reported at one time against
// those expected. pmie's report gives an action's kind and message, not
// its rule: the rules are taken from this engine's firings, once the two
// lists agree action for action; hosts, instances and alerts, which
// pmie's output does not show, are not compared.
func matchReported(want []*FiredWant, rules map[string]bool, got []pmieAction, ours []*Firing) string {
	if len(got) != len(ours) {
		return fmt.Sprintf("real pmie reported %s; pmietest fired %s", reportedText(got), reportedText(asReported(ours)))
	}
	reported := make([]*Firing, len(got))
	for i, g := range got {
		if g.action != ours[i].Action || g.message != ours[i].Message {
			return fmt.Sprintf("real pmie reported %s; pmietest fired %s", reportedText(got), reportedText(asReported(ours)))
		}
		reported[i] = &Firing{Rule: ours[i].Rule, Action: g.action, Message: g.message}
	}
	visible := make([]*FiredWant, len(want))
	for i, fw := range want {
		v := *fw
		v.HasHosts, v.HasInsts, v.Alert = false, false, nil
		visible[i] = &v
	}
	if ok, _, _ := compareFired(visible, reported, rules); !ok {
		var ws []string
		for _, fw := range visible {
			ws = append(ws, fw.String())
		}
		return fmt.Sprintf("real pmie reported %s; expected %s", reportedText(got), strings.Join(ws, ", "))
	}
	return ""
}

// asReported is fired actions as pmie reports them.
func asReported(fs []*Firing) []pmieAction {
	out := make([]pmieAction, len(fs))
	for i, f := range fs {
		out[i] = pmieAction{f.Action, f.Message}
	}
	return out
}

func reportedText(got []pmieAction) string {
	if len(got) == 0 {
		return "nothing"
	}
	var parts []string
	for _, g := range got {
		parts = append(parts, fmt.Sprintf("%s %q", g.action, g.message))
	}
	return strings.Join(parts, ", ")
}
