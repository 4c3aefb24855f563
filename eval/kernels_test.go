package eval

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gopcp/pmie/pmapi"
)

// forwardDecide is pmie's loop for all and some as it is written: the
// first member, then each later one in storage order.
func forwardDecide(decisive Truth, buf []Truth, start, stride, m int) Truth {
	a := buf[start]
	for k, j := start+stride, 1; j < m; k, j = k+stride, j+1 {
		if v := buf[k]; v == decisive {
			a = decisive
		} else if v == Unknown && a != Unknown {
			a = Unknown
		}
	}
	return a
}

// truthRuns calls f with every run of up to 6 truths, laid out at strides
// 1 and 3 from offset 1 of a buffer.
func truthRuns(f func(buf []Truth, start, stride, m int)) {
	for m := 1; m <= 6; m++ {
		total := 1
		for range m {
			total *= 3
		}
		for code := range total {
			for _, stride := range []int{1, 3} {
				buf := make([]Truth, 1+(m-1)*stride+1)
				for i := range buf {
					buf[i] = Truth(i % 3)
				}
				c := code
				for j := range m {
					buf[1+j*stride] = Truth(c % 3)
					c /= 3
				}
				f(buf, 1, stride, m)
			}
		}
	}
}

// TestDecide checks decide, which walks backward, against pmie's forward
// loop on every run of up to 6 truths.
func TestDecide(t *testing.T) {
	truthRuns(func(buf []Truth, start, stride, m int) {
		for _, d := range []Truth{True, False} {
			if got, want := decide(d, buf, start, stride, m), forwardDecide(d, buf, start, stride, m); got != want {
				t.Fatalf("decide(%v, %v, %d, %d, %d) = %v, pmie's loop %v", d, buf, start, stride, m, got, want)
			}
		}
	})
}

// TestCompareSetScalar checks the comparison of a set with a value
// against compare, value by value, for every operator, with values and
// constants that are NaN, missing, infinite or equal.
func TestCompareSetScalar(t *testing.T) {
	special := []float64{0, 1, -1, 2.5, math.NaN(), missing, -missing, math.Inf(1), math.Inf(-1)}
	for _, op := range []Op{OpEq, OpNeq, OpLt, OpLte, OpGt, OpGte} {
		for _, c := range special {
			out := make([]Truth, len(special))
			compareSetScalar(op, special, c, out)
			for i, v := range special {
				if want := compare(op, v, c); out[i] != want {
					t.Errorf("%v %v %v: got %v, want %v", v, op, c, out[i], want)
				}
			}
		}
	}
}

// TestCompareSets checks the comparison of two sets, pair by pair,
// against compare, for every operator and every pair of values that are
// NaN, missing, infinite or equal.
func TestCompareSets(t *testing.T) {
	special := []float64{0, 1, -1, 2.5, math.NaN(), missing, -missing, math.Inf(1), math.Inf(-1)}
	var a, b []float64
	for _, x := range special {
		for _, y := range special {
			a, b = append(a, x), append(b, y)
		}
	}
	for _, op := range []Op{OpEq, OpNeq, OpLt, OpLte, OpGt, OpGte} {
		out := make([]Truth, len(a))
		compareSets(op, a, b, out)
		for i := range a {
			if want := compare(op, a[i], b[i]); out[i] != want {
				t.Errorf("%v %v %v: got %v, want %v", a[i], op, b[i], out[i], want)
			}
		}
	}
}

// TestRows checks every reducer's sample-window form (numRows,
// truthRows) against its reduction run by run, over windows of 1 to 5
// samples of random values, NaNs and truths.
func TestRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	nums := []float64{0, 1, -1, 2.5, 7, math.NaN(), math.Inf(1), math.Inf(-1)}
	rows := 0
	for op := range numOps {
		red := ops[op].reduce
		for n := 1; n <= 5; n++ {
			for _, span := range []int{1, 2, 3, 7, 63, 64, 65, 130} {
				for range 50 {
					if red.numRows != nil {
						buf := make([]float64, n*span)
						for i := range buf {
							buf[i] = nums[r.IntN(len(nums))]
						}
						out := make([]float64, span)
						red.numRows(buf, span, n, out)
						for i := range out {
							if want := red.num(buf, i, span, n, n); math.Float64bits(out[i]) != math.Float64bits(want) {
								t.Fatalf("%v rows %v (n %d, span %d) run %d: got %v, want %v", op, buf, n, span, i, out[i], want)
							}
						}
						rows++
					}
					if red.truthRows != nil {
						buf := make([]Truth, n*span)
						for i := range buf {
							buf[i] = Truth(r.IntN(3))
						}
						out := make([]Truth, span)
						pcnt := float64(r.IntN(101)) / 100
						red.truthRows(buf, span, n, pcnt, out)
						for i := range out {
							if want := red.truth(buf, i, span, n, n, pcnt); out[i] != want {
								t.Fatalf("%v rows %v (n %d, span %d) run %d: got %v, want %v", op, buf, n, span, i, out[i], want)
							}
						}
						rows++
					}
				}
			}
		}
	}
	if rows == 0 {
		t.Fatal("no reducer has a sample-window form")
	}
}

