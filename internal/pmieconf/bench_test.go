package pmieconf

import (
	"io"
	"os"
	"testing"
	"time"
)

// BenchmarkLoadGenerate loads the installed templates (or, without them,
// the test ones) and writes a pmie file from them, as "pmieconf -F" does.
func BenchmarkLoadGenerate(b *testing.B) {
	path := "/var/lib/pcp/config/pmieconf"
	if _, err := os.Stat(path); err != nil {
		path = "../../testdata/pmieconf/rules"
	}
	for b.Loop() {
		s, err := Load(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Generate(io.Discard, "pmieconf", false, time.Unix(0, 0), io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
