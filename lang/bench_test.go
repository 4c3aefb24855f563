package lang

import (
	"strings"
	"testing"
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

// BenchmarkParseDerived parses one typical derived-metric expression.
func BenchmarkParseDerived(b *testing.B) {
	expr := "delta(disk.dev.total) == 0 ? -mkconst(1.0, semantics=instant, units=\"kbyte / count\") : delta(disk.dev.total_bytes) / delta(disk.dev.total)"
	for b.Loop() {
		new(DerivedParser).Parse(expr)
	}
}
