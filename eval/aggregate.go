package eval

// reducer is how an aggregate or quantifier reduces a run of members (the
// row of the operator table says which): num maps numbers to a number
// (sum, avg, max, min), truth truths to a truth (all, some, N%), count
// truths to a number. Each reads m members of buf from start, stride
// apart, where the set has n (fewer are there when the buffer is short,
// as pmie reads them); pcnt is N% as a fraction.
type reducer struct {
	num   func(buf []float64, start, stride, m, n int) float64
	truth func(buf []Truth, start, stride, m, n int, pcnt float64) Truth
	count func(buf []Truth, start, stride, m int) float64

	// numRows and truthRows, where set, are num and truth for every run
	// of a sample window at once: out[i] is the reduction of the n
	// values buf[i], buf[i+span], ... (all there), walked sample by
	// sample with each run's members met in the same order.
	numRows   func(buf []float64, span, n int, out []float64)
	truthRows func(buf []Truth, span, n int, pcnt float64, out []Truth)
}

// present is how many of n members, from start, stride apart, a buffer
// of length size holds; ok is false when it holds none.
func present(size, start, stride, n int) (m int, ok bool) {
	if start >= size {
		return 0, false
	}
	m = n
	if last := start + (n-1)*stride; last >= size {
		m = (size-1-start)/stride + 1
	}
	return m, true
}

func sumOf(buf []float64, start, stride, m, _ int) float64 {
	a := buf[start]
	for k, j := start+stride, 1; j < m; k, j = k+stride, j+1 {
		a += buf[k]
	}
	return a
}

// avgOf divides by the size of the set, however many members are there.
func avgOf(buf []float64, start, stride, m, n int) float64 {
	return sumOf(buf, start, stride, m, n) / float64(n)
}

// maxOf and minOf take the members the buffer does not hold (m < n) for
// zeroes, as sumOf does: they are past the end of pmie's buffer (the last
// host's run of a set over hosts, acrossInstances), where pmie reads the
// zeroes of its allocation's slack.
func maxOf(buf []float64, start, stride, m, n int) float64 {
	a := buf[start]
	for k, j := start+stride, 1; j < m; k, j = k+stride, j+1 {
		if v := buf[k]; v > a {
			a = v
		}
	}
	if m < n {
		a = max(a, 0)
	}
	return a
}

func minOf(buf []float64, start, stride, m, n int) float64 {
	a := buf[start]
	for k, j := start+stride, 1; j < m; k, j = k+stride, j+1 {
		if v := buf[k]; v < a {
			a = v
		}
	}
	if m < n {
		a = min(a, 0)
	}
	return a
}

// sumRows, avgRows, maxRows and minRows are sumOf, avgOf, maxOf and minOf
// for every run of a sample window (see reducer).
func sumRows(buf []float64, span, n int, out []float64) {
	copy(out, buf[:len(out)])
	for k := 1; k < n; k++ {
		for i, v := range buf[k*span:][:len(out)] {
			out[i] += v
		}
	}
}

func avgRows(buf []float64, span, n int, out []float64) {
	sumRows(buf, span, n, out)
	for i := range out {
		out[i] /= float64(n)
	}
}

func maxRows(buf []float64, span, n int, out []float64) {
	copy(out, buf[:len(out)])
	for k := 1; k < n; k++ {
		for i, v := range buf[k*span:][:len(out)] {
			if v > out[i] {
				out[i] = v
			}
		}
	}
}

func minRows(buf []float64, span, n int, out []float64) {
	copy(out, buf[:len(out)])
	for k := 1; k < n; k++ {
		for i, v := range buf[k*span:][:len(out)] {
			if v < out[i] {
				out[i] = v
			}
		}
	}
}

