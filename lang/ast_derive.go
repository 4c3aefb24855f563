package lang

// Nodes only derived-metric expressions have.

// Ternary is Cond ? Then : Else.
type Ternary struct {
	Loc
	Cond, Then, Else Expr
}

// InstSelect is X[inst]: the instance called Inst of a metric name or of a
// parenthesised expression. Inst is the text between the brackets with
// backslash escapes removed.
type InstSelect struct {
	Loc
	X        Expr // a *Metric or a *Paren
	Inst     string
	InstSpan Span // the brackets and what is between them
}

// Call is a function call such as rate(x) or rescale(x, "units"). The
// parser does not know what the functions mean; it only knows which names
// libpcp treats as functions, and the shape of their arguments.
type Call struct {
	Loc
	Func     string
	FuncSpan Span
	Args     []Expr
	Rparen   Pos
}

// MkConst is mkconst(value, tag=value, ...): a constant with explicit
// metadata. Params are in the order written; the meaning of tags and
// values is for the checker.
type MkConst struct {
	Loc
	Value  *Number
	Params []*MkConstParam
	Rparen Pos
}

// MkConstParam is one tag=value parameter of mkconst. Tag is one of
// "type", "semantics" and "units".
type MkConstParam struct {
	Loc
	Tag       string
	Value     string
	Quoted    bool // the value was a "string"
	ValueSpan Span
}

func (*Ternary) node()      {}
func (*InstSelect) node()   {}
func (*Call) node()         {}
func (*MkConst) node()      {}
func (*MkConstParam) node() {}

func (*Ternary) expr()    {}
func (*InstSelect) expr() {}
func (*Call) expr()       {}
func (*MkConst) expr()    {}
