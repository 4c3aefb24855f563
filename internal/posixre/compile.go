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
	c := &compiler{re: re}
	if !c.emit(n) {
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
	re *Regexp
}

func (c *compiler) add(in inst) int {
	c.re.prog = append(c.re.prog, in)
	return len(c.re.prog) - 1
}

// emit appends the program of n; false when it grows past maxProg.
func (c *compiler) emit(n *node) bool {
	if len(c.re.prog) > maxProg {
		return false
	}
	if n == nil {
		return true
	}
	switch n.op {
	case nCat:
		for _, k := range n.kids {
			if !c.emit(k) {
				return false
			}
		}
	case nAlt:
		split := c.add(inst{op: iSplit})
		c.re.prog[split].x = len(c.re.prog)
		if !c.emit(n.kids[0]) {
			return false
		}
		jmp := c.add(inst{op: iJmp})
		c.re.prog[split].y = len(c.re.prog)
		if !c.emit(n.kids[1]) {
			return false
		}
		c.re.prog[jmp].x = len(c.re.prog)
	case nSet:
		c.add(inst{op: iSet, set: n.set})
	case nAssert:
		c.add(inst{op: iAssert, n: n.n})
	case nBackref:
		c.add(inst{op: iBackref, n: n.n})
	case nGroup:
		if c.re.refs {
			c.add(inst{op: iSave, n: 2 * n.n})
		}
		if !c.emit(n.kids[0]) {
			return false
		}
		if c.re.refs {
			c.add(inst{op: iSave, n: 2*n.n + 1})
		}
	case nRepeat:
		return c.repeat(n)
	}
	return true
}

// repeat emits lo copies of the body, then a loop (hi -1) or hi-lo
// optional copies.
func (c *compiler) repeat(n *node) bool {
	body := n.kids[0]
	for i := 0; i < n.lo; i++ {
		if !c.emit(body) {
			return false
		}
	}
	if n.hi == -1 {
		r := c.re.nloop
		c.re.nloop++
		top := c.add(inst{op: iSplit})
		c.re.prog[top].x = top + 1
		c.add(inst{op: iLoopEnter, n: r})
		if !c.emit(body) {
			return false
		}
		end := c.add(inst{op: iLoopEnd, n: r, x: top})
		c.re.prog[end].y = end + 1
		c.re.prog[top].y = end + 1
		return true
	}
	var skips []int
	for i := n.lo; i < n.hi; i++ {
		skips = append(skips, c.add(inst{op: iSplit}))
		c.re.prog[len(c.re.prog)-1].x = len(c.re.prog)
		if !c.emit(body) {
			return false
		}
	}
	for _, s := range skips {
		c.re.prog[s].y = len(c.re.prog)
	}
	return true
}
