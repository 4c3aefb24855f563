package lang

import (
	"strconv"
	"strings"
)

// Printing pmie trees. Text that came from macros is printed expanded.

// pmiePrec is pmie's binding powers, from the operator table.
var pmiePrec = precTable{
	binary: func() map[BinaryOp]int {
		m := map[BinaryOp]int{}
		for name, op := range infixOps {
			if b, ok := binaryOps[name]; ok {
				m[b] = op.prec
			}
		}
		return m
	}(),
	prefix:  func(u Unary) int { return prefixOps[u.Op.String()].prec },
	ternary: 0,
}

// pmie's binding powers of the nodes it has that derived metrics do not.
var (
	precRule  = infixOps["->"].prec
	precQuant = prefixOps["some_"].prec
	precMatch = matchOps["match_inst"].prec
	precAggr  = prefixOps["sum_"].prec
)

// FormatPmie prints a pmie expression.
func FormatPmie(x Expr) string {
	p := &printer{prec: pmiePrec, pmie: true}
	p.expr(x, 0, 0)
	return p.b.String()
}

// FormatStmt prints a pmie statement, with its name if it was written
// and the closing ";".
func FormatStmt(s *Stmt) string {
	x := FormatPmie(s.X)
	if s.Anonymous || s.Name == "" {
		return x + ";"
	}
	return quoteIdent(s.Name) + " = " + x + ";"
}

// FormatFile prints every statement of a rule file, one per line.
func FormatFile(f *File) string {
	var b strings.Builder
	for _, s := range f.Stmts {
		b.WriteString(FormatStmt(s) + "\n")
	}
	return b.String()
}

// pmieNodePrec is how tightly a pmie-only node binds, and for prefix-like
// nodes how far their operand reaches.
func pmieNodePrec(x Expr) (prec int, prefix bool) {
	switch x.(type) {
	case *Rule:
		return precRule, false
	case *Quant:
		return precQuant, true
	case *MatchInst:
		return precMatch, true
	case *Aggr:
		return precAggr, true
	}
	return atomPrec, false
}

// pmieNode prints the nodes only pmie has (in a derived-metric tree there
// are none).
func (p *printer) pmieNode(x Expr, next int) {
	if !p.pmie {
		p.b.WriteString("<" + typeName(x) + ">")
		return
	}
	switch x := x.(type) {
	case *Rule:
		p.expr(x.Cond, precRule+1, precRule)
		p.b.WriteString(" -> ")
		p.expr(x.Action, precRule+1, 0)
	case *Quant:
		if x.Op == "%" {
			p.b.WriteString(strconv.FormatFloat(x.Percent, 'f', -1, 64)) // pmie reads no exponent before %
		}
		p.b.WriteString(x.Op + "_")
		p.b.WriteString(x.Dom.String() + " ")
		p.expr(x.X, precQuant+1, next)
	case *Aggr:
		p.b.WriteString(x.Op + "_" + x.Dom.String() + " ")
		p.expr(x.X, precAggr+1, next)
	case *MatchInst:
		w := "match_inst "
		if x.Negate {
			w = "nomatch_inst "
		}
		p.b.WriteString(w + quoteString(x.Pattern) + " ")
		p.expr(x.X, precMatch+1, next)
	case *Var:
		p.b.WriteString("$" + x.Name)
	case *Bool:
		p.b.WriteString(strconv.FormatBool(x.Value))
	case *Action:
		p.b.WriteString(x.Op)
		if x.Holdoff != nil {
			p.b.WriteString(" " + numberSource(x.Holdoff))
		}
		for _, a := range x.Args {
			p.b.WriteString(" " + quoteString(a.Value))
		}
	case *Ruleset:
		p.b.WriteString("ruleset ")
		for i, r := range x.Rules {
			if i > 0 {
				p.b.WriteString(" else ")
			}
			p.expr(r, 0, 0)
		}
		if x.Unknown != nil {
			p.b.WriteString(" unknown -> ")
			p.expr(x.Unknown, 0, 0)
		}
		if x.Otherwise != nil {
			p.b.WriteString(" otherwise -> ")
			p.expr(x.Otherwise, 0, 0)
		}
	default:
		p.b.WriteString("<" + typeName(x) + ">")
	}
}

// pmieLeaf prints the leaves whose pmie form differs from derived metrics'.
func (p *printer) pmieLeaf(x Expr) bool {
	switch x := x.(type) {
	case *Number:
		p.b.WriteString(numberSource(x))
	case *String:
		p.b.WriteString(quoteString(x.Value))
	case *Metric:
		p.b.WriteString(quoteIdent(x.Name))
		for _, q := range x.Hosts {
			p.b.WriteString(" :" + qualText(q))
		}
		for _, q := range x.Insts {
			p.b.WriteString(" #" + qualText(q))
		}
		if s := x.Samples; s != nil {
			p.b.WriteString(" @" + strconv.Itoa(s.From))
			if s.Range {
				p.b.WriteString(".." + strconv.Itoa(s.To))
			}
		}
	default:
		return false
	}
	return true
}

func qualText(q *Qualifier) string {
	if q.Quoted {
		return quoteQuoted(q.Value)
	}
	return quoteIdent(q.Value)
}

// quoteIdent writes a name as pmie reads it: bare when it can be, else in
// single quotes.
func quoteIdent(s string) string {
	if s != "" && (isAlpha(s[0]) || s[0] == '%') {
		plain := true
		for i := 0; i < len(s) && plain; i++ {
			c := s[i]
			plain = isAlnum(c) || c == '.' || c == '_'
		}
		_, unit := unitWords[strings.TrimSuffix(s, "s")]
		if plain && !unit && !pmieReserved[s] && !isDomainWord(s) {
			return s
		}
	}
	return quoteQuoted(s)
}

// quoteQuoted writes s as a 'quoted' pmie identifier, where a backslash
// escapes the next character and $ would start a macro.
func quoteQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\\' || c == '\'' || c == '$' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('\'')
	return b.String()
}

// quoteString writes a pmie string literal.
func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '$':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func numberSource(n *Number) string {
	s := n.Lit
	if s == "" {
		s = strconv.FormatFloat(n.Float, 'g', -1, 64)
		s = strings.Replace(s, "e+", "e", 1)
	}
	if n.Scale == nil {
		return s
	}
	for _, t := range n.Scale.Terms {
		if t.Per {
			s += " /"
		}
		s += " " + t.Word
		if t.Raised {
			s += "^" + strconv.Itoa(t.Power)
		}
	}
	return s
}
