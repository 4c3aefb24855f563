package lang

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// pmieCase is one line of testdata/golden/lang/pmie/pcp.jsonl: a rule file
// and what real pmie made of it (see oracle.py there).
type pmieCase struct {
	Text    string `json:"text"`
	Stderr  string `json:"stderr"`
	Listing string `json:"listing"`
	RC      int    `json:"rc"`
}

func readPmieCases(t testing.TB) []pmieCase {
	t.Helper()
	f, err := os.Open(goldenPath("pmie", "pcp.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []pmieCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var c pmieCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		c.Stderr, c.Listing = latin1(c.Stderr), latin1(c.Listing)
		cases = append(cases, c)
	}
	if len(cases) < 1000 {
		t.Fatalf("only %d cases in pcp.jsonl", len(cases))
	}
	return cases
}

// latin1 turns text read as Latin-1 back into the bytes pmie printed.
func latin1(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = append(b, byte(r))
	}
	return string(b)
}

// syntaxLines are the stderr lines lang is responsible for; a case whose
// pmie output has other lines (semantic errors, which need metric
// metadata) is not compared.
var syntaxLines = regexp.MustCompile(`^(pmie: syntax error - .*|.* expected to (precede|follow) .*|undefined macro name .*|macro .* not string valued as expected|macro name must begin with an alphabetic .*|unexpected end of file in macro name.*|macro name too long.*|rule ".*" multiply defined)$`)

// lookupRE matches pmie's report of a metric name pmcd does not know.
// pmie reports it when it builds the metric reference, goes on, and keeps
// the statement (it looks the name up again later), so it does not change
// anything lang decides; the test removes it from pmie's output.
var lookupRE = regexp.MustCompile(`(?m)^pmie: metric .* not in namespace for .*\npmLookupName failed: .*\n`)

func onlySyntax(stderr string) bool {
	for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if l != "" && !syntaxLines.MatchString(l) {
			return false
		}
	}
	return true
}

// TestPmieAgainstPmie checks every rule file real pmie was given: our
// rendering of the diagnostics must be pmie's standard error, and the
// statements we keep, printed the way pmie lists them, must be pmie's
// listing.
func TestPmieAgainstPmie(t *testing.T) {
	cases := readPmieCases(t)
	sameErr, sameList, compared, crashedList := 0, 0, 0, 0
	for _, c := range cases {
		c.Stderr = lookupRE.ReplaceAllString(c.Stderr, "")
		if c.RC < 0 || !onlySyntax(c.Stderr) {
			continue
		}
		compared++
		f := ParsePmie("t.pmie", c.Text)
		if got := PCPPmieText("t.pmie", f.Diags); got != c.Stderr {
			t.Errorf("%q:\npmie said:\n%s\nwe say:\n%s", c.Text, c.Stderr, got)
		} else {
			sameErr++
		}
		want := hostRE.ReplaceAllString(c.Listing, "")
		if want != "" && !strings.HasSuffix(want, ";\n\n") {
			// pmie crashed while listing (it asserts on $hour and the
			// like); nothing to compare
			crashedList++
			continue
		}
		if got := pmieListing(f); got != want {
			t.Errorf("%q:\npmie kept:\n%s\nwe keep:\n%s", c.Text, want, got)
		} else {
			sameList++
		}
	}
	t.Logf("%d rule files compared (%d have semantic errors lang cannot see, or crash pmie): stderr identical for %d, kept statements identical for %d of %d (pmie crashed listing the others)",
		compared, len(cases)-compared, sameErr, sameList, compared-crashedList)
}

var hostRE = regexp.MustCompile(` :[A-Za-z0-9_.\-]+`)

// pmieListing renders the statements of f as pmie's debugger lists them
// (the "l" command), without host names, which need a live pmcd.
func pmieListing(f *File) string {
	var b strings.Builder
	for _, s := range f.Stmts {
		if s.Kind == StmtMacro || s.Kind == StmtDelta {
			continue
		}
		b.WriteString(s.Name + " =\n" + pmieShow(s.X) + ";\n\n")
	}
	return b.String()
}

// pmieConst evaluates a constant expression as pmie folds it.
func pmieConst(x Expr) any {
	switch x := x.(type) {
	case *Number:
		return x.Float * scaleFactor(x.Scale)
	case *String:
		return x.Value
	case *Bool:
		return x.Value
	case *Var:
		return pmieConst(x.Value)
	case *Paren:
		return pmieConst(x.X)
	case *MatchInst:
		return false // a constant has no instance names to match
	case *Unary:
		v := pmieConst(x.X)
		switch x.Op {
		case OpNeg:
			return -v.(float64)
		case OpNot:
			return !v.(bool)
		}
		return v
	case *Binary:
		a, c := pmieConst(x.X), pmieConst(x.Y)
		switch x.Op {
		case OpAnd:
			return a.(bool) && c.(bool)
		case OpOr:
			return a.(bool) || c.(bool)
		}
		if as, ok := a.(string); ok {
			eq := as == c.(string)
			return eq == (x.Op == OpEQ)
		}
		p, q := a.(float64), c.(float64)
		switch x.Op {
		case OpAdd:
			return p + q
		case OpSub:
			return p - q
		case OpMul:
			return p * q
		case OpDiv:
			return p / q
		case OpLT:
			return p < q
		case OpLE:
			return p <= q
		case OpEQ:
			return p == q
		case OpGE:
			return p >= q
		case OpGT:
			return p > q
		case OpNE:
			return p != q
		}
	}
	panic(fmt.Sprintf("not a constant: %T", x))
}

