package pmieconf

import (
	"fmt"
	"strconv"
	"strings"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// yesNo maps pmieconf's boolean words: anything starting 'y' or 'n'.
func yesNo(s string) (bool, bool) {
	if strings.HasPrefix(s, "y") {
		return true, true
	}
	if strings.HasPrefix(s, "n") {
		return false, true
	}
	return false, false
}

func yesNoWord(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// validate checks a proposed value for a variable of type t, returning
// the value to keep (a percentage loses its '%') or what it should be.
func validate(t Type, value string) (string, string) {
	switch t {
	case TypeDouble:
		if _, n := strtod(value); n != len(value) {
			return value, "be a real number"
		}
	case TypeInteger:
		if _, n := strtol(value); n != len(value) {
			return value, "be an integer number"
		}
	case TypeUnsigned:
		if _, n := strtoul(value); n != len(value) {
			return value, "be a positive integer number"
		}
	case TypePercent:
		if i := strings.LastIndexByte(value, '%'); i >= 0 {
			value = value[:i]
		}
		if d, n := strtod(value); n != len(value) || d < 0 || d > 100 {
			return value, "be a percentage between 0.0 and 100.0"
		}
	case TypeHostlist, TypeInstlist:
		if !quotesClosed(value) {
			return value, "include a closing single quote"
		}
	}
	return value, ""
}

// quotesClosed reports whether every single-quoted word of a host or
// instance list is closed. Words are separated by white space and commas;
// in a quoted word a backslash protects the next character.
func quotesClosed(s string) bool {
	i := 0
	for {
		for i < len(s) && (!isGraph(int(s[i])) || s[i] == ',') {
			i++
		}
		if i == len(s) {
			return true
		}
		if s[i] != '\'' {
			for i < len(s) && isGraph(int(s[i])) && s[i] != ',' {
				i++
			}
			continue
		}
		for i++; i >= len(s) || s[i] != '\''; i++ {
			if i < len(s) && s[i] == '\\' {
				i++
			}
			if i >= len(s) {
				return false
			}
		}
		i++
	}
}

// shownLen is the most of a quoted string Shown gives: the length of
// pmieconf's token buffer, one more than the longest word of a rules file.
const shownLen = maxUnquoted

// Text is the variable's value as pmieconf writes it into pmie rules.
func (v *Var) Text() string { return v.valueString(false) }

// Shown is the variable's value as pmieconf shows it to people and keeps
// it in the saved-state block: strings and lists quoted, percentages
// with '%'.
func (v *Var) Shown() string { return v.valueString(true) }

func (v *Var) valueString(shown bool) string {
	data := v.Value
	if !v.HasValue {
		data = "(null)"
	}
	switch v.Type {
	case TypeString, TypeRule:
		if shown {
			// pmieconf quotes it into its token buffer, which cuts a
			// long one short, closing quote first
			return cut(`"`+data+`"`, shownLen+1)
		}
		return data
	case TypePrint, TypeShell, TypeAlarm, TypeSyslog:
		return yesNoWord(v.Enabled)
	case TypeHostlist, TypeInstlist:
		if shown {
			return `"` + data + `"`
		}
		key := byte(':')
		if v.Type == TypeInstlist {
			key = '#'
		}
		return pmieList(data, key)
	case TypeDouble:
		d, _ := strtod(data)
		return cG(d)
	case TypeInteger:
		n, _ := strtol(data)
		return strconv.FormatInt(n, 10)
	case TypeUnsigned:
		n, _ := strtoul(data)
		return strconv.FormatUint(n, 10)
	case TypePercent:
		d, _ := strtod(data)
		if shown {
			return cG(d) + "%"
		}
		return cG(d)
	}
	return ""
}

// pmieList writes a white-space separated list of hosts or instances as
// pmie wants them, each word as key'word' (":'moomba'", "#'sda'"). A word
// already in single quotes keeps its spaces.
func pmieList(data string, key byte) string {
	var b []byte
	start, quoted := true, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if isSpace(c) {
			if !quoted {
				if len(b) > 0 && b[len(b)-1] != '\'' {
					b = append(b, '\'')
				}
				start = true
			}
			b = append(b, c)
			continue
		}
		if start {
			b = append(b, key, '\'')
			if c != '\'' {
				quoted = false
			} else if !quoted {
				quoted, start = true, false
				continue // the word's own quote stands for ours
			}
		} else if c == '\'' {
			quoted = false
		}
		start = false
		b = append(b, c)
	}
	if len(b) > 0 && b[len(b)-1] != '\'' {
		b = append(b, '\'')
	}
	return string(b)
}

// attrValue is the value of an attribute keyword of a rule as "$name$"
// and "list rule name" see it; ok is false for keywords with no such
// value (version, predicate, enumerate), for help when there is none and
// for the summary of a rule that has none ("$name$" then looks for a
// variable of that name).
func attrValue(a attr, v *Var) (string, bool) {
	switch a {
	case attrHelp:
		return v.Help, v.HasHelp
	case attrModify:
		return yesNoWord(v.Modify), true
	case attrEnabled:
		return yesNoWord(v.Enabled), true
	case attrDisplay:
		return yesNoWord(v.Display), true
	case attrDefault:
		if v.Type.IsAction() {
			return yesNoWord(v.Enabled), true
		}
		return v.Value, v.HasValue
	}
	return "", false
}

// Bounds on "$var$" expansion, where pmieconf recurses until its stack
// runs out on a variable that refers to itself, or until its memory or
// the user's patience runs out on variables that each use the one after
// twice.
const (
	maxExpandDepth = 100
	maxExpandLen   = 1 << 20
	maxExpansions  = 1 << 16
)

// Expand replaces each "$name$" in s by the value of that attribute or
// variable of rule r (its own, else the global one), expanded again in
// turn. shown chooses Shown over Text for the values. "\$" is a '$'; an
// unclosed "$" is dropped.
func (s *Set) Expand(r *Rule, text string, shown bool) (string, error) {
	x := &expander{set: s, rule: r, shown: shown}
	return x.expand(text, 0)
}

type expander struct {
	set   *Set
	rule  *Rule
	shown bool
	steps int // variables expanded so far
}

func (x *expander) expand(text string, depth int) (string, error) {
	if depth > maxExpandDepth {
		return "", cerrorf("variable expansion in %s is too deep (does a variable refer to itself?)", x.rule.Name())
	}
	var b strings.Builder
	mark := -1
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\\' && i+1 < len(text) && text[i+1] == '$' {
			b.WriteByte('$')
			i++
			continue
		}
		if c != '$' {
			if mark < 0 {
				b.WriteByte(c)
			}
			continue
		}
		if mark < 0 {
			mark = i + 1
			continue
		}
		name := text[mark:i]
		mark = -1
		if x.steps++; x.steps > maxExpansions {
			return "", cerrorf("variable expansion in %s is too long", x.rule.Name())
		}
		val, ok := attrValue(lookupAttr(name), &x.rule.Self)
		if !ok {
			if val, ok = x.set.expandValue(x.rule, name, x.shown); !ok {
				return "", cerrorf("variable \"$%s$\" in %s is undefined", name, x.rule.Name())
			}
		}
		sub, err := x.expand(val, depth+1)
		if err != nil {
			return "", err
		}
		b.WriteString(sub)
		if b.Len() > maxExpandLen {
			return "", cerrorf("variable expansion in %s is too long", x.rule.Name())
		}
	}
	if mark >= 0 {
		b.WriteString(text[mark:])
	}
	return b.String(), nil
}

// expandValue is the value of "$name$" that is not an attribute: that
// of the first of the rule itself, its variables, then the global
// variables, so named that has one. A string (or rule summary) declared
// without a value has none in the text written to pmie, so a "$name$"
// naming it takes the next, or is undefined, as in pmieconf.
func (s *Set) expandValue(r *Rule, name string, shown bool) (string, bool) {
	has := func(v *Var) bool {
		return v.Name == name && (v.HasValue || shown || (v.Type != TypeString && v.Type != TypeRule))
	}
	if has(&r.Self) {
		return r.Self.valueString(shown), true
	}
	for _, vars := range [][]*Var{r.Vars, s.Globals().Vars} {
		for _, v := range vars {
			if has(v) {
				return v.valueString(shown), true
			}
		}
	}
	return "", false
}
