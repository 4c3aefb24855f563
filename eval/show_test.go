package eval

import (
	"bufio"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestNumberFormatWhole checks numbers of 50 and more, printed with no
// decimals, against strconv's exact rounding ('f', precision 0), for
// random values, ties and values next to them.
func TestNumberFormatWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var vals []float64
	for range 100000 {
		v := math.Ldexp(r.Float64(), r.IntN(70))
		vals = append(vals, v, -v)
	}
	for _, w := range []float64{50, 51, 52, 1 << 20, 1 << 52, 1e17, 1e18} {
		for _, v := range []float64{w - 0.5, w + 0.5, w - 1.5, w + 1.5} {
			vals = append(vals, v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1)), -v)
		}
	}
	for _, v := range vals {
		if a := math.Abs(v); a < 50 || math.IsInf(v, 0) {
			continue
		}
		want := strconv.FormatFloat(v, 'f', 0, 64)
		if len(want) > numWidth-1 {
			want = want[:numWidth-1]
		}
		if got := string(appendNumber(nil, v)); got != want {
			t.Fatalf("%v: got %q, want %q", v, got, want)
		}
	}
}

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
