package posixre

import "strings"

// opcode is an instruction of a compiled pattern.
type opcode uint8

const (
	iSet       opcode = iota // consume a byte of set
	iSplit                   // go on at x and at y
	iJmp                     // go on at x
	iAssert                  // an anchor of kind n holds
	iSave                    // slot n = position (groups, for back references)
	iBackref                 // what group n matched comes next
	iLoopEnter               // loop register n = position
	iLoopEnd                 // back to x if the loop body consumed input, else on to y
	iMatch                   // a match
)

type inst struct {
	op   opcode
	set  *byteSet
	x, y int
	n    int
}

// maxProg bounds a compiled pattern: intervals are compiled as copies of
// what they repeat, as glibc builds them, so nested ones multiply. Past
// it Compile gives up with "Memory exhausted" (glibc goes on, for seconds
// or minutes, and may end with the same error).
const maxProg = 1 << 16

// Regexp is a compiled pattern.
type Regexp struct {
	src    string
	prog   []inst
	ngroup int
	nloop  int
	refs   bool // has back references: run by the backtracker
}

// Compile compiles pattern as regcomp(pattern, REG_EXTENDED|REG_NOSUB)
// does; its error is an *Error.
func Compile(pattern string) (*Regexp, error) {
	if strings.IndexByte(pattern, 0) >= 0 {
		pattern = pattern[:strings.IndexByte(pattern, 0)] // as C sees it
	}
	p := &parser{src: pattern}
	p.next()
	n, err := p.regexp(0)
	if err != nil {
		return nil, err
	}
	re := &Regexp{src: pattern, ngroup: p.ngroup, refs: p.nref > 0}
	c := &compiler{re: re, used: p.used}
	if !c.emit(n, false, false) {
		return nil, &Error{ErrSpace}
	}
	re.prog = append(re.prog, inst{op: iMatch})
	return re, nil
}

// MustCompile is Compile for patterns known to be good.
func MustCompile(pattern string) *Regexp {
	re, err := Compile(pattern)
	if err != nil {
		panic("posixre: Compile(" + pattern + "): " + err.Error())
	}
	return re
}

// String is the pattern re was compiled from.
func (re *Regexp) String() string { return re.src }

type compiler struct {
	re   *Regexp
	used uint32 // groups named by back references, whose bounds glibc keeps as nodes
}

func (c *compiler) add(in inst) int {
	c.re.prog = append(c.re.prog, in)
	return len(c.re.prog) - 1
}

// Copies of repeated expressions. glibc builds "e{2,3}" as e, a copy of
// e, and an optional copy, and marks every node of a copy as duplicated;
// an anchor whose next node is a duplicated one loses its condition
// there (its condition is carried to the nodes after it only when the
// first is not a duplicate). So in "(^a){2}" only the first "^" holds,
// and in "(a$){2}" only the last "$". emit follows each node's
// duplicated mark (dup) and that of the node after it (nextDup), as
// glibc links them.

// emit appends the program of n; false when it grows past maxProg.
func (c *compiler) emit(n *node, dup, nextDup bool) bool {
	if len(c.re.prog) > maxProg {
		return false
	}
	if n == nil {
		return true
	}
	switch n.op {
	case nCat:
		for i, k := range n.kids {
			next := nextDup
			for _, after := range n.kids[i+1:] {
				if f, ok := c.firstDup(after, dup); ok {
					next = f
					break
				}
			}
			if !c.emit(k, dup, next) {
				return false
			}
		}
	case nAlt:
		split := c.add(inst{op: iSplit})
		c.re.prog[split].x = len(c.re.prog)
		if !c.emit(n.kids[0], dup, nextDup) {
			return false
		}
		jmp := c.add(inst{op: iJmp})
		c.re.prog[split].y = len(c.re.prog)
		if !c.emit(n.kids[1], dup, nextDup) {
			return false
		}
		c.re.prog[jmp].x = len(c.re.prog)
	case nSet:
		c.add(inst{op: iSet, set: n.set})
	case nAssert:
		if !nextDup {
			c.add(inst{op: iAssert, n: n.n})
		}
	case nBackref:
		c.add(inst{op: iBackref, n: n.n})
	case nGroup:
		return c.group(n, dup, nextDup)
	case nRepeat:
		return c.repeat(n, dup, nextDup)
	}
	return true
}

// group emits a group, with the instructions that keep its bounds when
// back references need them.
func (c *compiler) group(n *node, dup, nextDup bool) bool {
	kept := c.used&(1<<n.n) != 0
	if c.re.refs {
		c.add(inst{op: iSave, n: 2 * n.n})
	}
	if kept {
		nextDup = dup // the node closing the group comes next
	}
	if !c.emit(n.kids[0], dup, nextDup) {
		return false
	}
	if c.re.refs {
		c.add(inst{op: iSave, n: 2*n.n + 1})
	}
	return true
}

// firstDup is the duplicated mark of the first node of n, as glibc links
// them, for n in a part marked dup; ok is false if n has no node (it
// matches only the empty string and glibc drops it).
func (c *compiler) firstDup(n *node, dup bool) (mark, ok bool) {
	if n == nil {
		return false, false
	}
	switch n.op {
	case nCat:
		for _, k := range n.kids {
			if f, ok := c.firstDup(k, dup); ok {
				return f, true
			}
		}
		return false, false
	case nGroup:
		if c.used&(1<<n.n) != 0 {
			return dup, true
		}
		return c.firstDup(n.kids[0], dup)
	case nRepeat:
		if n.lo > 0 {
			return c.firstDup(n.kids[0], dup)
		}
	}
	return dup, true
}

// repeat emits lo copies of the body, then a loop (hi -1) or hi-lo
// optional copies: the first copy is the body itself, the others
// duplicates, and what follows the mandatory copies (a loop or the
// optional copies) begins with a node of glibc's own, not duplicated.
func (c *compiler) repeat(n *node, dup, nextDup bool) bool {
	body := n.kids[0]
	for i := 0; i < n.lo; i++ {
		next := nextDup
		switch {
		case i+1 < n.lo:
			next = true
		case n.hi != n.lo:
			next = dup
		}
		if !c.emit(body, dup || i > 0, next) {
			return false
		}
	}
	if n.hi == -1 {
		r := c.re.nloop
		c.re.nloop++
		top := c.add(inst{op: iSplit})
		c.re.prog[top].x = top + 1
		c.add(inst{op: iLoopEnter, n: r})
		if !c.emit(body, dup || n.lo > 0, dup) {
			return false
		}
		end := c.add(inst{op: iLoopEnd, n: r, x: top})
		c.re.prog[end].y = end + 1
		c.re.prog[top].y = end + 1
		return true
	}
	// glibc nests the optional copies as (e0? e1)? and so on: one can
	// skip only a prefix of them. A split before each copy's start leads
	// to it or to the next split; the copies run on into each other.
	k := n.hi - n.lo
	if k == 0 {
		return true
	}
	splits := make([]int, k)
	for j := range splits {
		splits[j] = c.add(inst{op: iSplit, y: len(c.re.prog) + 1})
	}
	for j := 0; j < k; j++ {
		c.re.prog[splits[j]].x = len(c.re.prog)
		next := nextDup
		if j+1 < k {
			next = true
		}
		if !c.emit(body, dup || n.lo > 0 || j > 0, next) {
			return false
		}
	}
	c.re.prog[splits[k-1]].y = len(c.re.prog)
	return true
}