// benchValues are 1000 values, every other one above 500.
func benchValues() []float64 {
	a := make([]float64, 1000)
	for i := range a {
		a[i] = float64((i * 7919) % 1000)
	}
	return a
}

// BenchmarkCompareSetScalar is a set of 1000 values compared with a
// constant.
func BenchmarkCompareSetScalar(b *testing.B) {
	a, out := benchValues(), make([]Truth, 1000)
	for b.Loop() {
		compareSetScalar(OpGt, a, 500, out)
	}
}

// BenchmarkCompareSets is two sets of 1000 values compared pair by pair.
func BenchmarkCompareSets(b *testing.B) {
	a, c, out := benchValues(), benchValues(), make([]Truth, 1000)
	for i := range c {
		c[i] = float64(i)
	}
	for b.Loop() {
		compareSets(OpGt, a, c, out)
	}
}

// BenchmarkDecide is some over 1000 truths, at random, none of them true
// (all are walked) and the last true.
func BenchmarkDecide(b *testing.B) {
	a, buf := benchValues(), make([]Truth, 1000)
	compareSetScalar(OpGt, a, 500, buf)
	b.Run("random", func(b *testing.B) {
		for b.Loop() {
			someOf(buf, 0, 1, len(buf), len(buf), 0)
		}
	})
	none := make([]Truth, 1000)
	b.Run("none", func(b *testing.B) {
		for b.Loop() {
			someOf(none, 0, 1, len(none), len(none), 0)
		}
	})
	b.Run("window", func(b *testing.B) {
		for b.Loop() {
			for i := range 250 {
				allOf(buf, i, 250, 4, 4, 0)
			}
		}
	})
}

// TestExtractRates checks extractRates, whose loop computes the rates in
// registers, against rateAt value by value: counters rising, falling
// (no rate), equal, and over no time at all.
func TestExtractRates(t *testing.T) {
	prev := []float64{0, 10, 10, 5, 1e18, 7, 3}
	cur := []float64{4, 10, 2, 5.5, 1e18 + 4096, 3, 9}
	for _, dt := range []float64{10, 0.25, 0} {
		for n := 0; n <= len(cur); n++ {
			vs := &pmapi.ValueSet{Values: make([]pmapi.Value, len(cur))}
			for j, v := range cur {
				vs.Values[j] = pmapi.Value{Inst: int32(j), Atom: pmapi.F64(v)}
			}
			m := &Metric{conv: 1000, stomp: 100, vals: append([]float64(nil), prev[:n]...)}
			m.Deliver(vs, nil, 100+dt)
			x := &Node{nsmpls: 1, tspan: len(cur), num: make([]float64, len(cur)), valid: 1}
			x.extractRates(m, len(cur), 0)

			want := make([]float64, len(cur))
			wantPrev := append([]float64(nil), prev[:n]...)
			ref := &Metric{vals: wantPrev}
			ok := true
			for j, v := range cur {
				want[j] = 1000 * v
				if j < n && !ref.rateAt(want, j, dt) {
					ok = false
				}
			}
			for j := range want {
				if math.Float64bits(x.num[j]) != math.Float64bits(want[j]) {
					t.Errorf("dt %v, %d previous: value %d is %v, want %v", dt, n, j, x.num[j], want[j])
				}
			}
			if !slices.Equal(m.vals, wantPrev) {
				t.Errorf("dt %v, %d previous: previous values %v, want %v", dt, n, m.vals, wantPrev)
			}
			if (x.valid != 0) != ok {
				t.Errorf("dt %v, %d previous: valid %d, rates ok %v", dt, n, x.valid, ok)
			}
		}
	}
}

// BenchmarkWindowRows is the benchmark rules' windows, 200 instances of
// four samples, reduced run by run (as reduceInto does) and all at once
// (the reducers' rows).
func BenchmarkWindowRows(b *testing.B) {
	const span, n = 200, 4
	buf, out := make([]Truth, span*n), make([]Truth, span)
	for i := range buf {
		buf[i] = Truth(i * 7919 % 3)
	}
	for _, op := range []Op{OpPcnt, OpAll} {
		r := ops[op].reduce
		b.Run(op.String()+"/runs", func(b *testing.B) {
			for b.Loop() {
				for i := range out {
					out[i] = r.truth(buf, i, span, n, n, 0.75)
				}
			}
		})
		b.Run(op.String()+"/rows", func(b *testing.B) {
			for b.Loop() {
				r.truthRows(buf, span, n, 0.75, out)
			}
		})
	}
}

