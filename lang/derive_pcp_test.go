package lang

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pcpCase is one line of testdata/golden/lang/derive/pcp.jsonl, libpcp's
// verdict on an expression (see oracle.py there).
type pcpCase struct {
	Expr string  `json:"expr"`
	Err  *string `json:"err"`
	Tree *string `json:"tree"`
}

func readPCPCases(t testing.TB) []pcpCase {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "golden", "lang", "derive", "pcp.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []pcpCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c pcpCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	if len(cases) < 1000 {
		t.Fatalf("only %d cases in pcp.jsonl", len(cases))
	}
	return cases
}

// TestDerivedAgainstLibpcp checks every expression libpcp was asked about:
// the same ones are accepted, errors render exactly as libpcp's errmsg, and
// accepted expressions have libpcp's tree.
func TestDerivedAgainstLibpcp(t *testing.T) {
	cases := readPCPCases(t)
	same, crashed := 0, 0
	for _, c := range cases {
		if c.Err != nil && strings.HasPrefix(*c.Err, "ORACLE FAILURE") {
			crashed++ // libpcp itself crashed (anon() with a bad type)
			continue
		}
		x, d := (&DerivedParser{Check: testChecker}).Parse(c.Expr)
		switch {
		case c.Err == nil && d != nil:
			t.Errorf("%q: libpcp accepts, we say\n%s", c.Expr, PCPRegisterError("t.m", c.Expr, d))
		case c.Err != nil && d == nil:
			t.Errorf("%q: libpcp says\n%swe accept", c.Expr, *c.Err)
		case c.Err != nil:
			if got := PCPRegisterError("t.m", c.Expr, d); got != *c.Err {
				t.Errorf("%q:\nlibpcp: %q\nours:   %q", c.Expr, *c.Err, got)
				continue
			}
			same++
		case c.Tree != nil:
			if got := libpcpTree(x); got != scaleRE.ReplaceAllString(*c.Tree, "SCALE<>") {
				t.Errorf("%q:\nlibpcp tree: %s\nour tree:    %s", c.Expr, *c.Tree, got)
				continue
			}
			same++
		default:
			same++
		}
	}
	t.Logf("%d of %d expressions handled as libpcp does (%d crash libpcp)", same, len(cases)-crashed, crashed)
}

// scaleRE matches the units libpcp shows for rescale(), which lang does not
// interpret.
var scaleRE = regexp.MustCompile(`SCALE<[^>]*>`)

// testChecker does libpcp's checks of mkconst types and semantics (the
// units and patterns in the test data are all good).
func testChecker(c Check) string {
	types := map[string]string{"32": "32", "U32": "U32", "64": "64", "U64": "U64", "FLOAT": "FLOAT", "DOUBLE": "DOUBLE"}
	switch c.Kind {
	case CheckType:
		if types[strings.ToUpper(c.Value)] == "" {
			return "Unrecognized value for type '" + c.Value + "'"
		}
	case CheckSemantics:
		switch strings.ToLower(c.Value) {
		case "counter", "instant", "discrete":
		default:
			return "Unrecognized value for semantics '" + c.Value + "'"
		}
	case CheckUnits, CheckRescale:
		// A rough stand-in for pmParseUnitsStr, enough for the test data.
		// (pmParseUnitsStr takes numbers as multipliers.)
		for _, w := range strings.Fields(strings.ReplaceAll(c.Value, "/", " / ")) {
			if w[0] >= '0' && w[0] <= '9' {
				continue
			}
			switch strings.TrimSuffix(strings.ToLower(w), "s") {
			case "/", "byte", "kbyte", "mbyte", "count", "hour", "sec":
			default:
				return "Illegal units: 'unrecognized or duplicate base unit'"
			}
		}
	case CheckPattern:
		// Go's regexp stands in for regcomp(3) here.
		if _, err := regexp.Compile(c.Value); err != nil {
			return "bad regular expression: 'Invalid regular expression'"
		}
	case CheckMkConst:
		t := types[strings.ToUpper(c.Value)]
		if c.Float && t != "" && t != "FLOAT" && t != "DOUBLE" {
			return "Incompatible floating point constant and type '" + t + "'"
		}
	}
	return ""
}

// libpcpTree renders x in the notation oracle.py uses for libpcp's dumps.
func libpcpTree(x Expr) string {
	node := func(name string, kids ...Expr) string {
		parts := make([]string, len(kids))
		for i, k := range kids {
			parts[i] = libpcpTree(k)
		}
		return name + "(" + strings.Join(parts, ", ") + ")"
	}
	switch x := x.(type) {
	case *Number:
		if x.Kind == IntNumber {
			return "INTEGER<" + x.Lit + ">"
		}
		return "DOUBLE<" + x.Lit + ">"
	case *Metric:
		return "NAME<" + x.Name + ">"
	case *Paren:
		return libpcpTree(x.X)
	case *Unary:
		if x.Op == OpNeg {
			return node("NEG", x.X)
		}
		return node("NOT", x.X)
	case *Binary:
		names := map[BinaryOp]string{OpAdd: "PLUS", OpSub: "MINUS", OpMul: "STAR", OpDiv: "SLASH",
			OpLT: "LT", OpLE: "LEQ", OpEQ: "EQ", OpGE: "GEQ", OpGT: "GT", OpNE: "NEQ", OpAnd: "AND", OpOr: "OR"}
		return node(names[x.Op], x.X, x.Y)
	case *Ternary:
		return "QUEST(" + libpcpTree(x.Cond) + ", " + node("COLON", x.Then, x.Else) + ")"
	case *MkConst:
		return libpcpTree(x.Value)
	case *Call:
		switch x.Func {
		case "rescale":
			return "RESCALE(" + libpcpTree(x.Args[0]) + ", SCALE<>)"
		case "anon":
			return "ANON(INTEGER<" + x.Args[0].(*Metric).Name + ">)"
		}
		return node(strings.ToUpper(x.Func), x.Args...)
	}
	return "?"
}
