package lang

// pmie's grammar is typed: arithmetic expressions, logical expressions,
// strings, actions, rules and rulesets are different things, and an
// operator only applies where its operands have the right type. These
// tables describe the operators, and pmieShift decides, as pmie's parser
// does, whether an operator continues the expression being parsed or ends
// it. The checker and the tree builder share them.

// ptype is a set of pmie expression types.
type ptype uint8

const (
	tArith   ptype = 1 << iota // arithmetic expression
	tBool                      // logical expression
	tStr                       // string
	tAct                       // action
	tRule                      // rule (cond -> action)
	tRuleset                   // ruleset

	tPexp = tArith | tStr                                   // either side of == and !=
	tAny  = tArith | tBool | tStr | tAct | tRule | tRuleset // a whole statement
)

// reach is every type an expression of type t can become by applying
// binary operators to it.
func reach(t ptype) ptype {
	switch t {
	case tArith:
		return tArith | tBool | tRule
	case tStr:
		return tStr | tBool | tRule
	case tBool:
		return tBool | tRule
	}
	return t
}

// pmieBinop describes a binary operator.
type pmieBinop struct {
	left, right ptype
	result      ptype
	prec        int
	follow      string // what pmie says when its right operand is missing
	precede     string // what pmie says when its left operand is missing
}

const (
	aexpStr = "arithmetic expression"
	bexpStr = "logical expression"
	actStr  = "action"
)

var pmieBinops = map[string]*pmieBinop{
	"->": {tBool, tAct, tRule, 1, actStr, bexpStr},
	"&&": {tBool, tBool, tBool, 2, bexpStr, bexpStr},
	"||": {tBool, tBool, tBool, 2, bexpStr, bexpStr},
	"&":  {tAct, tAct, tAct, 2, actStr, actStr},
	"|":  {tAct, tAct, tAct, 2, actStr, actStr},
	"==": {tPexp, tPexp, tBool, 6, "arithmetic or string expression", aexpStr},
	"!=": {tPexp, tPexp, tBool, 6, "arithmetic or string expression", aexpStr},
	"<":  {tArith, tArith, tBool, 6, aexpStr, aexpStr},
	">":  {tArith, tArith, tBool, 6, aexpStr, aexpStr},
	"<=": {tArith, tArith, tBool, 6, aexpStr, aexpStr},
	">=": {tArith, tArith, tBool, 6, aexpStr, aexpStr},
	"+":  {tArith, tArith, tArith, 7, aexpStr, aexpStr},
	"-":  {tArith, tArith, tArith, 7, aexpStr, aexpStr},
	"*":  {tArith, tArith, tArith, 8, aexpStr, aexpStr},
	"/":  {tArith, tArith, tArith, 8, aexpStr, aexpStr},
}

// binopOf returns the binary operator a token is, or nil.
func binopOf(t token) *pmieBinop {
	if t.kind != tkPunct {
		return nil
	}
	return pmieBinops[t.val]
}

// pmiePrefix describes a prefix operator: the type of its operand, its
// result and binding power, and what pmie says when the operand is missing.
type pmiePrefix struct {
	operand, result ptype
	prec            int
	follow          string
	folds           bool // pmie folds it when its operand is constant
}

var (
	prefixNot     = &pmiePrefix{tBool, tBool, 3, bexpStr + " expected to follow !", true}
	prefixRising  = &pmiePrefix{tBool, tBool, 3, bexpStr + " expected to follow rising", false}
	prefixFalling = &pmiePrefix{tBool, tBool, 3, bexpStr + " expected to follow falling", false}
	prefixQuant   = &pmiePrefix{tBool, tBool, 4, bexpStr + " expected to follow quantifier", false}
	prefixPercent = prefixQuant
	prefixMatch   = &pmiePrefix{tBool, tBool, 5, bexpStr + " expected to follow regular expression", true}
	prefixNeg     = &pmiePrefix{tArith, tArith, 9, aexpStr + " expected to follow -", true}
	prefixRate    = &pmiePrefix{tArith, tArith, 9, aexpStr + " expected to follow rate", false}
	prefixInstant = &pmiePrefix{tArith, tArith, 9, aexpStr + " expected to follow instant", true}
	prefixAggr    = &pmiePrefix{tArith, tArith, 10, aexpStr + " expected to follow aggregation operator", false}
	prefixCount   = &pmiePrefix{tBool, tArith, 10, bexpStr + " expected to follow aggregation operator", false}
)

// pmieShift reports whether binary operator op continues an operand of
// type xt that is being parsed where a type in want is needed, inside a
// construct that binds with power prec. pmie's parser takes the operator
// when it can apply to the operand and either the operand cannot yet end
// the construct (it has the wrong type) or the operator binds tighter.
func pmieShift(op *pmieBinop, xt, want ptype, prec int) bool {
	if xt&op.left == 0 || reach(op.result)&want == 0 {
		return false
	}
	return xt&want == 0 || op.prec > prec
}

// parenTypes are the types a parenthesised expression can have where a
// type in want is needed. Strings and rulesets cannot be parenthesised.
func parenTypes(want ptype) ptype {
	var out ptype
	for _, t := range []ptype{tRule, tAct, tBool, tArith} {
		if reach(t)&want != 0 {
			out |= t
		}
	}
	return out
}

// precedeTokens are the operators pmie's error recovery can find after a
// missing left operand, where an operand of a type in want may start.
func precedeOK(op string, want ptype) bool {
	switch op {
	case "->":
		return want&tRule != 0
	case "&", "|":
		return want&tAct != 0
	case "&&", "||", "%_", "==", "!=", "<", ">", "<=", ">=":
		return want&(tBool|tRule) != 0
	case "+", "-", "*", "/":
		return want&(tArith|tBool|tRule) != 0
	}
	return false
}

// precedeResult is the type of what pmie's recovery makes of a missing
// operand followed by op.
func precedeResult(op string) ptype {
	switch op {
	case "->":
		return tRule
	case "&", "|":
		return tAct
	case "+", "-", "*", "/":
		return tArith
	}
	return tBool
}

// precedeMessage is what pmie says then.
func precedeMessage(op string) string {
	if op == "%_" {
		return "number expected to precede percentage quantifier"
	}
	return pmieBinops[op].precede + " expected to precede " + op
}
