package lang

import "strings"

// pmie's grammar is typed: arithmetic expressions, logical expressions,
// strings, actions, rules and rulesets are different things, and an
// operator only applies where its operands have the right type. The
// operator table below describes every operator; the scanner, the parser,
// the printer and (through PmieOperators) the evaluator all read it, and
// pmieShift decides, as pmie's parser does, whether an operator continues
// the expression being parsed or ends it.

// Type is a set of pmie expression types.
type Type uint8

// The types of pmie expressions.
const (
	TypeArith   Type = 1 << iota // arithmetic expression
	TypeBool                     // logical expression
	TypeString                   // string
	TypeAction                   // action
	TypeRule                     // rule (cond -> action)
	TypeRuleset                  // ruleset

	typePexp = TypeArith | TypeString                                                  // either side of == and !=
	typeAny  = TypeArith | TypeBool | TypeString | TypeAction | TypeRule | TypeRuleset // a whole statement
)

// OperatorClass is the form of a pmie operator.
type OperatorClass uint8

// The classes of operator.
const (
	Infix      OperatorClass = iota + 1 // X op Y
	Prefix                              // op X
	Matching                            // op "regex" X
	Aggregate                           // op_host X, op_inst X, op_sample X: an arithmetic result
	Quantifier                          // the same with a logical result; % is written N%_host X
	ActionWord                          // op [holdoff] "text" ...
)

// Operator is one operator of pmie's rule language as lang reads it.
type Operator struct {
	// Name is the operator as written: "->", "rate", "match_inst",
	// "shell"; for an aggregate or quantifier the word before the domain
	// ("sum" of sum_inst, "%" of 75%_host).
	Name  string
	Class OperatorClass
	// Left is the type of an infix operator's left operand, Operand that
	// of its (right) operand (0 for an action), Result that of the whole.
	Left, Operand, Result Type

	prec    int    // binding power (for a prefix operator, how far its operand reaches)
	follow  string // what pmie says when the (right) operand is missing
	precede string // infix: what pmie says when the left operand is missing
	folds   bool   // pmie folds it into a constant when its operands are constant
	// reduces says that pmie's rule for the operator's missing operand
	// has the operator's precedence ("'-' error %prec UMINUS"), higher
	// than any binary operator's: its parser, recovering, completes the
	// operator before a binary operator after it, which it then applies
	// to that (and does not take as lacking its left operand)
	reduces bool
}

// Arity is the number of operands op takes (an action's strings are not
// operands, nor is match_inst's pattern).
func (op *Operator) Arity() int {
	switch op.Class {
	case Infix:
		return 2
	case ActionWord:
		return 0
	}
	return 1
}

