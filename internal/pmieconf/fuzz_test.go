package pmieconf

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/lang"
)

// seedFiles adds every file under dir to the corpus.
func seedFiles(f *testing.F, dir string) {
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := os.ReadFile(path); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
}

// enumerations is how many pmie rules an enumerated rule would make, to
// keep the fuzzer away from inputs that would take for ever to write.
func enumerations(s *Set, r *Rule) int {
	vars, err := s.enumerated(r)
	if err != nil {
		return 0
	}
	n := 1
	for _, v := range vars {
		text, err := s.Expand(r, v.Value, false)
		if err != nil {
			return 0
		}
		n *= len(listItems(text))
		if n > 10000 {
			return n
		}
	}
	return n
}

// exercise runs what pmieconf does with a loaded set: listing, help,
// changes and writing, none of which may panic.
func exercise(t *testing.T, s *Set) []byte {
	for _, r := range s.Rules {
		if r.HasEnumerate && enumerations(s, r) > 10000 {
			return nil
		}
	}
	var out bytes.Buffer
	for _, r := range s.Rules {
		s.printRule(&out, r, true)
		for _, v := range r.Vars {
			s.printVar(&out, r, v.Name, true)
			s.Change(r, v.Name, "1")
		}
		s.printVar(&out, r, "enabled", false)
	}
	var gen bytes.Buffer
	if err := s.Generate(&gen, "pmieconf", false, time.Unix(0, 0), io.Discard); err != nil {
		return nil
	}
	for _, r := range s.Rules[1:] {
		s.Reset(r)
	}
	return gen.Bytes()
}

// FuzzParseFile checks that no rules file makes the parser, the loader or
// anything done with what they load panic, and that errors are
// diagnostics with positions inside the file.
func FuzzParseFile(f *testing.F) {
	seedFiles(f, "../../testdata/pmieconf")
	seedFiles(f, "templates") // the built-in templates
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<14 {
			return
		}
		s, err := loadOne("fuzz", src)
		if err != nil {
			e, ok := err.(*lang.Diagnostic)
			if !ok {
				t.Fatalf("error %q is not a diagnostic", err)
			}
			if e.Span.Start.Line < 1 || e.Span.Start.Col < 1 || e.Span.Start.Offset > len(src) {
				t.Fatalf("bad position %+v for %d bytes", e.Span.Start, len(src))
			}
			if !strings.HasPrefix(e.Error(), "fuzz:") {
				t.Fatalf("diagnostic %q", e.Error())
			}
			return
		}
		gen := exercise(t, s)
		if gen == nil {
			return
		}
		// Read the file back into a fresh load of the same rules.
		again, err := loadOne("fuzz", src)
		if err != nil {
			t.Fatalf("second load failed: %v", err)
		}
		again.ReadSaved("fuzz.pmie", gen)
	})
}

// FuzzReadSaved checks that no generated file read back makes the
// saved-state reader panic.
func FuzzReadSaved(f *testing.F) {
	f.Add([]byte("// pmieconf-pmie 1 ../../testdata/pmieconf/rules\n// 3 demo.types limit = 4\n// end\n"))
	outs, _ := filepath.Glob("../../testdata/golden/pmieconf/*.out")
	for _, o := range outs {
		b, _ := os.ReadFile(o)
		if i := bytes.Index(b, []byte("--- file\n")); i >= 0 {
			f.Add(b[i+len("--- file\n"):])
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<14 {
			return
		}
		s, err := Load("../../testdata/pmieconf/rules")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.ReadSaved("fuzz.pmie", src); err != nil {
			return
		}
		exercise(t, s)
	})
}