// scaleFactor is pmie's conversion of a scale factor to canonical units.
func scaleFactor(s *Scale) float64 {
	if s == nil {
		return 1
	}
	f := math.Pow(1024, float64(s.DimSpace*s.ScaleSpace))
	if s.ScaleTime > 3 {
		f *= math.Pow(60, float64(s.DimTime*(s.ScaleTime-3)))
	} else {
		f *= math.Pow(1000, float64(s.DimTime*(s.ScaleTime-3)))
	}
	return f * math.Pow(10, float64(s.DimCount*s.ScaleCount))
}

// showValue formats a constant as pmie's listing does.
func showValue(v any) string {
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v)
	case string:
		return `"` + v + `"`
	}
	f := v.(float64)
	switch {
	case math.IsNaN(f):
		return "?"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case f == math.Trunc(f) && math.Abs(f) < 1<<31:
		return strconv.Itoa(int(f))
	}
	a := math.Abs(f)
	switch {
	case a < 0.5:
		return strconv.FormatFloat(f, 'g', 6, 64)
	case a < 5:
		return strconv.FormatFloat(f, 'f', 2, 64)
	case a < 50:
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'f', 0, 64)
}

// bare reports whether pmie's listing shows x without parentheses as an
// operand of a binary operator.
func bare(x Expr) bool {
	x = Unparen(x)
	if isPmieConst(x) {
		return true
	}
	switch x := x.(type) {
	case *Metric:
		return true
	case *Unary:
		return x.Op == OpRate || x.Op == OpInstant
	case *Aggr:
		return true
	}
	return false
}

func pmieShow(x Expr) string {
	if isPmieConst(x) {
		return showValue(pmieConst(x))
	}
	wrap := func(y Expr) string {
		if bare(y) {
			return pmieShow(y)
		}
		return "(" + pmieShow(y) + ")"
	}
	switch x := x.(type) {
	case *Paren:
		return pmieShow(x.X)
	case *Metric:
		s := x.Name
		for _, q := range x.Insts {
			s += " #" + q.Value
		}
		if x.Name == "kernel.all.load" && len(x.Insts) == 0 {
			s += " #1 minute #5 minute #15 minute" // every instance, from pmcd
		}
		if sm := x.Samples; sm != nil {
			switch {
			case sm.From == 0 && sm.To > 0:
				s += fmt.Sprintf(" @0..%d", sm.To)
			case sm.From > 0:
				fsz, dsz := sm.From+1, sm.To-sm.From+1
				if dsz == fsz-1 {
					s += fmt.Sprintf(" @%d", dsz)
				} else {
					s += fmt.Sprintf(" @%d..%d", dsz, dsz+fsz-1)
				}
			}
		}
		return s
	case *Unary:
		if (x.Op == OpRate || x.Op == OpRising || x.Op == OpFalling) && isPmieConst(x.X) {
			// pmie makes room for two samples of the constant and
			// shows them as not yet known
			if x.Op == OpRate {
				return "rate (? ?)"
			}
			return x.Op.String() + " (unknown unknown)"
		}
		return x.Op.String() + " (" + pmieShow(x.X) + ")"
	case *Quant:
		if x.Op == "%" {
			arg := "(" + pmieShow(x.X) + ")"
			if _, ok := Unparen(x.X).(*Metric); ok || isPmieConst(x.X) {
				arg = pmieShow(x.X)
			}
			return fmt.Sprintf("pcnt_%s %d%% %s", x.Dom, int(x.Percent+0.5), arg)
		}
		return x.Op + "_" + x.Dom.String() + " (" + pmieShow(x.X) + ")"
	case *Aggr:
		return x.Op + "_" + x.Dom.String() + " (" + pmieShow(x.X) + ")"
	case *MatchInst:
		w := "match_inst"
		if x.Negate {
			w = "nomatch_inst"
		}
		return w + " /<regex>/ (" + pmieShow(x.X) + ")"
	case *Binary:
		return wrap(x.X) + " " + x.Op.String() + " " + wrap(x.Y)
	case *Rule:
		return pmieShow(x.Cond) + " -> " + pmieShow(x.Action)
	case *Action:
		s := x.Op
		if x.Holdoff != nil {
			s += " " + showValue(pmieConst(x.Holdoff))
		}
		for _, a := range x.Args {
			s += ` "` + a.Value + `"`
		}
		return s
	case *Ruleset:
		return showRuleset(x)
	}
	return fmt.Sprintf("<%T>", x)
}

func showRuleset(x *Ruleset) string {
	list := ""
	for i := len(x.Rules) - 1; i >= 0; i-- {
		r := pmieShow(x.Rules[i])
		if list == "" {
			list = r
		} else {
			list = "(" + r + ") || (" + list + ")"
		}
	}
	if x.Unknown == nil && x.Otherwise == nil {
		return "ruleset (" + list + ")"
	}
	opt := ""
	switch {
	case x.Otherwise == nil:
		opt = "(true -> " + pmieShow(x.Unknown) + ") other false"
	case x.Unknown == nil:
		opt = "false other (true -> " + pmieShow(x.Otherwise) + ")"
	default:
		opt = "(true -> " + pmieShow(x.Unknown) + ") other (true -> " + pmieShow(x.Otherwise) + ")"
	}
	return "(" + list + ") ruleset (" + opt + ")"
}
