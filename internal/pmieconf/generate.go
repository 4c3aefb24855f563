package pmieconf

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
)

// The marks a generated pmie file is laid out by.
const (
	savedMagic   = "pmieconf-pmie"
	savedVersion = "1"
	startLine    = "// --- START GENERATED SECTION (do not change this section) ---\n"
	endLine      = "// --- END GENERATED SECTION (changes below will be preserved) ---\n"
)

// Ctime is time.Format's layout for C's ctime(3), without its newline.
const Ctime = "Mon Jan _2 15:04:05 2006"

// Generate writes the pmie configuration file for the set: the block of
// saved changes, the generated rules of every enabled rule, and the text
// kept from after the generated section of the file read back. program
// and now are named in its header ("Auto-generated" if auto). Warnings
// about actions that cannot be expanded go to warn, as pmieconf prints
// them and carries on.
func (s *Set) Generate(w io.Writer, program string, auto bool, now time.Time, warn io.Writer) error {
	bw := bufio.NewWriter(w)
	err := s.generate(bw, program, auto, now, warn)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

func (s *Set) generate(w *bufio.Writer, program string, auto bool, now time.Time, warn io.Writer) error {
	fmt.Fprintf(w, "// %s %s %s\n", savedMagic, savedVersion, s.Path)
	for _, r := range s.Rules {
		r.writeChanges(w)
	}
	w.WriteString("// end\n//\n")
	by := "    generated"
	if auto {
		by = "Auto-generated"
	}
	fmt.Fprintf(w, "%s// %s by %s on:  %s\n//\n\n", startLine, by, program, now.Format(Ctime))
	for _, r := range s.Rules[1:] {
		if err := s.writeRule(w, r, warn); err != nil {
			return err
		}
	}
	w.WriteString(endLine)
	w.WriteString(s.saved)
	return nil
}

// writeChanges writes the saved-state lines for what differs from the
// rules files.
func (r *Rule) writeChanges(w *bufio.Writer) {
	if r.Self.Changed {
		if r.Self.Type == TypeRule {
			fmt.Fprintf(w, "// %d %s enabled = %s\n", r.Version, r.Name(), yesNoWord(r.Self.Enabled))
		} else {
			// Only the global pseudo-rule gets here; pmieconf strips
			// "global." from its name, leaving nothing.
			fmt.Fprintf(w, "// %d %s %s = %s\n", r.Version, r.Name(), promotedName(r.Name()), r.Self.Shown())
		}
	}
	for _, v := range r.Vars {
		if v.Changed {
			fmt.Fprintf(w, "// %d %s %s = %s\n", r.Version, r.Name(), v.Name, v.Shown())
		}
	}
}

// writeRule writes the pmie rules for one enabled rule: one, or one for
// each combination of the values of its enumerate variables.
func (s *Set) writeRule(w *bufio.Writer, r *Rule, warn io.Writer) error {
	if !r.Self.Enabled {
		return nil
	}
	if !r.HasEnumerate {
		s.writeOne(w, r, 0, warn)
		return nil
	}
	vars, err := s.enumerated(r)
	if err != nil {
		return err
	}
	lists := make([][]string, len(vars))
	for i, v := range vars {
		text, err := s.Expand(r, v.Value, false)
		if err != nil {
			return err
		}
		lists[i] = listItems(text)
	}
	count := 0
	choice := make([]string, len(vars))
	var walk func(k int)
	walk = func(k int) {
		if k < len(vars) {
			for _, item := range lists[k] {
				choice[k] = item
				walk(k + 1)
			}
			return
		}
		saved := make([]string, len(vars))
		for i, v := range vars {
			saved[i] = v.Value
			v.Value = choice[i]
		}
		if s.writeOne(w, r, count, warn) {
			count++
		}
		for i, v := range vars {
			v.Value = saved[i]
		}
	}
	walk(0)
	return nil
}

// enumerated finds the variables an enumerate attribute names.
func (s *Set) enumerated(r *Rule) ([]*Var, error) {
	var vars []*Var
	for _, name := range enumerateWords(r.Enumerate) {
		if lookupAttr(name) != attrNone {
			return nil, cerrorf("cannot enumerate rule %s using attribute \"%s\"", r.Name(), name)
		}
		v := s.findVar(r, name)
		if v == nil {
			return nil, cerrorf("variable \"%s\" undefined for enumerated rule %s", name, r.Name())
		}
		if v.Type != TypeHostlist && v.Type != TypeInstlist {
			return nil, cerrorf("rules file error - \"$%s$\" in \"enumerate\" clause of rule %s is not of type hostlist or instlist", name, r.Name())
		}
		vars = append(vars, v)
	}
	return vars, nil
}

// enumerateWords splits an enumerate attribute into its words as
// pmieconf does: a word ends at white space after it, and whatever has
// been gathered (even nothing) is a word at the end of the text.
func enumerateWords(s string) []string {
	var words []string
	var cur []byte
	pending := false
	for i := 0; i < len(s); i++ {
		if !isSpace(s[i]) {
			pending = true
			cur = append(cur, s[i])
		}
		if end := i+1 == len(s); end || (isSpace(s[i+1]) && pending) {
			words = append(words, string(cur))
			cur, pending = cur[:0], false
		}
	}
	return words
}

// listItems splits a host or instance list into its items at white space
// outside single quotes; a backslash protects the next character. The
// first item starts at the start of the text, even if that is a space.
func listItems(s string) []string {
	var items []string
	start, inQuote, between := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSpace(c) && !inQuote {
			if !between {
				items = append(items, s[start:i])
			}
			between = true
			continue
		}
		if between {
			start, between = i, false
		}
		if c == '\\' {
			i++
		} else if c == '\'' {
			inQuote = !inQuote
		}
	}
	if !between {
		items = append(items, s[start:])
	}
	return items
}

