package lang

import (
	"os"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
)

// BenchmarkParsePmie parses the hand-written rule files repeated into one
// large file.
func BenchmarkParsePmie(b *testing.B) {
	text := strings.Repeat(readFile(b, goldenPath("pmie", "cases", "manpage.pmie")), 50)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		ParsePmie("bench.pmie", text)
	}
}

// benchDerived is a typical derived-metric expression, in the style of
// PCP's global ones.
const benchDerived = "delta(disk.dev.total) == 0 ? -mkconst(1.0, semantics=instant, units=\"kbyte / count\") : delta(disk.dev.total_bytes) / delta(disk.dev.total)"

// BenchmarkParseDerived parses one typical derived-metric expression, whose
// shape participle has parsed already (see derivedStructure), as all but
// the first of the expressions of one shape are.
func BenchmarkParseDerived(b *testing.B) {
	for b.Loop() {
		new(DerivedParser).Parse(benchDerived)
	}
}

// BenchmarkParseDerivedNewShape parses the same expression as a first of
// its shape, through participle.
func BenchmarkParseDerivedNewShape(b *testing.B) {
	for b.Loop() {
		forgetShapes()
		new(DerivedParser).Parse(benchDerived)
	}
}

// forgetShapes empties derivedStructure's memory of shapes.
func forgetShapes() {
	shapes.Lock()
	shapes.m = nil
	shapes.Unlock()
}

// BenchmarkDerivedGrammarBuild builds the participle parser of the
// derived-metric grammar, which every process that parses a derived
// metric does once.
func BenchmarkDerivedGrammarBuild(b *testing.B) {
	for b.Loop() {
		participle.MustBuild[derivedExpr](participle.Lexer(tokenDef{}), participle.UseLookahead(2))
	}
}

// BenchmarkReadDerivedConfigPCP reads PCP's own derived-metric
// configuration (/etc/pcp/derived), as every command does when it starts,
// and accepts each definition (Accept: no tree is made).
func BenchmarkReadDerivedConfigPCP(b *testing.B) {
	dir := "/etc/pcp/derived"
	ents, err := os.ReadDir(dir)
	if err != nil {
		b.Skip("no PCP derived-metric configuration:", err)
	}
	var names, texts []string
	for _, e := range ents {
		t, err := os.ReadFile(dir + "/" + e.Name())
		if err != nil {
			b.Fatal(err)
		}
		names, texts = append(names, e.Name()), append(texts, string(t))
	}
	b.ReportAllocs()
	for b.Loop() {
		var p DerivedParser
		for i := range names {
			cfg := ReadDerivedConfig(names[i], texts[i])
			for _, e := range cfg.Entries {
				if e.Kind == DerivedDef {
					if _, d := p.AcceptEntry(cfg, e); d != nil {
						b.Fatal(d)
					}
				}
			}
		}
	}
}
