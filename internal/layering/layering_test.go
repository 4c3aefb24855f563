// Package layering holds a test that keeps the module's imports pointing one
// way, as STYLE.md lays out: the table below says, for every package of
// the module, exactly which of our packages its code may import, and
// which more its tests may.
package layering

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gopcp/pmie/"

// layer is what one package may import of ours: imports for its code;
// tests, more for its tests (which may also import what the code may,
// and internal/realtest, to use the real components on the machine).
type layer struct {
	imports, tests []string
}

// The concrete sources of metrics, which only pmapi/source (the opener)
// and tests of other packages import.
var (
	sources = []string{"pmapi/archive", "pmapi/local", "pmapi/pmcd"}
	engine  = []string{"lang", "derive", "eval", "actions", "rules", "pmapi"}
)

// table is every package of the module, by path relative to its root. A
// new package needs a row: the test fails until it has one.
var table = map[string]layer{
	// syntax and the data model import nothing of ours
	"lang":  {},
	"pmapi": {},
	// the sources of metrics, each over pmapi alone; the opener over them
	"pmapi/archive":    {imports: []string{"pmapi"}, tests: []string{"internal/damaged"}},
	"pmapi/local":      {imports: []string{"pmapi"}},
	"pmapi/pmcd":       {imports: []string{"pmapi", "internal/pdu", "internal/pcpconf", "internal/nss"}, tests: []string{"internal/pmcdtest"}},
	"pmapi/synth":      {imports: []string{"pmapi"}, tests: []string{"pmapi/archive"}},
	"pmapi/source":     {imports: append([]string{"pmapi"}, sources...)},
	"pmapi/fetchgroup": {imports: []string{"pmapi"}, tests: []string{"pmapi/archive", "pmapi/pmcd"}},
	"internal/pdu":     {imports: []string{"pmapi"}},
	// the engine: given contexts, it opens no source itself
	"derive":  {imports: []string{"lang", "pmapi", "internal/posixre", "internal/pcpconf"}, tests: []string{"pmapi/archive", "pmapi/pmcd", "internal/pmcdtest"}},
	"eval":    {imports: []string{"lang", "pmapi", "internal/posixre"}},
	"actions": {},
	// the stomp action's client, and the broker stand-in its tests use
	"actions/stomp": {imports: []string{"pmapi"}, tests: []string{"internal/stomptest", "internal/goldenfile"}},
	"rules": {imports: []string{"lang", "eval", "actions", "pmapi", "internal/waker"},
		tests: append([]string{"internal/pmcdtest"}, sources...)},
	// pmie -x: the summary PMDA's side of the engine, in the wire protocol
	"rules/agent": {imports: []string{"eval", "rules", "pmapi", "internal/pdu"},
		tests: append([]string{"lang"}, sources...)},
	// alerting and the daemon
	"notify/alert":       {imports: []string{"actions"}},
	"notify":             {imports: []string{"actions", "notify/alert", "internal/yamlcfg", "internal/nss"}},
	"daemon/fleet":       {imports: []string{"internal/pcpconf", "internal/pcpopt"}},
	"daemon/wire":        {imports: []string{"notify/alert", "daemon/fleet"}},
	"daemon/selfmetrics": {imports: []string{"daemon/wire", "pmapi"}},
	"daemon/web":         {imports: []string{"daemon/selfmetrics", "daemon/wire"}},
	"daemon/config":      {imports: []string{"daemon/wire", "daemon/fleet", "notify", "pmapi", "internal/yamlcfg"}, tests: []string{"notify/alert"}},
	"daemon": {imports: []string{"actions", "eval", "rules", "notify/alert", "daemon/selfmetrics", "daemon/wire",
		"internal/mmv", "internal/pcpconf"}},
	// helpers of our own
	"internal/posixre":               {},
	"internal/stomptest":             {},
	"internal/pcpconf":               {imports: []string{"pmapi"}},
	"internal/pmiestats":             {},
	"internal/yamlcfg":               {},
	"internal/realtest":              {},
	"internal/waker":                 {},
	"internal/nss":                   {},
	"internal/cstdio":                {},
	"internal/oneproc":               {},
	"internal/hugeheap":              {},
	"internal/pcpopt":                {imports: []string{"pmapi", "internal/pmcpp"}},
	"internal/pmcpp":                 {imports: []string{"pmapi", "internal/pcpconf"}},
	"internal/pmprintf":              {imports: []string{"pmapi", "internal/pcpconf"}},
	"internal/pmprintf/pmprintftest": {imports: []string{"internal/goldenfile"}},
	"internal/mmv":                   {imports: []string{"pmapi"}},
	"internal/pmieconf":              {imports: []string{"lang", "pmapi", "internal/pmiestats"}},
	"internal/ruletest":              {imports: append(slices.Clone(engine), "notify/alert", "pmapi/source", "pmapi/synth")},
	"internal/pmcdtest":              {imports: []string{"pmapi", "internal/pdu"}},
	"internal/pmcdtest/farm":         {imports: []string{"pmapi", "pmapi/source", "internal/pmcdtest"}},
	"internal/fetchgrouptest":        {tests: []string{"derive", "pmapi", "pmapi/archive", "pmapi/fetchgroup"}},
	"internal/layering":              {},
	"internal/goldenfile":            {},
	// the corpus of damaged archives, read as pmdumplog reads them
	"internal/damaged":           {imports: []string{"pmapi", "pmapi/archive", "internal/goldenfile"}},
	"internal/damaged/mkdamaged": {imports: []string{"internal/damaged"}},
	"internal/damaged/dumprecs":  {imports: []string{"internal/damaged"}},
	// the commands wire things together; they open sources through
	// pmapi/source
	// (pmie names pmapi/pmcd's Config, for a fleet member's timeouts)
	"cmd/pmie": {imports: append(slices.Clone(engine), "rules/agent", "pmapi/source", "pmapi/pmcd", "notify/alert", "daemon",
		"daemon/wire", "daemon/fleet", "internal/pcpconf", "internal/pcpopt", "internal/pmprintf", "internal/pmiestats", "internal/waker", "internal/oneproc", "internal/hugeheap", "internal/nss", "actions/stomp"),
		tests: []string{"internal/pmcdtest", "internal/damaged", "internal/goldenfile", "internal/pmprintf/pmprintftest", "internal/stomptest", "internal/pdu"}},
	"cmd/pmie-notify": {imports: []string{"notify", "daemon/config", "daemon/web", "daemon/wire"}, tests: []string{"notify/alert"}},
	"cmd/pminfo":      {imports: []string{"derive", "pmapi", "pmapi/source", "internal/pcpconf", "internal/pcpopt", "internal/pmprintf", "internal/hugeheap", "internal/cstdio"}, tests: []string{"internal/damaged", "internal/goldenfile", "internal/pmprintf/pmprintftest"}},
	"cmd/pmieconf":    {imports: []string{"lang", "internal/pcpconf", "internal/pcpopt", "internal/pmprintf", "internal/pmieconf", "internal/hugeheap", "internal/cstdio", "pmapi"}, tests: []string{"pmapi/archive", "pmapi/local", "internal/goldenfile", "internal/pmprintf/pmprintftest"}},
	"cmd/pmietest":    {imports: []string{"internal/ruletest"}},
	"examples":        {},
	"examples/vmstat": {imports: []string{"pmapi", "pmapi/fetchgroup", "pmapi/source"}},
}

func TestImportsPointOneWay(t *testing.T) {
	root := "../.."
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || (strings.HasPrefix(name, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		l, ok := table[rel]
		if !ok {
			if !seen[rel] {
				t.Errorf("package %s is not in the layering table: give it a row saying what it may import", rel)
			}
			seen[rel] = true
			return nil
		}
		seen[rel] = true
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		test := strings.HasSuffix(path, "_test.go")
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			target, ours := strings.CutPrefix(p, module)
			if !ours || target == rel || allowed(l, target, test) {
				continue
			}
			t.Errorf("%s imports %s, which the layering table does not allow %s", path, target, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range table {
		if !seen[pkg] {
			t.Errorf("the layering table has a row for %s, which has no Go files", pkg)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal("module root not where expected:", err)
	}
}

// allowed reports whether a package with layer l may import target (from
// a test file if test).
func allowed(l layer, target string, test bool) bool {
	if slices.Contains(l.imports, target) {
		return true
	}
	return test && (target == "internal/realtest" || slices.Contains(l.tests, target))
}
