package pmieconf

import (
	"fmt"
	"io"
	"strings"
)

// nonEmptyLines splits text at newlines, dropping empty lines as
// strtok(3) does.
func nonEmptyLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func printHelp(w io.Writer, help string, has bool) {
	if !has {
		io.WriteString(w, "  help: No help available.\n")
		return
	}
	for i, l := range nonEmptyLines(help) {
		if i == 0 {
			fmt.Fprintf(w, "  help: %s\n", l)
		} else {
			fmt.Fprintf(w, "\t%s\n", l)
		}
	}
}

func printPredicate(w io.Writer, pred string) {
	io.WriteString(w, "\tpredicate = \n")
	for _, l := range nonEmptyLines(pred) {
		fmt.Fprintf(w, "\t  %s\n", l)
	}
}

// printSummary prints a rule's name and expanded summary; nothing if the
// summary cannot be expanded.
func (s *Set) printSummary(w io.Writer, r *Rule, prefix string) {
	text, err := s.Expand(r, r.Self.Value, false)
	if err != nil {
		return
	}
	fmt.Fprintf(w, "%s%s  [%s]\n", prefix, r.Name(), text)
}

// printRule prints a rule as "list rule" does; verbose adds the global
// variables the rule does not override, marked "(*)".
func (s *Set) printRule(w io.Writer, r *Rule, verbose bool) {
	s.printSummary(w, r, "  rule: ")
	if r.Self.HasHelp {
		printHelp(w, r.Self.Help, true)
	}
	global := r == s.Globals()
	if !global {
		printPredicate(w, r.Predicate)
		fmt.Fprintf(w, "  vars: enabled = %s\n", yesNoWord(r.Self.Enabled))
	}
	first := true
	for _, v := range r.Vars {
		if !v.Display {
			continue
		}
		lead := "\t"
		if global && first {
			lead = "  vars: "
		}
		fmt.Fprintf(w, "%s%s = %s\n", lead, v.Name, v.Shown())
		first = false
	}
	if verbose && !global {
		for _, g := range s.Globals().Vars {
			if !r.overrides(g) {
				fmt.Fprintf(w, "\t%s = %s (*)\n", g.Name, g.Shown())
			}
		}
	}
}

// printVar prints one attribute or variable of a rule, its value or (for
// help) its help text.
func (s *Set) printVar(w io.Writer, r *Rule, name string, help bool) error {
	global := r == s.Globals()
	switch a := lookupAttr(name); {
	case a == attrPredicate && !global:
		printPredicate(w, r.Predicate)
		return nil
	case a == attrHelp:
		printHelp(w, r.Self.Help, r.Self.HasHelp)
		return nil
	case a != attrNone && !global:
		if help {
			fmt.Fprintf(w, "   var: %s\n  help: No help available.\n", name)
			return nil
		}
		val, ok := attrValue(a, &r.Self)
		if !ok {
			val = "(null)"
		}
		fmt.Fprintf(w, "\t%s = %s\n", name, val)
		return nil
	}
	v := s.findVar(r, name)
	if v == nil {
		// printed whole: pmieconf says this one without its buffer
		return cerror(sprintf("variable \"%s\" is undefined for rule %s", name, r.Name()))
	}
	if help {
		fmt.Fprintf(w, "   var: %s\n", name)
		printHelp(w, v.Help, v.HasHelp)
	} else {
		fmt.Fprintf(w, "\t%s = %s\n", name, v.Shown())
	}
	return nil
}
