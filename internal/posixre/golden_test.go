package posixre

import (
	"bufio"
	"compress/gzip"
	"os"
	"strings"
	"testing"
)

// goldenCase is a pattern of testdata/cases.golden.gz with glibc's verdict
// on it and on its subjects.
type goldenCase struct {
	pattern string
	err     string // regerror text, "" when it compiles
	subj    []string
	match   []bool
}

func readGolden(t testing.TB) []goldenCase { return readGoldenFile(t, "testdata/cases.golden.gz") }

func readGoldenFile(t testing.TB, path string) []goldenCase {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		// kind, text (which may hold tabs) and verdict
		line := sc.Text()
		i, j := strings.IndexByte(line, '\t'), strings.LastIndexByte(line, '\t')
		if i != 1 || j <= i {
			t.Fatalf("bad golden line %q", line)
		}
		f := []string{line[:i], line[i+1 : j], line[j+1:]}
		switch f[0] {
		case "p":
			c := goldenCase{pattern: f[1]}
			if f[2] != "ok" {
				c.err = strings.TrimPrefix(f[2], "error: ")
			}
			cases = append(cases, c)
		case "s":
			c := &cases[len(cases)-1]
			c.subj = append(c.subj, f[1])
			c.match = append(c.match, f[2] == "1")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestGlibc compares Compile and MatchString with glibc's regcomp and
// regexec on every case of the golden file (testdata/gen.sh made it with
// testdata/oracle.c).
func TestGlibc(t *testing.T) {
	cases := readGolden(t)
	if len(cases) < 1000 {
		t.Fatalf("only %d cases", len(cases))
	}
	bad := 0
	for _, c := range cases {
		re, err := Compile(c.pattern)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.err {
			t.Errorf("Compile(%q): error %q, glibc %q", c.pattern, got, c.err)
			bad++
		}
		if err == nil {
			for i, s := range c.subj {
				if m := re.MatchString(s); m != c.match[i] {
					t.Errorf("%q on %q: %v, glibc %v", c.pattern, s, m, c.match[i])
					bad++
				}
			}
		}
		if bad > 40 {
			t.Fatal("too many differences")
		}
	}
}
