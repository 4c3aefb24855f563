package eval

import "github.com/gopcp/pmie/lang"

// Op identifies what a node of a compiled expression computes. Everything
// the evaluator knows of an operator is in its row of the ops table below
// (pmie's name for it, the operator of lang's grammar that makes it, its
// operands and its implementation); no code depends on the order of the
// constants.
type Op uint8

// The operators. An aggregate or quantifier is one Op whatever domain it
// ranges over; the node holds the domain.
const (
	OpRule Op = iota
	OpFetch
	OpDelay
	OpRate
	OpInstant
	OpNeg
	OpAdd
	OpSub
	OpMul
	OpDiv
	OpEq
	OpEqStr
	OpNeq
	OpNeqStr
	OpLt
	OpLte
	OpGt
	OpGte
	OpNot
	OpRise
	OpFall
	OpAnd
	OpOr
	OpMatch
	OpNomatch
	OpRuleset
	OpOther
	OpSum
	OpAvg
	OpMax
	OpMin
	OpCount
	OpAll
	OpSome
	OpPcnt
	OpActSeq
	OpActAlt
	OpShell
	OpAlarm
	OpSyslog
	OpPrint
	OpStomp
	OpArg
	OpNop // a constant
	OpVar // a reserved variable such as $hour or $delta

	numOps
)

// opInfo is one row of the operator table.
type opInfo struct {
	// name is pmie's name for the operator in listings and messages; an
	// aggregate's or quantifier's adds the domain (sum_inst).
	name string
	// syntax is the operator of lang's grammar (lang.PmieOperators) that
	// the compiler turns into this one, and class its class there; ""
	// for nodes no operator of the language writes (fetches, constants,
	// the parts of rulesets and actions).
	syntax string
	class  lang.OperatorClass
	// operand is the kind of value the operator takes.
	operand lang.Type
	// eval chooses the node's evaluator for the shape of its operands;
	// nil for nodes that are not evaluated each cycle.
	eval chooser
	// reduce is an aggregate's or quantifier's reduction of a run of
	// members.
	reduce reducer
	// reshape says that the node's evaluator is chosen again when a
	// metric under it gets its metadata late (Builder.Retry).
	reshape bool
	// arith says that the operator refuses a metric of a non-numeric
	// type (pmie checks this for sum and avg only).
	arith bool
	// extremum says that the bindings of an aggregate's value are those
	// of the member holding it (max and min).
	extremum bool
}

// ops is the operator table, indexed by Op. An aggregate's row is its
// name, lang's name and class for it, the type of its operand, domainEval
// and its reducer: adding an aggregate is a row here, its Op constant and
// its reduction, with its name in lang's operator table (TestOperatorTable
// fails until both are there). The table is filled in init, as its
// evaluators refer back to it.
var ops [numOps]opInfo