// writeOne writes one pmie rule; n > 0 numbers the later rules of an
// enumeration. A rule whose delta or predicate cannot be expanded is left
// out, as pmieconf leaves it, and writeOne reports false.
func (s *Set) writeOne(w *bufio.Writer, r *Rule, n int, warn io.Writer) bool {
	var delta string
	var err error
	if n == 0 {
		if delta, err = s.Expand(r, "$delta$", false); err != nil {
			return false
		}
	}
	pred, err := s.Expand(r, r.Predicate, false)
	if err != nil {
		return false
	}
	if n == 0 {
		fmt.Fprintf(w, "// %d %s\ndelta = %s;\n%s = \n", r.Version, r.Name(), delta, r.Name())
	} else {
		fmt.Fprintf(w, "%s%d = \n", r.Name(), n)
	}
	w.WriteString(pred)
	actions := 0
	for _, v := range r.Vars {
		actions = s.writeAction(w, r, v, actions, warn)
	}
	for _, v := range s.Globals().Vars {
		actions = s.writeAction(w, r, v, actions, warn)
	}
	w.WriteString(";\n\n")
	return true
}

// writeAction writes one action of a rule if it is on, after the
// actions already written.
func (s *Set) writeAction(w *bufio.Writer, r *Rule, v *Var, written int, warn io.Writer) int {
	if !v.Type.IsAction() || !v.Enabled {
		return written
	}
	holdoff, err := s.Expand(r, " $holdoff$ ", false)
	if err != nil {
		return written
	}
	if written == 0 {
		w.WriteString(" -> ")
	} else {
		w.WriteString("\n  & ")
	}
	w.WriteString(v.Type.String() + holdoff)
	text, err := s.Expand(r, v.Value, false)
	if err != nil {
		fmt.Fprintf(warn, "Warning - failed to expand action for rule %s\n  string: \"%s\"\n", r.Name(), v.Value)
		text = ""
	}
	w.WriteString(`"` + splitArgs(text) + `"`)
	return written + 1
}

// splitArgs turns each '^' of an action's text into a break between
// pmie action arguments (`" "`); "/^" stays, and the character after it
// is dropped, as pmieconf drops it.
func splitArgs(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '/' && i+1 < len(text) && text[i+1] == '^':
			b.WriteString("/^")
			i += 2
		case text[i] == '^':
			b.WriteString(`" "`)
		default:
			b.WriteByte(text[i])
		}
	}
	return b.String()
}
