package pmieconf

import (
	"embed"
	"io/fs"
	"path"
	"strings"
)

// BuiltinPath is the rules path component that names the templates built
// into the program (the templates directory beside this file): rules for
// the metrics of the embedded collector, pmapi/local, which are also those
// of PCP's linux PMDA. A generated file made from them records it as its
// rules path.
const BuiltinPath = "@builtin"

//go:embed templates
var builtin embed.FS

// loadBuiltin adds the built-in templates to the set, each file named
// BuiltinPath/group/file, in name order.
func (s *Set) loadBuiltin() error {
	return fs.WalkDir(builtin, "templates", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := builtin.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := strings.CutPrefix(p, "templates/")
		return s.AddFile(path.Join(BuiltinPath, rel), src)
	})
}