func init() {
	ops = [numOps]opInfo{
		OpRule:    {name: "->", syntax: "->", class: lang.Infix, operand: lang.TypeBool | lang.TypeAction, eval: ruleChooser},
		OpFetch:   {name: "<fetch node>", eval: fetchChooser, reshape: true},
		OpDelay:   {name: "<delay node>", eval: single1(delay)},
		OpRate:    {name: "rate", syntax: "rate", class: lang.Prefix, operand: lang.TypeArith, eval: single1(rate)},
		OpInstant: {name: "instant", syntax: "instant", class: lang.Prefix, operand: lang.TypeArith, eval: unaryNum(same), reshape: true},
		OpNeg:     {name: "-", syntax: "-", class: lang.Prefix, operand: lang.TypeArith, eval: unaryNum(neg), reshape: true},
		OpAdd:     {name: "+", syntax: "+", class: lang.Infix, operand: lang.TypeArith, eval: arithChooser(OpAdd), reshape: true},
		OpSub:     {name: "-", syntax: "-", class: lang.Infix, operand: lang.TypeArith, eval: arithChooser(OpSub), reshape: true},
		OpMul:     {name: "*", syntax: "*", class: lang.Infix, operand: lang.TypeArith, eval: arithChooser(OpMul), reshape: true},
		OpDiv:     {name: "/", syntax: "/", class: lang.Infix, operand: lang.TypeArith, eval: arithChooser(OpDiv), reshape: true},
		OpEq:      {name: "==", syntax: "==", class: lang.Infix, operand: lang.TypeArith | lang.TypeString, eval: relChooser(OpEq), reshape: true},
		OpEqStr:   {name: "==<str>", eval: strCompare(true)},
		OpNeq:     {name: "!=", syntax: "!=", class: lang.Infix, operand: lang.TypeArith | lang.TypeString, eval: relChooser(OpNeq), reshape: true},
		OpNeqStr:  {name: "!=<str>", eval: strCompare(false)},
		OpLt:      {name: "<", syntax: "<", class: lang.Infix, operand: lang.TypeArith, eval: relChooser(OpLt), reshape: true},
		OpLte:     {name: "<=", syntax: "<=", class: lang.Infix, operand: lang.TypeArith, eval: relChooser(OpLte), reshape: true},
		OpGt:      {name: ">", syntax: ">", class: lang.Infix, operand: lang.TypeArith, eval: relChooser(OpGt), reshape: true},
		OpGte:     {name: ">=", syntax: ">=", class: lang.Infix, operand: lang.TypeArith, eval: relChooser(OpGte), reshape: true},
		OpNot:     {name: "!", syntax: "!", class: lang.Prefix, operand: lang.TypeBool, eval: unaryTruth(Not), reshape: true},
		OpRise:    {name: "rising", syntax: "rising", class: lang.Prefix, operand: lang.TypeBool, eval: single1(func(one bool) func(*Node) { return edge(true, one) }), reshape: true},
		OpFall:    {name: "falling", syntax: "falling", class: lang.Prefix, operand: lang.TypeBool, eval: single1(func(one bool) func(*Node) { return edge(false, one) }), reshape: true},
		OpAnd:     {name: "&&", syntax: "&&", class: lang.Infix, operand: lang.TypeBool, eval: logicalChooser(And, andOne), reshape: true},
		OpOr:      {name: "||", syntax: "||", class: lang.Infix, operand: lang.TypeBool, eval: logicalChooser(Or, orOne), reshape: true},
		OpMatch:   {name: "match_inst", syntax: "match_inst", class: lang.Matching, operand: lang.TypeBool, eval: fixed(matchInst), reshape: true},
		OpNomatch: {name: "nomatch_inst", syntax: "nomatch_inst", class: lang.Matching, operand: lang.TypeBool, eval: fixed(matchInst), reshape: true},
		OpRuleset: {name: "ruleset", eval: rulesetChooser},
		OpOther:   {name: "other"},

		OpSum:   {name: "sum", syntax: "sum", class: lang.Aggregate, operand: lang.TypeArith, eval: domainEval, reduce: reducer{num: sumOf, numRows: sumRows}, reshape: true, arith: true},
		OpAvg:   {name: "avg", syntax: "avg", class: lang.Aggregate, operand: lang.TypeArith, eval: domainEval, reduce: reducer{num: avgOf, numRows: avgRows}, reshape: true, arith: true},
		OpMax:   {name: "max", syntax: "max", class: lang.Aggregate, operand: lang.TypeArith, eval: domainEval, reduce: reducer{num: maxOf, numRows: maxRows}, reshape: true, extremum: true},
		OpMin:   {name: "min", syntax: "min", class: lang.Aggregate, operand: lang.TypeArith, eval: domainEval, reduce: reducer{num: minOf, numRows: minRows}, reshape: true, extremum: true},
		OpCount: {name: "count", syntax: "count", class: lang.Aggregate, operand: lang.TypeBool, eval: domainEval, reduce: reducer{count: countOf}},
		OpAll:   {name: "all", syntax: "all", class: lang.Quantifier, operand: lang.TypeBool, eval: domainEval, reduce: reducer{truth: allOf, truthRows: allRows}},
		OpSome:  {name: "some", syntax: "some", class: lang.Quantifier, operand: lang.TypeBool, eval: domainEval, reduce: reducer{truth: someOf, truthRows: someRows}},
		OpPcnt:  {name: "pcnt", syntax: "%", class: lang.Quantifier, operand: lang.TypeBool, eval: domainEval, reduce: reducer{truth: pcntOf, truthRows: pcntRows}},

		OpActSeq: {name: "&", syntax: "&", class: lang.Infix, operand: lang.TypeAction, eval: fixed(actSeq)},
		OpActAlt: {name: "|", syntax: "|", class: lang.Infix, operand: lang.TypeAction, eval: fixed(actAlt)},
		OpShell:  {name: "shell", syntax: "shell", class: lang.ActionWord, eval: fixed(actLeaf)},
		OpAlarm:  {name: "alarm", syntax: "alarm", class: lang.ActionWord, eval: fixed(actLeaf)},
		OpSyslog: {name: "syslog", syntax: "syslog", class: lang.ActionWord, eval: fixed(actLeaf)},
		OpPrint:  {name: "print", syntax: "print", class: lang.ActionWord, eval: fixed(actLeaf)},
		OpStomp:  {name: "stomp", syntax: "stomp", class: lang.ActionWord, eval: fixed(actLeaf)},
		OpArg:    {name: "<action arg node>"},
		OpNop:    {name: "<nop node>"},
		OpVar:    {name: "<op_var node>"},
	}
	makeDomainEvals()
	for op := range numOps {
		if s := ops[op].syntax; s != "" {
			bySyntax[syntaxKey{ops[op].class, s}] = op
		}
	}
}