// pmieOperators is the operator table. A row gives what is particular to
// an operator; completeOperator fills in what its class decides (the
// binding power, result and messages of aggregates, quantifiers, matching
// and actions). Adding an aggregate is one row here and its
// implementation in the evaluator's table (eval's TestOperatorTable fails
// until both are there).
var pmieOperators = completeOperators([]*Operator{
	{Name: "->", Class: Infix, Left: TypeBool, Operand: TypeAction, Result: TypeRule, prec: 1},
	{Name: "&&", Class: Infix, Left: TypeBool, Operand: TypeBool, Result: TypeBool, prec: 2},
	{Name: "||", Class: Infix, Left: TypeBool, Operand: TypeBool, Result: TypeBool, prec: 2},
	{Name: "&", Class: Infix, Left: TypeAction, Operand: TypeAction, Result: TypeAction, prec: 2},
	{Name: "|", Class: Infix, Left: TypeAction, Operand: TypeAction, Result: TypeAction, prec: 2},
	{Name: "==", Class: Infix, Left: typePexp, Operand: typePexp, Result: TypeBool, prec: 6, precede: aexpStr},
	{Name: "!=", Class: Infix, Left: typePexp, Operand: typePexp, Result: TypeBool, prec: 6, precede: aexpStr},
	{Name: "<", Class: Infix, Left: TypeArith, Operand: TypeArith, Result: TypeBool, prec: 6},
	{Name: ">", Class: Infix, Left: TypeArith, Operand: TypeArith, Result: TypeBool, prec: 6},
	{Name: "<=", Class: Infix, Left: TypeArith, Operand: TypeArith, Result: TypeBool, prec: 6},
	{Name: ">=", Class: Infix, Left: TypeArith, Operand: TypeArith, Result: TypeBool, prec: 6},
	{Name: "+", Class: Infix, Left: TypeArith, Operand: TypeArith, Result: TypeArith, prec: 7},
	{Name: "-", Class: Infix, Left: TypeArith, Operand: TypeArith, Result: TypeArith, prec: 7},
	{Name: "*", Class: Infix, Left: TypeArith, Operand: TypeArith, Result: TypeArith, prec: 8},
	{Name: "/", Class: Infix, Left: TypeArith, Operand: TypeArith, Result: TypeArith, prec: 8},

	{Name: "!", Class: Prefix, Operand: TypeBool, Result: TypeBool, prec: 3, folds: true},
	{Name: "rising", Class: Prefix, Operand: TypeBool, Result: TypeBool, prec: 3},
	{Name: "falling", Class: Prefix, Operand: TypeBool, Result: TypeBool, prec: 3},
	{Name: "-", Class: Prefix, Operand: TypeArith, Result: TypeArith, prec: 9, folds: true, reduces: true},
	{Name: "rate", Class: Prefix, Operand: TypeArith, Result: TypeArith, prec: 9},
	{Name: "instant", Class: Prefix, Operand: TypeArith, Result: TypeArith, prec: 9, folds: true},

	{Name: "match_inst", Class: Matching, Operand: TypeBool},
	{Name: "nomatch_inst", Class: Matching, Operand: TypeBool},

	{Name: "some", Class: Quantifier, Operand: TypeBool},
	{Name: "all", Class: Quantifier, Operand: TypeBool},
	{Name: "%", Class: Quantifier, Operand: TypeBool},

	{Name: "sum", Class: Aggregate, Operand: TypeArith},
	{Name: "avg", Class: Aggregate, Operand: TypeArith},
	{Name: "max", Class: Aggregate, Operand: TypeArith},
	{Name: "min", Class: Aggregate, Operand: TypeArith},
	{Name: "count", Class: Aggregate, Operand: TypeBool},

	{Name: "shell", Class: ActionWord},
	{Name: "alarm", Class: ActionWord},
	{Name: "syslog", Class: ActionWord},
	{Name: "print", Class: ActionWord},
	{Name: "stomp", Class: ActionWord},
})

const (
	aexpStr = "arithmetic expression"
	bexpStr = "logical expression"
	actStr  = "action"
)

// typeWords is how pmie names what an operand must be.
func typeWords(t Type) string {
	switch t {
	case TypeArith:
		return aexpStr
	case TypeBool:
		return bexpStr
	case TypeAction:
		return actStr
	}
	return "arithmetic or string expression"
}

// completeOperators fills in what each operator's class decides.
func completeOperators(ops []*Operator) []*Operator {
	for _, op := range ops {
		completeOperator(op)
	}
	return ops
}

func completeOperator(op *Operator) {
	what := typeWords(op.Operand)
	switch op.Class {
	case Infix:
		op.follow = what
		if op.precede == "" {
			op.precede = typeWords(op.Left)
		}
	case Prefix:
		op.follow = what + " expected to follow " + op.Name
	case Matching:
		op.Result, op.prec, op.folds = TypeBool, 5, true
		op.follow = what + " expected to follow regular expression"
	case Quantifier:
		op.Result, op.prec = TypeBool, 4
		op.follow = what + " expected to follow quantifier"
	case Aggregate:
		op.Result, op.prec = TypeArith, 10
		op.follow = what + " expected to follow aggregation operator"
	case ActionWord:
		op.Result = TypeAction
		op.follow = "(time interval optional) and string expected to follow " + op.Name
	}
}

// The table's indexes.
var (
	infixOps  = indexOperators(func(op *Operator) string { return nameIf(op, Infix) })
	matchOps  = indexOperators(func(op *Operator) string { return nameIf(op, Matching) })
	actionOps = indexOperators(func(op *Operator) string { return nameIf(op, ActionWord) })
	// prefixOps are the prefix operators, and the aggregates and
	// quantifiers by their token ("sum_").
	prefixOps = indexOperators(func(op *Operator) string {
		if op.Class == Aggregate || op.Class == Quantifier {
			return op.Name + "_"
		}
		return nameIf(op, Prefix)
	})
	// domainWords are the words of aggregates and quantifiers, which the
	// scanner reads as one token before a domain.
	domainWords = wordsOf(func(op *Operator) bool { return op.Class == Aggregate || op.Class == Quantifier })
	// pmieReserved are the words that are operators or keywords, not
	// identifiers.
	pmieReserved = wordsOf(func(op *Operator) bool {
		return op.Class != Infix && op.Class != Aggregate && op.Class != Quantifier && isAlpha(op.Name[0])
	}, "true", "false", "ruleset", "else", "unknown", "otherwise")
)

