package lang

// Nodes only pmie rules have, and the statements of a rule file.

// Scale is a pmie scale factor such as "Kbyte / sec" after a number. The
// dimensions and scales are what pmie's grammar builds from the words: a
// word sets its dimension to 1 (or to the power after ^), a word after "/"
// sets it to minus that, and a later word of the same dimension replaces an
// earlier one. Scales are PCP's codes: space 0=byte .. 4=Tbyte, time
// 0=nsec 1=usec 2=msec 3=sec 4=min 5=hour, count a power of ten (0, 3, 6).
type Scale struct {
	Loc
	Terms []ScaleTerm

	DimSpace, DimTime, DimCount       int
	ScaleSpace, ScaleTime, ScaleCount int
}

// ScaleTerm is one word of a scale factor.
type ScaleTerm struct {
	Word   string // as written, e.g. "Kbytes"
	Per    bool   // written after "/"
	Raised bool   // written with ^N
	Power  int    // the N of word^N
}

// Var is a pmie $name reference that the scanner turned into a value: a
// numeric or boolean macro, or one of the reserved macros ($delta,
// $minute, $hour, $day, $month, $year, $day_of_week), whose Value is nil.
// (String-valued macros are expanded as text instead and leave no Var.)
type Var struct {
	Loc
	Name  string
	Value Expr // the macro's value: a constant expression
}

// Bool is pmie's true or false.
type Bool struct {
	Loc
	Value bool
}

// Domain is the dimension a pmie quantifier or aggregate works along.
type Domain uint8

// The domains.
const (
	DomInst   Domain = iota // _inst
	DomHost                 // _host
	DomSample               // _sample
)

var domainNames = [...]string{"inst", "host", "sample"}

func (d Domain) String() string { return domainNames[d] }

// Quant is a pmie quantifier over a boolean expression: some_inst X,
// all_host X, 75%_sample X. Op is the quantifier's name in the operator
// table (PmieOperators): "some", "all" or "%". Percent is N for N%_ (as
// written, not divided by 100).
type Quant struct {
	Loc
	Op      string
	Dom     Domain
	Percent float64
	X       Expr
}

// Aggr is a pmie aggregate: sum_inst X, avg_sample X, count_host X. Op is
// the aggregate's name in the operator table ("sum", "avg", "max", "min",
// "count", which counts the true members of a logical expression).
type Aggr struct {
	Loc
	Op  string
	Dom Domain
	X   Expr
}

// Action is one pmie action: print "text" "more", shell 5 min "cmd", ...
// Op is the action's name in the operator table ("shell", "alarm",
// "syslog", "print", "stomp"). Holdoff is the optional suppression time
// before the arguments (a number with an optional scale), nil when
// absent. Actions are joined by Binary nodes with OpSeq (&) and OpAlt
// (|), and may be parenthesised.
type Action struct {
	Loc
	Op      string
	Holdoff *Number
	Args    []*String
}

// Rule is Cond -> Action.
type Rule struct {
	Loc
	Cond   Expr
	Action Expr // *Action, or *Binary (OpSeq/OpAlt) or *Paren of those
}

// Ruleset is "ruleset R1 else R2 ... [unknown -> A] [otherwise -> B]". The
// rules are tried in order; Unknown and Otherwise are nil when absent.
type Ruleset struct {
	Loc
	Rules     []*Rule
	Unknown   Expr
	Otherwise Expr
}

func (*Scale) node()   {}
func (*Var) node()     {}
func (*Bool) node()    {}
func (*Quant) node()   {}
func (*Aggr) node()    {}
func (*Action) node()  {}
func (*Rule) node()    {}
func (*Ruleset) node() {}

func (*Var) expr()     {}
func (*Bool) expr()    {}
func (*Quant) expr()   {}
func (*Aggr) expr()    {}
func (*Action) expr()  {}
func (*Rule) expr()    {}
func (*Ruleset) expr() {}

// StmtKind says what a pmie statement does.
type StmtKind uint8

// The kinds of statement.
const (
	// StmtMacro defines a macro: "name = constexpr;" where the expression
	// is a constant (a string, a number with optional scale, true or false,
	// or operators over those, which pmie folds).
	StmtMacro StmtKind = iota
	// StmtDelta sets the sample interval for later statements: "delta = N unit;".
	StmtDelta
	// StmtExpr is an expression to evaluate, named or not.
	StmtExpr
	// StmtRule is a rule, Cond -> Action; X is a *Rule.
	StmtRule
	// StmtRuleset is a ruleset; X is a *Ruleset.
	StmtRuleset
	// StmtAction is a bare action with no condition (it always fires).
	StmtAction
)

var stmtNames = [...]string{"macro", "delta", "expr", "rule", "ruleset", "action"}

func (k StmtKind) String() string { return stmtNames[k] }

