// Package goldenfile reads golden files laid out as several of ours are
// (cmd/pminfo's, the damaged-archive corpus's): lines "label: value", and
// "label: N bytes" lines each followed by N bytes of output and a
// newline, so that outputs are kept exactly, however they end.
package goldenfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Reader reads a golden file's text from the start.
type Reader struct {
	name string // for messages
	rest string
}

// New reads text, the contents of the file called name.
func New(name, text string) *Reader { return &Reader{name: name, rest: text} }

// More reports whether anything is left to read.
func (r *Reader) More() bool { return r.rest != "" }

// Line reads the next line, without its newline.
func (r *Reader) Line() string {
	l, rest, _ := strings.Cut(r.rest, "\n")
	r.rest = rest
	return l
}

// Value reads a line "label: value" and returns the value.
func (r *Reader) Value(label string) (string, error) {
	v, ok := strings.CutPrefix(r.Line(), label+": ")
	if !ok {
		return "", fmt.Errorf("%s: no %s line", r.name, label)
	}
	return v, nil
}

// Block reads a line "label: N bytes" and the N bytes and newline after
// it, returning the bytes.
func (r *Reader) Block(label string) (string, error) {
	var n int
	if _, err := fmt.Sscanf(r.Line(), label+": %d bytes", &n); err != nil || n < 0 || n+1 > len(r.rest) {
		return "", fmt.Errorf("%s: bad %s block", r.name, label)
	}
	b := r.rest[:n]
	r.rest = r.rest[n+1:]
	return b, nil
}

// Cases splits the text of a file of cases into its lines, each of n
// fields separated by '|' (the last may hold more), passing over empty
// lines and comments (lines starting '#').
func Cases(text string, n int) ([][]string, error) {
	var cases [][]string
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "|", n)
		if len(f) != n {
			return nil, fmt.Errorf("bad case line %q", line)
		}
		cases = append(cases, f)
	}
	return cases, nil
}

// ReadCases is Cases of the file cases.txt in the golden directory dir.
func ReadCases(dir string, n int) ([][]string, error) {
	name := filepath.Join(dir, "cases.txt")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	cases, err := Cases(string(data), n)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return cases, nil
}