// decideRows is decide for every run of a sample window (see reducer),
// walking forward as pmie does.
func decideRows(decisive Truth, buf []Truth, span, n int, out []Truth) {
	copy(out, buf[:len(out)])
	for k := 1; k < n; k++ {
		for i, v := range buf[k*span:][:len(out)] {
			// take v when it is decisive or unknown, by a mask of all
			// ones or none rather than a branch (members at random
			// would mispredict it)
			take := -(boolTruth(v == decisive) | boolTruth(v == Unknown))
			out[i] = out[i]&^take | v&take
		}
	}
}

func allRows(buf []Truth, span, n int, _ float64, out []Truth) {
	decideRows(False, buf, span, n, out)
}

func someRows(buf []Truth, span, n int, _ float64, out []Truth) {
	decideRows(True, buf, span, n, out)
}

// pcntRows is pcntOf for every run of a sample window (see reducer),
// adding up the runs of a block of them at a time.
func pcntRows(buf []Truth, span, n int, pcnt float64, out []Truth) {
	want := int(0.5 + pcnt*float64(n))
	var sums [64]int
	for lo := 0; lo < len(out); lo += len(sums) {
		blk := out[lo:min(lo+len(sums), len(out))]
		acc := sums[:len(blk)]
		clear(acc)
		for k := range n {
			for i, v := range buf[k*span+lo:][:len(acc)] {
				acc[i] += int(v)
			}
		}
		for i, sum := range acc {
			blk[i] = boolTruth(sum >= want)
		}
	}
}

// decide is pmie's loop for all and some, which starts from the first
// member and walks the rest in storage order: a decisive member makes the
// answer decisive, an unknown one unknown, any other leaves it as it is;
// so order matters. The answer is therefore the last member after the
// first that is decisive or unknown, or the first member when there is
// none: decide finds that member walking backward and stops there (a
// walk forward mispredicts a branch at every change of answer).
func decide(decisive Truth, buf []Truth, start, stride, m int) Truth {
	if stride == 1 {
		run := buf[start : start+m]
		for k := len(run) - 1; k > 0; k-- {
			if v := run[k]; v == decisive || v == Unknown {
				return v
			}
		}
		return run[0]
	}
	for k := start + (m-1)*stride; k > start; k -= stride {
		if v := buf[k]; v == decisive || v == Unknown {
			return v
		}
	}
	return buf[start]
}

// allOf takes the members the buffer does not hold (m < n) for false, as
// the zeroes pmie reads past the end of its buffer are (see maxOf): being
// last, they decide. someOf, pcntOf and countOf are the same either way.
func allOf(buf []Truth, start, stride, m, n int, _ float64) Truth {
	if m < n {
		return False
	}
	return decide(False, buf, start, stride, m)
}

func someOf(buf []Truth, start, stride, m, _ int, _ float64) Truth {
	return decide(True, buf, start, stride, m)
}

// pcntOf adds the truths as small integers (unknown counts 2, as in pmie)
// and compares with N% of the size of the set.
func pcntOf(buf []Truth, start, stride, m, n int, pcnt float64) Truth {
	sum := int(buf[start])
	for k, j := start+stride, 1; j < m; k, j = k+stride, j+1 {
		sum += int(buf[k])
	}
	return boolTruth(sum >= int(0.5+pcnt*float64(n)))
}

func countOf(buf []Truth, start, stride, m int) float64 {
	cnt := 0
	for k, j := start, 0; j < m; k, j = k+stride, j+1 {
		if buf[k] == True {
			cnt++
		}
	}
	return float64(cnt)
}

