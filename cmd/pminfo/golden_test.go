package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopcp/pmie/internal/goldenfile"
)

// goldenDir holds real pminfo's output for the cases of cases.txt, made
// by gen.sh over the archives in testdata/archives.
const goldenDir = "../../testdata/golden/pminfo"

// golden is one recorded run of real pminfo.
type golden struct {
	name           string
	command        string
	args           []string
	exit           int
	stdout, stderr string
}

// readGolden parses a NAME.golden file (see gen.sh for its layout).
func readGolden(path string) (golden, error) {
	g := golden{name: strings.TrimSuffix(filepath.Base(path), ".golden")}
	data, err := os.ReadFile(path)
	if err != nil {
		return g, err
	}
	r := goldenfile.New(path, string(data))
	g.command = strings.TrimPrefix(r.Line(), "command: ")
	if g.exit, err = strconv.Atoi(strings.TrimPrefix(r.Line(), "exit: ")); err != nil {
		return g, fmt.Errorf("%s: bad exit line", path)
	}
	if g.stdout, err = r.Block("stdout"); err != nil {
		return g, err
	}
	if g.stderr, err = r.Block("stderr"); err != nil {
		return g, err
	}
	g.args = shellWords(strings.TrimPrefix(g.command, "PCP_DERIVED_CONFIG= TZ=UTC pminfo "))
	return g, nil
}

// shellWords splits s at spaces, keeping single-quoted words whole.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quoted := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			quoted, in = !quoted, true
		case c == ' ' && !quoted:
			if in {
				words = append(words, cur.String())
				cur.Reset()
			}
			in = false
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// dropEventMetrics removes what real pminfo prints for libpcp's anonymous
// derived metrics event.flags and event.missed, which come from the
// derived-metric layer (package derive), not from pminfo: their lines,
// their blank-line-separated blocks, and their one-line errors.
func dropEventMetrics(out string) string {
	if out == "" {
		return out
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	blocks := false
	for _, l := range lines {
		if l == "" {
			blocks = true
		}
	}
	isEvent := func(l string) bool {
		for _, m := range []string{"event.flags", "event.missed"} {
			if rest, ok := strings.CutPrefix(l, m); ok && (rest == "" || rest[0] == ' ' || rest[0] == ':') {
				return true
			}
		}
		return false
	}
	var kept []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !isEvent(l) {
			kept = append(kept, l)
			continue
		}
		if strings.HasPrefix(l, "event.flags: ") || strings.HasPrefix(l, "event.missed: ") {
			continue // a one-line error
		}
		// an entry: up to the next blank line, or in output without
		// blank lines, its indented lines
		if n := len(kept); blocks && n > 0 && kept[n-1] == "" {
			kept = kept[:n-1]
		}
		for i+1 < len(lines) && lines[i+1] != "" && (blocks || strings.HasPrefix(lines[i+1], " ")) {
			i++
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return strings.Join(kept, "\n") + "\n"
}

// expected is what we should print where real pminfo printed out: the
// same, except that without the derived-metric layer wired in there are
// no event.flags and event.missed.
func expected(out string) string {
	if sources.Derived == nil {
		return dropEventMetrics(out)
	}
	return out
}

func TestGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(goldenDir, "*.golden"))
	if err != nil || len(paths) < 100 {
		t.Fatalf("found %d goldens in %s (%v)", len(paths), goldenDir, err)
	}
	var cases []golden
	for _, p := range paths {
		g, err := readGolden(p)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, g)
	}
	t.Chdir("../../testdata/archives")
	t.Setenv("TZ", "UTC")
	for _, g := range cases {
		t.Run(g.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(Env{
				Args:    append([]string{"pminfo"}, g.args...),
				Environ: []string{"PCP_DERIVED_CONFIG=", "TZ=UTC"},
				Stdout:  &stdout,
				Stderr:  &stderr,
				Sources: sources,
				LocalTZ: time.UTC,
			})
			if want := expected(g.stdout); stdout.String() != want {
				t.Errorf("%s\nstdout:\n%s\nwant:\n%s", g.command, stdout.String(), want)
			}
			if want := expected(g.stderr); stderr.String() != want {
				t.Errorf("%s\nstderr:\n%s\nwant:\n%s", g.command, stderr.String(), want)
			}
			if status != g.exit {
				t.Errorf("%s: exit %d, want %d", g.command, status, g.exit)
			}
		})
	}
}

func TestDropEventMetrics(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a.b\nevent.flags\nevent.missed\n", "a.b\n"},
		{"\na.b\n    value 1\n\nevent.flags\nNo value(s) available!\n\nevent.missed\nNo value(s) available!\n",
			"\na.b\n    value 1\n"},
		{"a: pmFetch: End\nevent.flags: pmFetch: End\n", "a: pmFetch: End\n"},
		{"a\n    Series: 1\nevent.flags\n    Series: 2\nb\n", "a\n    Series: 1\nb\n"},
		{"\na PMID: 1.2.3\n\nevent.flags PMID: 511.0.1 [Flags]\nHelp:\ntext\n", "\na PMID: 1.2.3\n"},
	} {
		if got := dropEventMetrics(c.in); got != c.want {
			t.Errorf("dropEventMetrics(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
