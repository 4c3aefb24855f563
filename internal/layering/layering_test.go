// Package layering holds a test that keeps the module's imports pointing one
// way, as STYLE.md lays out.
package layering

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gopcp/pmie/"

// allowed maps a package (relative to the module root) to the packages of
// ours it may import, each covering its subpackages too. cmd/ and internal/
// may import anything.
var allowed = map[string][]string{
	"lang":    {},
	"pmapi":   {"pmapi"},
	"derive":  {"lang", "pmapi"},
	"eval":    {"lang", "derive", "pmapi"},
	"actions": {"lang", "pmapi"},
	"rules":   {"lang", "derive", "eval", "actions", "pmapi"},
	"notify":  {"actions"},
}

func topOf(rel string) string {
	return strings.SplitN(rel, "/", 2)[0]
}

func TestImportsPointOneWay(t *testing.T) {
	root := "../.."
	fset := token.NewFileSet()
	checked := 0
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
		rules, ok := allowed[topOf(rel)]
		if !ok {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module) {
				continue
			}
			target := strings.TrimPrefix(p, module)
			if target == rel || strings.HasPrefix(target, rel+"/") {
				continue
			}
			// every test may use the real components on the machine, and
			// the corpus of damaged archives
			ok := strings.HasSuffix(path, "_test.go") && (target == "internal/realtest" || target == "internal/damaged")
			for _, a := range rules {
				if target == a || strings.HasPrefix(target, a+"/") {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%s imports %s, which %s may not use", path, p, topOf(rel))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no Go files found under the module root")
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal("module root not where expected:", err)
	}
}
