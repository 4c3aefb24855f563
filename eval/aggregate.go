package eval

// reduction is what an aggregate or quantifier computes over a run of
// values.
type reduction uint8

const (
	redSum reduction = iota
	redAvg
	redMax
	redMin
	redAll
	redSome
	redPcnt
	redCount
)

// quantifier reports whether r maps truths to a truth. When a quantifier
// has no members to look at its answer is unknown, where an aggregate's is
// missing altogether.
func (r reduction) quantifier() bool { return r == redAll || r == redSome || r == redPcnt }

// numeric reports whether r reads numbers (sum, avg, max, min).
func (r reduction) numeric() bool { return r <= redMin }

// reductionOf maps an aggregate or quantifier op to its reduction.
func reductionOf(op Op) reduction {
	switch {
	case op >= OpSumHost && op <= OpSumTime:
		return redSum
	case op >= OpAvgHost && op <= OpAvgTime:
		return redAvg
	case op >= OpMaxHost && op <= OpMaxTime:
		return redMax
	case op >= OpMinHost && op <= OpMinTime:
		return redMin
	case op >= OpAllHost && op <= OpAllTime:
		return redAll
	case op >= OpSomeHost && op <= OpSomeTime:
		return redSome
	case op >= OpPcntHost && op <= OpPcntTime:
		return redPcnt
	}
	return redCount
}

// reduceNum reduces n numbers of buf, from start, stride apart.
func reduceNum(r reduction, buf []float64, start, stride, n int) float64 {
	if start >= len(buf) {
		return 0
	}
	div := n
	if last := start + (n-1)*stride; last >= len(buf) {
		n = (len(buf)-1-start)/stride + 1
	}
	a := buf[start]
	switch r {
	case redSum, redAvg:
		m := n
		for k := start + stride; m > 1; k, m = k+stride, m-1 {
			a += buf[k]
		}
		if r == redAvg {
			a /= float64(div)
		}
	case redMax:
		for k := start + stride; n > 1; k, n = k+stride, n-1 {
			if v := buf[k]; v > a {
				a = v
			}
		}
	case redMin:
		for k := start + stride; n > 1; k, n = k+stride, n-1 {
			if v := buf[k]; v < a {
				a = v
			}
		}
	}
	return a
}

// reduceTruth reduces n truths of buf, from start, stride apart, to a
// truth (all, some, N%) or a count. pcnt is the fraction for N%.
func reduceTruth(r reduction, pcnt float64, buf []Truth, start, stride, n int) (Truth, float64) {
	if start >= len(buf) {
		return Unknown, 0
	}
	m := n
	if last := start + (n-1)*stride; last >= len(buf) {
		m = (len(buf)-1-start)/stride + 1
	}
	a := buf[start]
	switch r {
	case redAll, redSome:
		// pmie's loop: a decisive member decides, an unknown one makes
		// the answer unknown unless it already is; so order matters
		decisive := False
		if r == redSome {
			decisive = True
		}
		for k, j := start+stride, 1; j < m; k, j = k+stride, j+1 {
			if v := buf[k]; v == decisive {
				a = decisive
			} else if v == Unknown && a != Unknown {
				a = Unknown
			}
		}
		return a, 0
	case redPcnt:
		sum := int(a)
		for k, j := start+stride, 1; j < m; k, j = k+stride, j+1 {
			sum += int(buf[k])
		}
		return boolTruth(sum >= int(0.5+pcnt*float64(n))), 0
	}
	cnt := 0
	for k, j := start, 0; j < m; k, j = k+stride, j+1 {
		if buf[k] == True {
			cnt++
		}
	}
	return False, float64(cnt)
}

// reduceInto stores the reduction of n values of a's buffer (raw when raw
// is set, otherwise its newest sample) at position out of x's newest
// sample.
func (x *Node) reduceInto(r reduction, a *Node, raw bool, start, stride, n, out int) {
	if r.numeric() {
		buf := a.num
		if !raw {
			buf = a.newestNums()
		}
		if dst := x.newestNums(); out < len(dst) {
			dst[out] = reduceNum(r, buf, start, stride, n)
		}
		return
	}
	buf := a.tru
	if !raw {
		buf = a.newestTruths()
	}
	t, c := reduceTruth(r, x.pcntOf(), buf, start, stride, n)
	if r == redCount {
		if dst := x.newestNums(); out < len(dst) {
			dst[out] = c
		}
		return
	}
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
func (x *Node) noMembers(r reduction, a *Node, out int) {
	if !r.quantifier() {
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
func acrossHosts(r reduction) func(*Node) {
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
func acrossInstances(r reduction) func(*Node) {
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
				x.noMembers(r, a, 0)
				return
			}
			x.reduceInto(r, a, false, 0, 1, n, 0)
		} else {
			pos := 0
			for i := 0; i < x.hdom && i < len(x.metrics.m); i++ {
				n := x.metrics.m[i].nidom
				if n < 1 {
					x.noMembers(r, a, i)
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
func acrossSamples(r reduction) func(*Node) {
	return func(x *Node) {
		a := x.Arg1
		n := a.tdom
		evalArg(a)
		x.rotate()
		if a.valid < n || x.tspan <= 0 || a.tdom <= 0 {
			x.valid = 0
			return
		}
		for i := 0; i < x.tspan; i++ {
			x.reduceInto(r, a, true, i, x.tspan, n, i)
		}
		x.stamp[0] = a.stamp0()
		x.valid++
	}
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
		ms := a.metrics.m
		mi, i := 0, 0
		for n := 0; n < a.tspan; n++ {
			var t Truth
			switch {
			case re.valid == 0 || a.valid == 0:
				t = Unknown
			case x.idom <= 0:
				t = False
			default:
				for mi < len(ms) && i >= ms[mi].nidom {
					mi++
					i = 0
				}
				if mi >= len(ms) || ms[mi].inames == nil {
					t = False
				} else {
					matched := re.matches(ms[mi].inames[i]) == want
					t = boolTruth(matched && truthAt(in, false, n) != False)
				}
				i++
			}
			if n < len(out) {
				out[n] = t
			}
		}
		x.valid++
	} else {
		x.valid = 0
	}
	x.stamp[0] = a.stamp0()
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
