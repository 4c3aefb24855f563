package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/gopcp/pmie/internal/realtest"
)

// BenchmarkArchive runs "pmie -z -a ARCHIVE -c RULES -v" whole, as the
// shared tools' bench-vs-pmie.sh (../shared/tools beside the repository)
// times it: ARCHIVE is $PMIE_BENCH_ARCHIVE (default /tmp/pmie-bench,
// which that script makes) and RULES $PMIE_BENCH_RULES (default the
// shared tools' bench.pmie). It skips when either is absent.
func BenchmarkArchive(b *testing.B) {
	archive := os.Getenv("PMIE_BENCH_ARCHIVE")
	if archive == "" {
		archive = "/tmp/pmie-bench"
	}
	rules := os.Getenv("PMIE_BENCH_RULES")
	if rules == "" {
		rules = realtest.Shared("tools/bench.pmie")
	}
	for _, f := range []string{archive + ".meta", rules} {
		if _, err := os.Stat(f); err != nil {
			b.Skip(err)
		}
	}
	args := []string{"-z", "-a", archive, "-c", rules, "-v"}
	var errs strings.Builder
	for b.Loop() {
		if code := run(context.Background(), nil, args, strings.NewReader(""), io.Discard, &errs); code != 0 {
			b.Fatalf("exit %d: %s", code, errs.String())
		}
	}
}