// syntaxKey names an operator of lang's grammar.
type syntaxKey struct {
	class lang.OperatorClass
	name  string
}

// bySyntax maps the operators of lang's grammar to the evaluator's.
var bySyntax = map[syntaxKey]Op{}

// opOf returns the operator that lang's operator name of class makes.
func opOf(class lang.OperatorClass, name string) (Op, bool) {
	op, ok := bySyntax[syntaxKey{class, name}]
	return op, ok
}

// String is the name pmie gives op in listings and messages (an
// aggregate's or quantifier's without its domain).
func (op Op) String() string {
	if op < numOps {
		return ops[op].name
	}
	return "<unknown op>"
}

// overDomain reports whether op is an aggregate or quantifier, which range
// over a domain.
func (op Op) overDomain() bool {
	c := ops[op].class
	return c == lang.Aggregate || c == lang.Quantifier
}

// aggregate reports whether op maps a set to a value of lower dimension
// with an arithmetic result (sum, avg, max, min and count): pmie stops
// looking for bindings below such a node, and does not propagate instance
// changes through it.
func (op Op) aggregate() bool { return ops[op].class == lang.Aggregate }

// quantifier reports whether op maps a set of truths to a truth (all,
// some, N%).
func (op Op) quantifier() bool { return ops[op].class == lang.Quantifier }

// extremum reports whether op is a min_* or max_* aggregate, whose bindings
// are those of the member holding the extreme value.
func (op Op) extremum() bool { return ops[op].extremum }

// action reports whether op is one of the action leaves.
func (op Op) action() bool { return ops[op].class == lang.ActionWord && ops[op].syntax != "" }

// evaluable reports whether nodes with op are computed each cycle
// (constants and reserved variables are not).
func (op Op) evaluable() bool { return op != OpNop && op != OpVar }

// opName is the name of x's operator in listings: an aggregate's or
// quantifier's with its domain, as pmie names them (sum_inst, pcnt_host).
func (x *Node) opName() string {
	if x.Op.overDomain() {
		return x.Op.String() + "_" + x.dom.String()
	}
	return x.Op.String()
}