// unaryOps maps the names of prefix operators to the syntax tree's.
var unaryOps = func() map[string]UnaryOp {
	m := map[string]UnaryOp{}
	for op, name := range unaryNames {
		m[name] = UnaryOp(op)
	}
	return m
}()

func nameIf(op *Operator, c OperatorClass) string {
	if op.Class == c {
		return op.Name
	}
	return ""
}

// indexOperators maps the operators by key, leaving out those it gives
// "" for.
func indexOperators(key func(*Operator) string) map[string]*Operator {
	m := map[string]*Operator{}
	for _, op := range pmieOperators {
		if k := key(op); k != "" {
			m[k] = op
		}
	}
	return m
}

// wordsOf is the set of the names of the operators in, and more.
func wordsOf(in func(*Operator) bool, more ...string) map[string]bool {
	m := map[string]bool{}
	for _, op := range pmieOperators {
		if in(op) {
			m[op.Name] = true
		}
	}
	for _, w := range more {
		m[w] = true
	}
	return m
}

// PmieOperators returns the operator table: every operator of pmie's rule
// language that lang parses, for the evaluator's table to be checked
// against.
func PmieOperators() []Operator {
	out := make([]Operator, len(pmieOperators))
	for i, op := range pmieOperators {
		out[i] = *op
	}
	return out
}

// pmieDomains are the domains an aggregate or quantifier ranges over.
var pmieDomains = map[string]Domain{"host": DomHost, "inst": DomInst, "sample": DomSample}

// isDomainWord reports whether s is an aggregate or quantifier with its
// domain, such as sum_inst (which the scanner never reads as a name).
func isDomainWord(s string) bool {
	w, d, ok := strings.Cut(s, "_")
	_, dom := pmieDomains[d]
	return ok && domainWords[w] && dom
}

// reach is every type an expression of type t can become by applying
// binary operators to it.
func reach(t Type) Type {
	switch t {
	case TypeArith:
		return TypeArith | TypeBool | TypeRule
	case TypeString:
		return TypeString | TypeBool | TypeRule
	case TypeBool:
		return TypeBool | TypeRule
	}
	return t
}

// binopOf returns the infix operator a token is, or nil.
func binopOf(t token) *Operator {
	if t.kind != tkPunct {
		return nil
	}
	return infixOps[t.val]
}

// prefixOf returns the prefix operator (or aggregate or quantifier) a
// token is, or nil.
func prefixOf(t token) *Operator {
	if t.kind == tkPunct && (t.val == "!" || t.val == "-") || t.kind == tkKeyword && t.val != "%_" {
		return prefixOps[t.val]
	}
	return nil
}

// pmieShift reports whether binary operator op continues an operand of
// type xt that is being parsed where a type in want is needed, inside a
// construct that binds with power prec. pmie's parser takes the operator
// when it can apply to the operand and either the operand cannot yet end
// the construct (it has the wrong type) or the operator binds tighter.
func pmieShift(op *Operator, xt, want Type, prec int) bool {
	if xt&op.Left == 0 || reach(op.Result)&want == 0 {
		return false
	}
	return xt&want == 0 || op.prec > prec
}

// parenTypes are the types a parenthesised expression can have where a
// type in want is needed. Strings and rulesets cannot be parenthesised.
func parenTypes(want Type) Type {
	var out Type
	for _, t := range []Type{TypeRule, TypeAction, TypeBool, TypeArith} {
		if reach(t)&want != 0 {
			out |= t
		}
	}
	return out
}

// precedeResult is the type of what pmie's recovery makes of a missing
// operand followed by op (an infix operator, or "%_"), or 0 if op is
// neither.
func precedeResult(op string) Type {
	if op == "%_" {
		return TypeBool
	}
	if o := infixOps[op]; o != nil {
		return o.Result
	}
	return 0
}

// precedeOK reports whether pmie's error recovery can find op after a
// missing left operand, where an operand of a type in want may start.
func precedeOK(op string, want Type) bool { return reach(precedeResult(op))&want != 0 }

// precedeMessage is what pmie says then.
func precedeMessage(op string) string {
	if op == "%_" {
		return "number expected to precede percentage quantifier"
	}
	return infixOps[op].precede + " expected to precede " + op
}
