package posixre

import "strings"

// MatchString reports whether s, up to any NUL in it (as C sees it),
// matches re anywhere, as regexec(3) does.
func (re *Regexp) MatchString(s string) bool {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	if re.refs {
		return re.backtrack(s)
	}
	return re.pike(s)
}

// threads is a set of program counters in the order added.
type threads struct {
	pcs  []int
	seen []uint32
	gen  uint32
}

func (t *threads) reset() {
	t.pcs = t.pcs[:0]
	t.gen++
}

// pike runs re over s with one thread per program counter, starting a
// thread at every position: linear in len(s).
func (re *Regexp) pike(s string) bool {
	n := len(re.prog)
	cur := &threads{seen: make([]uint32, n), gen: 1}
	next := &threads{seen: make([]uint32, n), gen: 1}
	for i := 0; ; i++ {
		if re.follow(cur, 0, s, i) {
			return true
		}
		if i == len(s) {
			return false
		}
		next.reset()
		c := s[i]
		for _, pc := range cur.pcs {
			in := &re.prog[pc]
			if in.op == iSet && in.set.has(c) {
				if re.follow(next, pc+1, s, i+1) {
					return true
				}
			}
		}
		cur, next = next, cur
	}
}

// follow adds pc, and what it leads to without consuming input, to t at
// position i of s; true if that reaches a match.
func (re *Regexp) follow(t *threads, pc int, s string, i int) bool {
	for {
		if t.seen[pc] == t.gen {
			return false
		}
		t.seen[pc] = t.gen
		in := &re.prog[pc]
		switch in.op {
		case iMatch:
			return true
		case iSet:
			t.pcs = append(t.pcs, pc)
			return false
		case iJmp:
			pc = in.x
		case iLoopEnd:
			pc = in.x
		case iSplit:
			if re.follow(t, in.x, s, i) {
				return true
			}
			pc = in.y
		case iAssert:
			if !holds(in.n, s, i) {
				return false
			}
			pc++
		default: // iSave, iLoopEnter, iBackref (never without refs)
			pc++
		}
	}
}

// maxSteps bounds the work of the backtracking matcher on one string.
const maxSteps = 1 << 22

// tracker is the state of one backtracking run.
type tracker struct {
	re    *Regexp
	s     string
	caps  []int // start and end of each group, -1 when unset
	regs  []int // loop registers
	steps int
}

// backtrack looks for any way of matching s, trying each starting
// position: back references need the groups' text, which only a
// backtracking search carries.
func (re *Regexp) backtrack(s string) bool {
	t := &tracker{re: re, s: s, caps: make([]int, 2*re.ngroup), regs: make([]int, re.nloop)}
	for start := 0; start <= len(s); start++ {
		for i := range t.caps {
			t.caps[i] = -1
		}
		if t.run(0, start) {
			return true
		}
		if t.steps > maxSteps {
			return false
		}
	}
	return false
}

func (t *tracker) run(pc, i int) bool {
	prog := t.re.prog
	for {
		if t.steps++; t.steps > maxSteps {
			return false
		}
		in := &prog[pc]
		switch in.op {
		case iMatch:
			return true
		case iSet:
			if i >= len(t.s) || !in.set.has(t.s[i]) {
				return false
			}
			pc, i = pc+1, i+1
		case iJmp:
			pc = in.x
		case iSplit:
			if t.run(in.x, i) {
				return true
			}
			pc = in.y
		case iAssert:
			if !holds(in.n, t.s, i) {
				return false
			}
			pc++
		case iSave:
			return t.setting(&t.caps[in.n], pc+1, i)
		case iBackref:
			a, b := t.caps[2*in.n], t.caps[2*in.n+1]
			if a < 0 || b < a || !strings.HasPrefix(t.s[i:], t.s[a:b]) {
				return false
			}
			pc, i = pc+1, i+b-a
		case iLoopEnter:
			return t.setting(&t.regs[in.n], pc+1, i)
		case iLoopEnd:
			// an iteration that consumed nothing ends the loop, so
			// empty iterations cannot repeat for ever
			if i != t.regs[in.n] {
				pc = in.x
			} else {
				pc = in.y
			}
		}
	}
}

// setting runs on from pc with *slot set to position i, restoring it if
// that fails.
func (t *tracker) setting(slot *int, pc, i int) bool {
	old := *slot
	*slot = i
	if t.run(pc, i) {
		return true
	}
	*slot = old
	return false
}
