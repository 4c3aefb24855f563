package pmieconf

import "strings"

// A change to a rule's value comes from a command or from the saved-state
// block of a generated file; pmieconf words its complaints for each.
type changeSource interface {
	// invalid says the value was not what was expected.
	invalid(expected, found string) error
}

// fromInput words complaints about a command's arguments.
type fromInput struct{}

func (fromInput) invalid(expected, found string) error {
	return cerrorf("input is invalid - expected %.60s, got \"%.60s\"", expected, found)
}

// fromFile words complaints about a line of a generated file.
type fromFile struct {
	name string
	line int
}

func (f fromFile) invalid(expected, found string) error {
	return cerrorf("file parsing error.\n    line number: %d (\"%s\")\n    expected: %.60s\n    found: %.60s",
		f.line, f.name, expected, found)
}

// invalidValue is pmieconf's complaint about a value of the wrong type.
func invalidValue(name, should string) error {
	return cerrorf("%s's value is invalid.\n    It should %s.", name, should)
}

// promotedName is the name pmieconf gives a rule's new copy of a global
// variable in its complaints: it strips "global." from a name that no
// longer has it, leaving what follows the first seven characters.
func promotedName(name string) string {
	if len(name) <= len(globalPrefix) {
		return ""
	}
	return name[len(globalPrefix):]
}

// set changes attribute a of v (the value itself for attrDefault),
// marking it changed.
func (v *Var) set(a attr, value, name string, src changeSource) error {
	switch a {
	case attrHelp:
		if !hasGraph(value) {
			return src.invalid("non-empty string for help", value)
		}
		v.Help, v.HasHelp = value, true
	case attrModify, attrEnabled, attrDisplay:
		on, ok := yesNo(value)
		if !ok {
			return src.invalid("yes or no", value)
		}
		switch a {
		case attrModify:
			v.Modify = on
		case attrEnabled:
			v.Enabled = on
		default:
			v.Display = on
		}
	case attrDefault:
		if v.Type.IsAction() {
			on, ok := yesNo(value)
			if !ok {
				return src.invalid("yes or no", value)
			}
			v.Enabled = on
			break
		}
		val, should := validate(v.Type, value)
		if should != "" {
			return invalidValue(name, should)
		}
		v.Value, v.HasValue = val, true
	}
	v.Changed = true
	return nil
}

// change sets variable (or attribute) name of rule r to value: the
// rule's own variable, else a copy of the global one made for the rule.
func (s *Set) change(r *Rule, name, value string, src changeSource) error {
	if a := lookupAttr(name); a != attrNone {
		return r.Self.set(a, value, name, src)
	}
	if v := r.own(name); v != nil {
		return v.set(attrDefault, value, name, src)
	}
	if g := s.Globals().own(name); g != nil {
		v := r.promote(g)
		return v.set(attrDefault, value, promotedName(v.Name), src)
	}
	return cerrorf("variable \"%s\" is undefined for rule %s", name, r.Name())
}

// Change sets a rule's variable, or its enabled attribute, to value, as
// "modify rule variable value" does. It returns the value the next rule
// of the same command gets: pmieconf checks a percentage by cutting the
// command's own copy of it at its last '%', so after a percent variable
// the rules that follow see "50%" as "50" (and a double takes "5%0" as
// 5).
func (s *Set) Change(r *Rule, name, value string) (string, error) {
	next := value
	if lookupAttr(name) == attrNone {
		if v := s.findVar(r, name); v != nil && v.Type == TypePercent {
			if i := strings.LastIndexByte(value, '%'); i >= 0 {
				next = value[:i]
			}
		}
	}
	return next, s.change(r, name, value, fromInput{})
}

// ResetVar returns one variable of rule r to the rules file's value, as
// "undo rule variable" does (any attribute keyword resets whether the
// rule is enabled). A rule's copy of a global variable is dropped; so is
// a global variable reset by name in the global rule. A name that names
// nothing (the empty one too) changes nothing.
func (s *Set) ResetVar(r *Rule, name string) {
	if lookupAttr(name) != attrNone {
		r.Self.Enabled, r.Self.Changed = r.Self.DefaultEnabled, false
		return
	}
	if r != s.Globals() && r.Name() == name {
		r.Self.reset(name)
		return
	}
	for i, v := range r.Vars {
		if v.Name != name {
			continue
		}
		if v.Global {
			r.Vars = append(r.Vars[:i:i], r.Vars[i+1:]...)
		} else {
			v.reset(name)
		}
		return
	}
}

// Reset returns rule r to the rules file's values, as "undo rule" does:
// the rule's copies of global variables are dropped.
func (s *Set) Reset(r *Rule) error {
	if r == s.Globals() {
		// pmieconf crashes here, freeing the pseudo-rule's name.
		return cerror("cannot undo the global variables as a whole")
	}
	r.Self.reset(r.Name())
	kept := r.Vars[:0]
	for _, v := range r.Vars {
		a := lookupAttr(v.Name)
		if v.Global && (a == attrNone || a == attrEnabled) {
			continue
		}
		kept = append(kept, v)
		v.reset(v.Name)
	}
	r.Vars = kept
	return nil
}

// reset returns one variable to its rules-file value; name is the name
// pmieconf takes it by: a variable named as an attribute keyword has just
// that attribute reset, and only "enabled" can be.
func (v *Var) reset(name string) {
	switch lookupAttr(name) {
	case attrEnabled:
		v.Enabled, v.Changed = v.DefaultEnabled, false
	case attrNone:
		v.Value, v.Enabled, v.Changed = v.Default, v.DefaultEnabled, false
	}
}
