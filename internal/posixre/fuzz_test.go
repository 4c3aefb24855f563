package posixre

import (
	"regexp"
	"strings"
	"testing"
)

// seedPatterns are patterns of the golden file, for the fuzzers' corpora.
func seedPatterns(f *testing.F) []string {
	var out []string
	for i, c := range readGolden(f) {
		if i%7 == 0 {
			out = append(out, c.pattern)
		}
	}
	return out
}

// FuzzCompile checks that no pattern makes Compile or MatchString panic
// or hang, and that an error is always one of regerror's.
func FuzzCompile(f *testing.F) {
	for _, p := range seedPatterns(f) {
		f.Add(p, "ab cd")
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		if len(pattern) > 200 || len(s) > 200 {
			return
		}
		re, err := Compile(pattern)
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Code < ErrNoMatch || e.Code > ErrRParen {
				t.Fatalf("Compile(%q): error %v is not a regcomp code", pattern, err)
			}
			return
		}
		if re.MatchString(s) != re.MatchString(s) {
			t.Fatalf("%q on %q: two answers", pattern, s)
		}
	})
}

// sameMeaning is the alphabet of patterns whose meaning Go's RE2 syntax
// and glibc's POSIX syntax agree on, wherever both accept them: letters,
// ".", "|", "*", "+", "?", groups, "^", "$" and simple brackets; but
// not "?" after a repetition, which Go reads as making it lazy.
const sameMeaning = "abc.|*+?()[]^$-"

// FuzzAgainstGo compares MatchString with Go's regexp where the pattern
// is made only of what both syntaxes mean the same by, and both accept
// it, on ASCII strings (Go matches runes, glibc in the C locale bytes).
func FuzzAgainstGo(f *testing.F) {
	f.Add("(a|b)*c", "abac")
	f.Add("^a[^b]+$", "acc")
	f.Add("(|a)+b?", "")
	f.Add("[]a]|[a-]", "-")
	f.Fuzz(func(t *testing.T, pattern, s string) {
		if len(pattern) > 40 || len(s) > 40 {
			return
		}
		for i := 0; i < len(pattern); i++ {
			if !strings.ContainsRune(sameMeaning, rune(pattern[i])) {
				return
			}
		}
		// "a+?" is (a+)? in POSIX, a lazy a+ in Go (which needs an a)
		if strings.Contains(pattern, "*?") || strings.Contains(pattern, "+?") || strings.Contains(pattern, "??") {
			return
		}
		for i := 0; i < len(s); i++ {
			if s[i] == 0 || s[i] >= 0x80 {
				return
			}
		}
		ours, err := Compile(pattern)
		if err != nil {
			return
		}
		// (?s): "." matches a newline in glibc
		theirs, err := regexp.Compile("(?s)" + pattern)
		if err != nil {
			return
		}
		if got, want := ours.MatchString(s), theirs.MatchString(s); got != want {
			t.Fatalf("%q on %q: %v, Go's regexp %v", pattern, s, got, want)
		}
	})
}