// reduceInto stores the reduction of n values of a's buffer (raw when raw
// is set, otherwise its newest sample) at position out of x's newest
// sample. Where the buffer holds none of them (a comparison of strings
// over no instances is known, with no values), pmie reads zeroed slots
// of its buffer: an aggregate is 0, a count 0, and a quantifier is
// over n false values (so 0 %_host is true).
func (x *Node) reduceInto(r reducer, a *Node, raw bool, start, stride, n, out int) {
	if r.num != nil {
		buf := a.num
		if !raw {
			buf = a.newestNums()
		}
		v := 0.0
		if m, ok := present(len(buf), start, stride, n); ok {
			v = r.num(buf, start, stride, m, n)
		}
		if dst := x.newestNums(); out < len(dst) {
			dst[out] = v
		}
		return
	}
	buf := a.tru
	if !raw {
		buf = a.newestTruths()
	}
	m, ok := present(len(buf), start, stride, n)
	if r.count != nil {
		v := 0.0
		if ok {
			v = r.count(buf, start, stride, m)
		}
		if dst := x.newestNums(); out < len(dst) {
			dst[out] = v
		}
		return
	}
	if !ok {
		n = max(n, 1)
		buf, start, stride, m = make([]Truth, n), 0, 1, n
	}
	t := r.truth(buf, start, stride, m, n, x.pcntOf())
	if dst := x.newestTruths(); out < len(dst) {
		dst[out] = t
	}
}

// pcntOf is the fraction of a percentage quantifier, held by its second
// operand.
func (x *Node) pcntOf() float64 {
	if x.Arg2 == nil {
		return 0
	}
	return x.Arg2.num0()
}

// noMembers handles an aggregate or quantifier with nothing to look at:
// a quantifier's answer is unknown, an aggregate has no value.
func (x *Node) noMembers(a *Node, out int) {
	if !x.Op.quantifier() {
		x.valid = 0
		return
	}
	if dst := x.newestTruths(); out < len(dst) {
		dst[out] = Unknown
	}
	x.stamp[0] = a.stamp0()
	x.valid++
}

// acrossHosts returns the evaluator of an aggregate or quantifier over
// hosts.
func acrossHosts(r reducer) func(*Node) {
	return func(x *Node) {
		a := x.Arg1
		evalArg(a)
		x.rotate()
		if a.valid == 0 || a.hdom <= 0 {
			x.valid = 0
			return
		}
		x.reduceInto(r, a, false, 0, 1, a.hdom, 0)
		x.stamp[0] = a.stamp0()
		x.valid++
	}
}

// acrossInstances returns the evaluator of an aggregate or quantifier over
// instances, one result per host.
//
// With several hosts pmie starts each host's run on the last value of the
// previous host's run; that is kept, so results match it exactly.
func acrossInstances(r reducer) func(*Node) {
	return func(x *Node) {
		a := x.Arg1
		evalArg(a)
		x.rotate()
		if a.valid == 0 || x.hdom == 0 {
			x.valid = 0
			return
		}
		if x.hdom == 1 || x.hdom == -1 {
			n := a.idom
			if n < 1 {
				x.noMembers(a, 0)
				return
			}
			x.reduceInto(r, a, false, 0, 1, n, 0)
		} else {
			pos := 0
			for i := 0; i < x.hdom && i < len(x.metrics.m); i++ {
				n := x.metrics.m[i].nidom
				if n < 1 {
					x.noMembers(a, i)
					return
				}
				x.reduceInto(r, a, false, pos, 1, n, i)
				pos += n - 1
			}
		}
		x.stamp[0] = a.stamp0()
		x.valid++
	}
}

// acrossSamples returns the evaluator of an aggregate or quantifier over
// the samples its operand holds. Like pmie it walks the operand's buffer in
// storage order, not time order.
func acrossSamples(r reducer) func(*Node) {
	return func(x *Node) {
		a := x.Arg1
		n := a.tdom
		evalArg(a)
		x.rotate()
		if a.valid < n || x.tspan <= 0 || a.tdom <= 0 {
			x.valid = 0
			return
		}
		if !x.reduceWindows(r, a, n) {
			for i := 0; i < x.tspan; i++ {
				x.reduceInto(r, a, true, i, x.tspan, n, i)
			}
		}
		x.stamp[0] = a.stamp0()
		x.valid++
	}
}

