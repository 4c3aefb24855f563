package lang

// This file holds the syntax tree nodes both languages share: numbers,
// strings, metric references, unary and binary operators and parentheses.
// ast_derive.go and ast_pmie.go hold the nodes only one language has.
//
// The tree is closed: Node and Expr can only be implemented here, so a
// type switch over the node types in this package is exhaustive. Nodes are
// never changed after parsing; checkers build their own views keyed by node.

// Loc is where a node came from. Span is in the file being parsed; for
// text that came from a pmie macro, Span is that of the $name reference in
// the file (the outermost one for nested macros) and From says which macro
// produced the node's first token. In a pmie rule file, Last is one more
// than the number of the node's last token in the file's Scan (0 where
// not known).
type Loc struct {
	Span Span
	From *Expansion
	Last int32
}

// Where returns l itself; it lets every node report its location.
func (l Loc) Where() Loc { return l }

// Expansion records that text came from expanding a pmie macro.
type Expansion struct {
	Macro string     // the macro's name, without the $
	Ref   Span       // the $name reference, in the text it appeared in
	Def   Span       // the macro's definition (its value), in the file
	Outer *Expansion // the expansion Ref itself came from, if nested
}

// Node is any node of the syntax tree.
type Node interface {
	Where() Loc
	node()
}

// Expr is an expression node. The concrete types are listed in the
// documentation of each language's parse function.
type Expr interface {
	Node
	expr()
}

// NumberKind says how a numeric literal was written.
type NumberKind uint8

// The kinds of number.
const (
	IntNumber   NumberKind = iota // digits only (derived metrics: 32-bit unsigned)
	FloatNumber                   // with a decimal point (or, in pmie, an exponent)
)

// Number is a numeric literal. In derived-metric expressions it is an
// integer constant (Kind IntNumber, value in Int, at most 2^32-1) or a
// floating constant (Float). In pmie every number is a double (Float) and
// may carry a scale factor such as "Kbyte/sec" in Scale.
type Number struct {
	Loc
	Lit   string // the literal as pmie or libpcp scanned it
	Kind  NumberKind
	Int   uint64
	Float float64
	Scale *Scale // pmie only; nil when no scale factor follows
}

// String is a string literal: a derived-metric rescale() units argument or
// a pmie string (after escapes and macro expansion).
type String struct {
	Loc
	Value string
}

// Metric names a performance metric. Derived-metric expressions only use
// Name; pmie adds the :host, #instance and @sample qualifiers.
type Metric struct {
	Loc
	Name    string
	Hosts   []*Qualifier // :host, in order written
	Insts   []*Qualifier // #instance, in order written
	Samples *Samples     // @N or @N..M; nil for the latest sample only
}

// Qualifier is one pmie :host or #instance qualifier.
type Qualifier struct {
	Loc
	Value  string
	Quoted bool // written as 'quoted text'
}

// Samples is a pmie @N or @N..M sample qualifier. pmie puts the smaller
// number first, so From <= To always.
type Samples struct {
	Loc
	From, To int
	Range    bool // written with ".."
}

// UnaryOp is the operator of a Unary node.
type UnaryOp uint8

// The unary operators. OpNeg and OpNot are in both languages; the others
// are pmie's prefix operators.
const (
	OpNeg     UnaryOp = iota // -x
	OpNot                    // !x
	OpRate                   // rate x
	OpInstant                // instant x
	OpRising                 // rising x
	OpFalling                // falling x
)

var unaryNames = [...]string{"-", "!", "rate", "instant", "rising", "falling"}

func (op UnaryOp) String() string { return unaryNames[op] }

// Unary is a prefix operator applied to X.
type Unary struct {
	Loc
	Op UnaryOp
	X  Expr
}

// BinaryOp is the operator of a Binary node.
type BinaryOp uint8

// The binary operators.
const (
	OpAdd BinaryOp = iota // +
	OpSub                 // -
	OpMul                 // *
	OpDiv                 // /
	OpLT                  // <
	OpLE                  // <=
	OpEQ                  // ==
	OpGE                  // >=
	OpGT                  // >
	OpNE                  // !=
	OpAnd                 // &&
	OpOr                  // ||
	OpSeq                 // & (pmie actions: run both)
	OpAlt                 // | (pmie actions: run the second if the first fails)
)

var binaryNames = [...]string{"+", "-", "*", "/", "<", "<=", "==", ">=", ">", "!=", "&&", "||", "&", "|"}

func (op BinaryOp) String() string { return binaryNames[op] }

// IsRelational reports whether op compares its operands.
func (op BinaryOp) IsRelational() bool { return op >= OpLT && op <= OpNE }

// IsArithmetic reports whether op is + - * or /.
func (op BinaryOp) IsArithmetic() bool { return op <= OpDiv }

// Binary is X Op Y. OpPos is the position of the operator.
type Binary struct {
	Loc
	Op    BinaryOp
	OpPos Pos
	X, Y  Expr
}

// Paren is a parenthesised expression. It is kept because it matters to
// libpcp ("(expr)[inst]" matches the instance name as a regular expression,
// "name[inst]" exactly) and to printing the tree back as written.
type Paren struct {
	Loc
	X Expr
}

// MatchInst filters X's instances by a regular expression: derived
// metrics' matchinst(!/re/, x) and pmie's match_inst "re" x and
// nomatch_inst "re" x. Pattern is the regular expression after unescaping.
type MatchInst struct {
	Loc
	Negate      bool
	Pattern     string
	PatternSpan Span
	X           Expr
}

func (*Number) node()    {}
func (*String) node()    {}
func (*Metric) node()    {}
func (*Qualifier) node() {}
func (*Samples) node()   {}
func (*Unary) node()     {}
func (*Binary) node()    {}
func (*Paren) node()     {}
func (*MatchInst) node() {}

func (*Number) expr()    {}
func (*String) expr()    {}
func (*Metric) expr()    {}
func (*Unary) expr()     {}
func (*Binary) expr()    {}
func (*Paren) expr()     {}
func (*MatchInst) expr() {}

// Unparen returns x without any enclosing parentheses.
func Unparen(x Expr) Expr {
	for {
		p, ok := x.(*Paren)
		if !ok {
			return x
		}
		x = p.X
	}
}
