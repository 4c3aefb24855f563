package lang

import (
	"fmt"
	"strconv"
	"strings"
)

// Dump renders a tree one node per line, indented by depth, with each
// node's kind, its details and its span (line:col-line:col). Golden tests
// compare dumps; the format is ours.
func Dump(n Node) string {
	var b strings.Builder
	dump(&b, n, 0)
	return b.String()
}

func dump(b *strings.Builder, n Node, depth int) {
	if n == nil {
		fmt.Fprintf(b, "%s<nil>\n", strings.Repeat("  ", depth))
		return
	}
	kind, detail, kids := describeNode(n)
	l := n.Where()
	fmt.Fprintf(b, "%s%s", strings.Repeat("  ", depth), kind)
	if detail != "" {
		b.WriteString(" " + detail)
	}
	fmt.Fprintf(b, " %v-%v", l.Span.Start, l.Span.End)
	if l.From != nil {
		fmt.Fprintf(b, " from $%s", l.From.Macro)
	}
	b.WriteByte('\n')
	for _, k := range kids {
		dump(b, k, depth+1)
	}
}

func describeNode(n Node) (kind, detail string, kids []Node) {
	switch n := n.(type) {
	case *Number:
		k := "int"
		if n.Kind == FloatNumber {
			k = "float"
		}
		detail = k + " " + n.Lit
		if n.Scale != nil {
			kids = append(kids, n.Scale)
		}
		return "Number", detail, kids
	case *String:
		return "String", strconv.Quote(n.Value), nil
	case *Metric:
		for _, q := range n.Hosts {
			kids = append(kids, q)
		}
		for _, q := range n.Insts {
			kids = append(kids, q)
		}
		if n.Samples != nil {
			kids = append(kids, n.Samples)
		}
		return "Metric", n.Name, kids
	case *Unary:
		return "Unary", strconv.Quote(n.Op.String()), []Node{n.X}
	case *Binary:
		return "Binary", strconv.Quote(n.Op.String()), []Node{n.X, n.Y}
	case *Paren:
		return "Paren", "", []Node{n.X}
	case *MatchInst:
		d := strconv.Quote(n.Pattern)
		if n.Negate {
			d = "! " + d
		}
		return "MatchInst", d, []Node{n.X}
	case *Ternary:
		return "Ternary", "", []Node{n.Cond, n.Then, n.Else}
	case *InstSelect:
		return "InstSelect", strconv.Quote(n.Inst), []Node{n.X}
	case *Call:
		for _, a := range n.Args {
			kids = append(kids, a)
		}
		return "Call", n.Func, kids
	case *MkConst:
		kids = append(kids, n.Value)
		for _, p := range n.Params {
			kids = append(kids, p)
		}
		return "MkConst", "", kids
	case *MkConstParam:
		v := n.Value
		if n.Quoted {
			v = strconv.Quote(v)
		}
		return "Param", n.Tag + "=" + v, nil
	}
	return describePmieNode(n)
}

func describePmieNode(n Node) (kind, detail string, kids []Node) {
	switch n := n.(type) {
	case *Scale:
		var words []string
		for _, t := range n.Terms {
			w := t.Word
			if t.Raised {
				w += "^" + strconv.Itoa(t.Power)
			}
			if t.Per {
				w = "/ " + w
			}
			words = append(words, w)
		}
		return "Scale", fmt.Sprintf("%q space=%d/%d time=%d/%d count=%d/%d", strings.Join(words, " "),
			n.DimSpace, n.ScaleSpace, n.DimTime, n.ScaleTime, n.DimCount, n.ScaleCount), nil
	case *Qualifier:
		k := map[bool]string{false: "Qualifier", true: "Qualifier quoted"}[n.Quoted]
		return k, strconv.Quote(n.Value), nil
	case *Samples:
		return "Samples", fmt.Sprintf("@%d..%d", n.From, n.To), nil
	case *Var:
		if n.Value != nil {
			kids = []Node{n.Value}
		}
		return "Var", "$" + n.Name, kids
	case *Bool:
		return "Bool", strconv.FormatBool(n.Value), nil
	case *Quant:
		k := n.Op
		if k == "%" {
			k = strconv.FormatFloat(n.Percent, 'g', -1, 64) + k
		}
		return "Quant", k + "_" + n.Dom.String(), []Node{n.X}
	case *Aggr:
		return "Aggr", n.Op + "_" + n.Dom.String(), []Node{n.X}
	case *Action:
		if n.Holdoff != nil {
			kids = append(kids, n.Holdoff)
		}
		for _, a := range n.Args {
			kids = append(kids, a)
		}
		return "Action", n.Op, kids
	case *Rule:
		return "Rule", "", []Node{n.Cond, n.Action}
	case *Ruleset:
		for _, r := range n.Rules {
			kids = append(kids, r)
		}
		if n.Unknown != nil {
			kids = append(kids, n.Unknown)
		}
		if n.Otherwise != nil {
			kids = append(kids, n.Otherwise)
		}
		d := ""
		if n.Unknown != nil {
			d += " unknown"
		}
		if n.Otherwise != nil {
			d += " otherwise"
		}
		return "Ruleset", strings.TrimSpace(d), kids
	case *Stmt:
		d := n.Kind.String()
		if n.Name != "" {
			d += " " + n.Name
		}
		return "Stmt", d, []Node{n.X}
	}
	return fmt.Sprintf("%T", n), "", nil
}
