package posixre

// nodeOp is the kind of a node of a parsed pattern.
type nodeOp uint8

const (
	nCat     nodeOp = iota // kids in sequence (nil kids match the empty string)
	nAlt                   // kids[0] or kids[1] (either may be nil)
	nSet                   // one byte of set
	nRepeat                // kids[0] lo to hi times (hi -1: no limit)
	nGroup                 // kids[0] (nil: empty), group n
	nBackref               // what group n matched
	nAssert                // an anchor: n is its kind
)

// Anchor kinds.
const (
	aBOL           = iota // ^: start of the string
	aEOL                  // $: end of the string
	aBufFirst             // \`
	aBufLast              // \'
	aWordFirst            // \<: a word starts
	aWordLast             // \>: a word ends
	aInsideWord           // between two word characters
	aInsideNotWord        // between two characters that are not of words
	aWordDelim            // \b: \< or \>
	aNotWordDelim         // \B: inside a word or outside one
)

// node is a node of a parsed pattern.
type node struct {
	op     nodeOp
	kids   []*node
	set    *byteSet
	n      int
	lo, hi int
}

func byteNode(c byte) *node {
	s := new(byteSet)
	s.add(c)
	return &node{op: nSet, set: s}
}

// anchorNode is the node of an anchor; \b and \B are each the
// alternative of two, as glibc makes them.
func anchorNode(kind int) *node {
	switch kind {
	case aWordDelim:
		return &node{op: nAlt, kids: []*node{{op: nAssert, n: aWordFirst}, {op: nAssert, n: aWordLast}}}
	case aNotWordDelim:
		return &node{op: nAlt, kids: []*node{{op: nAssert, n: aInsideWord}, {op: nAssert, n: aInsideNotWord}}}
	}
	return &node{op: nAssert, n: kind}
}

// holds reports whether an anchor of kind holds at position i of s.
func holds(kind int, s string, i int) bool {
	switch kind {
	case aBOL, aBufFirst:
		return i == 0
	case aEOL, aBufLast:
		return i == len(s)
	}
	prev := i > 0 && isWord(s[i-1])
	next := i < len(s) && isWord(s[i])
	switch kind {
	case aWordFirst:
		return !prev && next
	case aWordLast:
		return prev && !next
	case aInsideWord:
		return prev && next
	}
	return !prev && !next // aInsideNotWord
}