// TestDeliverColumns checks the columns a metric evaluates: those given
// with the values (an archive's fetcher makes them), or, when none are
// given or they do not fit the values, its own, made from the values:
// the same instances and numbers as pmapi.Atom.Float64 gives.
func TestDeliverColumns(t *testing.T) {
	vs := &pmapi.ValueSet{Values: []pmapi.Value{
		{Inst: 3, Atom: pmapi.U64(1 << 60)}, {Inst: 7, Atom: pmapi.I32(-5)}, {Inst: 9, Atom: pmapi.F64(0.25)},
	}}
	var given Columns
	given.Fill(vs)
	if !slices.Equal(given.Insts, []int32{3, 7, 9}) || !slices.Equal(given.Nums, []float64{1 << 60, -5, 0.25}) {
		t.Fatalf("columns %v %v", given.Insts, given.Nums)
	}
	m := &Metric{}
	m.Deliver(vs, &given, 1)
	if m.col != &given {
		t.Error("the columns given were not used")
	}
	m.Deliver(vs, nil, 2)
	if m.col != &m.own || !slices.Equal(m.col.Nums, given.Nums) || !slices.Equal(m.col.Insts, given.Insts) {
		t.Errorf("own columns %v %v, want %v %v", m.col.Insts, m.col.Nums, given.Insts, given.Nums)
	}
	short := Columns{Insts: []int32{3}, Nums: []float64{1}}
	m.Deliver(vs, &short, 3)
	if m.col != &m.own {
		t.Error("columns that do not fit the values were used")
	}
	m.Drop()
	if m.vset != nil || m.col != nil {
		t.Error("Drop left values")
	}
}

// TestFillAgain checks columns filled again in place (Fill stores only what
// changed): each refill holds exactly the new value set's instances and
// numbers, bit for bit (a zero's sign, a NaN), whether the set shrank, grew
// or kept its size.
func TestFillAgain(t *testing.T) {
	nan := math.Float64frombits(0x7ff8000000000123)
	sets := [][]pmapi.Value{
		{{Inst: 1, Atom: pmapi.F64(0)}, {Inst: 2, Atom: pmapi.F64(2)}, {Inst: 3, Atom: pmapi.U64(3)}},
		{{Inst: 1, Atom: pmapi.F64(math.Copysign(0, -1))}, {Inst: 2, Atom: pmapi.F64(2)}, {Inst: 4, Atom: pmapi.U64(3)}},
		{{Inst: 1, Atom: pmapi.F64(nan)}, {Inst: 5, Atom: pmapi.I32(-1)}},
		{{Inst: 1, Atom: pmapi.F64(nan)}, {Inst: 5, Atom: pmapi.I32(-1)}, {Inst: 6, Atom: pmapi.F64(0)}, {Inst: 7, Atom: pmapi.U64(7)}},
		{{Inst: 1, Atom: pmapi.F64(1)}, {Inst: 5, Atom: pmapi.I32(-1)}, {Inst: 6, Atom: pmapi.F64(0)}, {Inst: 7, Atom: pmapi.U64(7)}},
	}
	var c Columns
	for i, vals := range sets {
		vs := &pmapi.ValueSet{Values: vals}
		c.Fill(vs)
		if len(c.Insts) != len(vals) || len(c.Nums) != len(vals) {
			t.Fatalf("set %d: %d instances, %d numbers, want %d", i, len(c.Insts), len(c.Nums), len(vals))
		}
		for j, v := range vals {
			if c.Insts[j] != v.Inst || math.Float64bits(c.Nums[j]) != math.Float64bits(v.Atom.Float64()) {
				t.Errorf("set %d, value %d: instance %d number %x, want %d %x", i, j,
					c.Insts[j], math.Float64bits(c.Nums[j]), v.Inst, math.Float64bits(v.Atom.Float64()))
			}
		}
	}
}

// TestShortRuns checks the reductions of a run the buffer holds only part
// of (pmie reads zeroes past the end of its buffer): the members not
// there are false for all_, which they then decide, and 0 for max_ and
// min_, as for sum_.
func TestShortRuns(t *testing.T) {
	truths := []Truth{Unknown, True}
	if got := allOf(truths, 0, 1, 2, 3, 0); got != False {
		t.Errorf("all_ of unknown, true and one not there: %v, want false", got)
	}
	if got := allOf(truths, 0, 1, 2, 2, 0); got != Unknown {
		t.Errorf("all_ of unknown, true: %v, want unknown", got)
	}
	if got := someOf(truths[:1], 0, 1, 1, 2, 0); got != Unknown {
		t.Errorf("some_ of unknown and one not there: %v, want unknown", got)
	}
	nums := []float64{-3, -5}
	if got := maxOf(nums, 0, 1, 2, 3); got != 0 {
		t.Errorf("max_ of -3, -5 and one not there: %v, want 0", got)
	}
	if got := minOf([]float64{3, 5}, 0, 1, 2, 3); got != 0 {
		t.Errorf("min_ of 3, 5 and one not there: %v, want 0", got)
	}
	if got := maxOf(nums, 0, 1, 2, 2); got != -3 {
		t.Errorf("max_ of -3, -5: %v", got)
	}
}