// reduceWindows is reduceInto for every run of n samples of a's buffer
// (run i is values i, i+tspan, ... of it) into value i of x's newest
// sample, when the buffer holds all of every run; it reports whether it
// did. The checks reduceInto makes for each run are made once.
func (x *Node) reduceWindows(r reducer, a *Node, n int) bool {
	span := x.tspan
	if r.num != nil {
		buf, dst := a.num, x.newestNums()
		if len(buf) < n*span {
			return false
		}
		dst = dst[:min(span, len(dst))]
		if r.numRows != nil {
			r.numRows(buf, span, n, dst)
			return true
		}
		for i := range dst {
			dst[i] = r.num(buf, i, span, n, n)
		}
		return true
	}
	buf := a.tru
	if len(buf) < n*span {
		return false
	}
	if r.count != nil {
		dst := x.newestNums()
		for i := range dst[:min(span, len(dst))] {
			dst[i] = r.count(buf, i, span, n)
		}
		return true
	}
	dst := x.newestTruths()
	dst = dst[:min(span, len(dst))]
	pcnt := x.pcntOf()
	if r.truthRows != nil {
		r.truthRows(buf, span, n, pcnt, dst)
		return true
	}
	for i := range dst {
		dst[i] = r.truth(buf, i, span, n, n, pcnt)
	}
	return true
}

// matchInst is the evaluator of match_inst and nomatch_inst: each true
// member stays true when its instance name matches (or does not match) the
// regular expression, otherwise it becomes false.
//
// As in pmie, an unknown member whose name qualifies becomes true.
func matchInst(x *Node) {
	a, re := x.Arg1, x.Arg2
	evalArg(a)
	x.rotate()
	want := x.Op == OpMatch
	if a.tspan > 0 {
		in, out := a.newestTruths(), x.newestTruths()
		switch {
		case re.valid == 0 || a.valid == 0:
			fillTruth(out[:min(a.tspan, len(out))], Unknown)
		case x.idom <= 0:
			fillTruth(out[:min(a.tspan, len(out))], False)
		default:
			var ms []*Metric
			if a.metrics != nil { // nil for a constant operand
				ms = a.metrics.m
			}
			mi, i := 0, 0
			for n := 0; n < a.tspan; n++ {
				for mi < len(ms) && i >= ms[mi].nidom {
					mi++
					i = 0
				}
				t := False
				if mi < len(ms) && ms[mi].inames != nil {
					matched := re.matchesAt(n, ms[mi].inames[i]) == want
					t = boolTruth(matched && truthAt(in, false, n) != False)
				}
				i++
				if n < len(out) {
					out[n] = t
				}
			}
		}
		x.valid++
	} else {
		x.valid = 0
	}
	x.stamp[0] = a.stamp0()
}

// fillTruth sets every truth of out to t.
func fillTruth(out []Truth, t Truth) {
	for i := range out {
		out[i] = t
	}
}

// nameMatch is a match_inst pattern's answer for one instance name.
type nameMatch struct {
	name string
	ok   bool
}

// matchesAt is matches for the name at position p of the operand's
// values. An instance keeps its position from one evaluation to the next,
// so the answer kept there for the same name (most often the very same
// string) saves hashing the name.
func (x *Node) matchesAt(p int, name string) bool {
	if p < len(x.memoAt) && x.memoAt[p].name == name {
		return x.memoAt[p].ok
	}
	m := x.matches(name)
	if p < 4096 {
		for len(x.memoAt) <= p {
			x.memoAt = append(x.memoAt, nameMatch{})
		}
		x.memoAt[p] = nameMatch{name, m}
	}
	return m
}

// matches reports whether the pattern of a match_inst operand matches an
// instance name, remembering the answers: instance names repeat from one
// evaluation to the next.
func (x *Node) matches(name string) bool {
	if m, ok := x.memo[name]; ok {
		return m
	}
	if x.memo == nil || len(x.memo) > 4096 {
		x.memo = map[string]bool{}
	}
	m := x.re.MatchString(name)
	x.memo[name] = m
	return m
}
