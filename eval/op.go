package eval

// Op identifies what a node of a compiled expression computes. The set and
// the printed names follow pmie's operators, since -d listings, archive-mode
// action reports and error messages print them.
type Op uint8

// The operators. Aggregates and quantifiers come in host, instance and
// sample (time) flavours, in that order, so that Dom arithmetic works.
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

	OpSumHost
	OpSumInst
	OpSumTime
	OpAvgHost
	OpAvgInst
	OpAvgTime
	OpMaxHost
	OpMaxInst
	OpMaxTime
	OpMinHost
	OpMinInst
	OpMinTime

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

	OpAllHost
	OpAllInst
	OpAllTime
	OpSomeHost
	OpSomeInst
	OpSomeTime
	OpPcntHost
	OpPcntInst
	OpPcntTime
	OpCountHost
	OpCountInst
	OpCountTime

	OpActSeq
	OpActAlt
	OpShell
	OpAlarm
	OpSyslog
	OpPrint
	OpArg
	OpStomp

	OpNop // a constant
	OpVar // a reserved variable such as $hour or $delta

	numOps
)

// Dom is the dimension an aggregate or quantifier works along.
type Dom uint8

// The three dimensions of a value set.
const (
	DomHost Dom = 0
	DomInst Dom = 1
	DomTime Dom = 2
)

// String is pmie's suffix for d.
func (d Dom) String() string {
	switch d {
	case DomHost:
		return "host"
	case DomInst:
		return "inst"
	case DomTime:
		return "sample"
	}
	return "?"
}

var opNames = [numOps]string{
	OpRule:      "->",
	OpFetch:     "<fetch node>",
	OpDelay:     "<delay node>",
	OpRate:      "rate",
	OpInstant:   "instant",
	OpNeg:       "-",
	OpAdd:       "+",
	OpSub:       "-",
	OpMul:       "*",
	OpDiv:       "/",
	OpSumHost:   "sum_host",
	OpSumInst:   "sum_inst",
	OpSumTime:   "sum_sample",
	OpAvgHost:   "avg_host",
	OpAvgInst:   "avg_inst",
	OpAvgTime:   "avg_sample",
	OpMaxHost:   "max_host",
	OpMaxInst:   "max_inst",
	OpMaxTime:   "max_sample",
	OpMinHost:   "min_host",
	OpMinInst:   "min_inst",
	OpMinTime:   "min_sample",
	OpEq:        "==",
	OpEqStr:     "==<str>",
	OpNeq:       "!=",
	OpNeqStr:    "!=<str>",
	OpLt:        "<",
	OpLte:       "<=",
	OpGt:        ">",
	OpGte:       ">=",
	OpNot:       "!",
	OpRise:      "rising",
	OpFall:      "falling",
	OpAnd:       "&&",
	OpOr:        "||",
	OpMatch:     "match_inst",
	OpNomatch:   "nomatch_inst",
	OpRuleset:   "ruleset",
	OpOther:     "other",
	OpAllHost:   "all_host",
	OpAllInst:   "all_inst",
	OpAllTime:   "all_sample",
	OpSomeHost:  "some_host",
	OpSomeInst:  "some_inst",
	OpSomeTime:  "some_sample",
	OpPcntHost:  "pcnt_host",
	OpPcntInst:  "pcnt_inst",
	OpPcntTime:  "pcnt_sample",
	OpCountHost: "count_host",
	OpCountInst: "count_inst",
	OpCountTime: "count_sample",
	OpActSeq:    "&",
	OpActAlt:    "|",
	OpShell:     "shell",
	OpAlarm:     "alarm",
	OpSyslog:    "syslog",
	OpPrint:     "print",
	OpArg:       "<action arg node>",
	OpStomp:     "stomp",
	OpNop:       "<nop node>",
	OpVar:       "<op_var node>",
}

// String is the name pmie gives op in listings and messages.
func (op Op) String() string {
	if op < numOps {
		return opNames[op]
	}
	return "<unknown op>"
}

// domainOf returns the dimension of an aggregate or quantifier op.
func (op Op) domainOf() Dom {
	switch {
	case op >= OpSumHost && op <= OpMinTime:
		return Dom((op - OpSumHost) % 3)
	case op >= OpAllHost && op <= OpCountTime:
		return Dom((op - OpAllHost) % 3)
	}
	return DomHost
}

// aggregate reports whether op maps a set to a value of lower dimension
// with an arithmetic result (sum, avg, max, min and count): pmie stops
// looking for bindings below such a node, and does not propagate instance
// changes through it.
func (op Op) aggregate() bool {
	return (op >= OpSumHost && op <= OpMinTime) ||
		(op >= OpCountHost && op <= OpCountTime)
}

// extremum reports whether op is a min_* or max_* aggregate, whose bindings
// are those of the member holding the extreme value.
func (op Op) extremum() bool {
	return op >= OpMaxHost && op <= OpMinTime
}

// action reports whether op is one of the action leaves.
func (op Op) action() bool {
	switch op {
	case OpShell, OpAlarm, OpSyslog, OpPrint, OpStomp:
		return true
	}
	return false
}

// evaluable reports whether nodes with op are computed each cycle
// (constants and reserved variables are not).
func (op Op) evaluable() bool { return op < OpNop }