// Stmt is one semicolon-terminated statement of a pmie rule file.
type Stmt struct {
	Loc
	Kind StmtKind
	// Name is the statement's name: as written before "=", or for an
	// unnamed statement (Anonymous) the expr_N pmie gives it. pmie counts
	// N over the statements it parses, including some that it then drops
	// because of an error; lang counts the same way, assuming every metric
	// lookup succeeds.
	Name      string
	Anonymous bool
	NameSpan  Span // where the name is written; zero when Anonymous
	X         Expr
}

func (*Stmt) node() {}

// File is a parsed pmie rule file: its statements in order, the macros in
// force at the end (by name), and the diagnostics. Statements with syntax
// errors are left out, as pmie leaves them out (and, as pmie does, a
// complete logical expression, action, rule or ruleset followed by a stray
// token is kept although the token is reported).
type File struct {
	Src    *Source
	Stmts  []*Stmt
	Macros map[string]*Stmt
	Diags  Diagnostics
	// Scan is where pmie's scanner was after each token it read (see
	// Loc.Last), which pmie reports problems "near".
	Scan Scan

	// FinalErrors is pmie's error count for the last statement it
	// parsed in the file (its exit status under -C comes from it), and
	// FinalStmt that statement, if it was accepted (its semantic
	// errors count too).
	FinalErrors int
	FinalStmt   *Stmt

	// Dropped lists the statements pmie drops (for a syntax error, or a
	// rule name already taken) that it did something with while parsing
	// them, in file order.
	Dropped []*Dropped
}

// LateRule is a rule pmie builds in its recovery from an error in the
// rule's actions: Cond is its condition (one of the statement's Built),
// At where pmie's scanner is then (past the input it skipped after the
// error), which pmie reports.
type LateRule struct {
	Cond Expr
	At   ScanPos
}

// Dropped is what pmie does with a statement before it drops it: it looks
// up each metric as it parses it, and counts each rule it builds (in
// pmcd.pmie.numrules).
type Dropped struct {
	// Start is the offset where the statement starts; Diag is how many of
	// the file's Diags come before its first metric was parsed.
	Start, Diag int
	// Metrics are the metrics parsed before the statement's first error.
	Metrics []*Metric
	// Built are the constructs pmie's parser completed before the
	// statement's first error (an operand of an operator that then
	// lacked its other operand, a condition whose action was bad...),
	// the outermost only, in order: pmie built each, with its checks
	// (operands of different instance domains, say), as it completed
	// it.
	Built []Expr
	// Late are the rules pmie's parser completed after the statement's
	// error, in its recovery: a rule whose actions lost their last part
	// to the error (cond -> A | shell 3) is built of what is left, with
	// its check of the condition, once pmie has reported the error (the
	// first LateDiag of the file's Diags).
	Late     []LateRule
	LateDiag int
	// Rules counts the rules (cond -> action, and a ruleset's unknown and
	// otherwise actions) built in it.
	Rules int
	// Dup is the diagnostic saying that the statement's rule name is
	// taken, and Stmt the statement, whole, if it had no other error.
	// pmie says so only if the name is a rule it made (a statement whose
	// metrics are not found makes none), and the statement an expression
	// (its metrics found, or an action left); if the name is not taken
	// after all, pmie keeps the statement.
	Dup  *Diagnostic
	Stmt *Stmt
	// Reduced are the statements pmie's parser completed before a stray
	// token after them was found (a rule followed by "&&", say): pmie
	// registered each (its name is taken, an unnamed one used up an
	// expr_N) but evaluates none of them.
	Reduced []*Stmt
	// Anon, for an unnamed statement, says when pmie built an expression
	// or a constant of it despite its error (the left operand of && or
	// || whose right operand failed, a rule's condition whose action
	// failed, a ruleset's first rule), which uses up an expr_N name: nil
	// if it never did.
	Anon *Alive
}

// Alive says when pmie's parser made something of a piece of a statement
// rather than nothing (a NULL, which the operators around it pass on as
// pmie's do): always, when Leaf, a construct it completed before the
// statement's first syntax error (one of Built, or of Metrics), was made
// (its metrics found, no error unmaking it), or when all or any of Of
// were.
type Alive struct {
	Op   AliveOp
	Leaf Expr
	Of   [2]*Alive
}

// AliveOp is how an Alive is decided.
type AliveOp uint8

const (
	AliveAlways AliveOp = iota
	AliveLeaf
	AliveAll
	AliveAny
)

// Eval decides a: made reports whether pmie made a leaf. A nil Alive is
// never made.
func (a *Alive) Eval(made func(Expr) bool) bool {
	switch {
	case a == nil:
		return false
	case a.Op == AliveLeaf:
		return made(a.Leaf)
	case a.Op == AliveAll:
		return a.Of[0].Eval(made) && a.Of[1].Eval(made)
	case a.Op == AliveAny:
		return a.Of[0].Eval(made) || a.Of[1].Eval(made)
	}
	return true
}
