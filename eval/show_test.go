package eval

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestNumberFormat compares appendNumber with C's printf, as recorded by
// testdata/numfmt/gen.c.
func TestNumberFormat(t *testing.T) {
	f, err := os.Open("testdata/numfmt/numfmt.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		hex, want, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			t.Fatalf("bad line %q", sc.Text())
		}
		v, err := strconv.ParseFloat(hex, 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(appendNumber(nil, v)); got != want {
			t.Errorf("%v (%s): got %q, want %q", v, hex, got, want)
		}
		n++
	}
	if n < 1000 {
		t.Fatalf("only %d values checked", n)
	}
}
