package pmieconf

import "strings"

// The global pseudo-rule: the first rule of every Set, holding the
// variables declared as "global.name", which every rule may use.
const (
	globalName    = "global"
	globalPrefix  = "global."
	globalSummary = "generic variables applied to all rules"
	globalHelp    = "The global variables are used by all rules, but their values can be\n" +
		"overridden at the level of an individual rule or group of rules."
)

// Var is a rule variable, or (as Rule.Self) a rule's own settings.
type Var struct {
	Name    string // for globals, without the "global." prefix
	Type    Type
	Value   string // for actions, the action's text
	Default string
	Help    string
	HasHelp bool
	// HasValue is false for a variable declared with no default, whose
	// value pmieconf shows as "(null)".
	HasValue bool
	Enabled  bool // for actions: the action is on; for rules: evaluated
	// DefaultEnabled is what undo restores: the rules file's enabled
	// attribute, or off if it has none.
	DefaultEnabled bool
	Display        bool
	Modify         bool
	Changed        bool // changed from the rules file's value, so saved
	// Global marks a variable declared global, and a rule's own copy of
	// a global variable made when it was changed for that rule.
	Global bool
}

// Rule is a rule template with its variables.
type Rule struct {
	Self         Var // Name, the summary as Value, Help, Enabled
	Version      uint32
	Predicate    string
	HasPredicate bool
	Enumerate    string
	HasEnumerate bool
	Vars         []*Var
}

// Name is the rule's full name, "group.rule".
func (r *Rule) Name() string { return r.Self.Name }

// Set is a loaded set of rules: Rules[0] is the global pseudo-rule, the
// rest are sorted by name.
type Set struct {
	Path  string // the rules path the set was read from
	Rules []*Rule
	// deprecated lists rules found in a generated file that no longer
	// exist or have another version, for the next write to report.
	deprecated []Deprecated
	// saved is the text after the generated section of a file read back,
	// kept to be written again.
	saved string
	// lastMsg is what pmieconf's message buffer holds: the last message
	// it made, which it reports again, stale, for one mistake in a
	// generated file. Reading the rules leaves there its complaint about
	// the last rule name it looked for and did not find (each rule's,
	// as it checks that the name is new), or about the last file it
	// passed over as not a rules file.
	lastMsg string
	// tok is pmieconf's token buffer, as reading the rules left it.
	tok tokenBuffer
}

func newSet(path string) *Set {
	g := &Rule{Self: Var{Name: globalName, Value: globalSummary, HasValue: true,
		Help: globalHelp, HasHelp: true, Global: true}}
	// pmieconf adds the global pseudo-rule as it adds any rule, checking
	// first that no rule has its name.
	return &Set{Path: path, Rules: []*Rule{g}, lastMsg: errmsgf("rule named \"%s\" does not exist", globalName)}
}

// Globals is the global pseudo-rule.
func (s *Set) Globals() *Rule { return s.Rules[0] }

// Find returns the rule of that name (the global pseudo-rule included).
func (s *Set) Find(name string) *Rule {
	for _, r := range s.Rules {
		if r.Name() == name {
			return r
		}
	}
	return nil
}

// ruleMatches reports whether name selects rule: it is the rule's name,
// or that name less its last ".component".
func ruleMatches(name, rule string) bool {
	if name == rule {
		return true
	}
	i := strings.LastIndexByte(rule, '.')
	return i >= 0 && rule[:i] == name
}

// Lookup returns the rules a rule or group name selects; "all" selects
// every rule but the global one.
func (s *Set) Lookup(name string) ([]*Rule, error) {
	var out []*Rule
	for i, r := range s.Rules {
		if (name == "all" && i > 0) || ruleMatches(name, r.Name()) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, cerrorf("no group or rule names match \"%s\"", name)
	}
	return out, nil
}

// findVar returns the rule's own variable of that name, then the global
// one, or nil.
func (s *Set) findVar(r *Rule, name string) *Var {
	if v := r.own(name); v != nil {
		return v
	}
	return s.Globals().own(name)
}

// own returns the rule's own variable of that name, or nil.
func (r *Rule) own(name string) *Var {
	for _, v := range r.Vars {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// overrides reports whether the rule has its own variable named as g.
func (r *Rule) overrides(g *Var) bool { return r.own(g.Name) != nil }

// promote gives rule its own copy of the global variable g, as pmieconf
// does when a global variable is changed for one rule.
func (r *Rule) promote(g *Var) *Var {
	v := *g
	r.Vars = append(r.Vars, &v)
	return &v
}

// cerror is an error whose text is pmieconf's own message.
type cerror string

func (e cerror) Error() string { return string(e) }

// cerrorf is pmieconf's message, as long as its buffer allows.
func cerrorf(format string, args ...any) error {
	return cerror(errmsgf(format, args...))
}

// Errorf is cerrorf for the command's own messages.
func Errorf(format string, args ...any) error { return cerrorf(format, args...) }

// errmsgLen is the size of the buffer pmieconf writes its error messages
// in: a longer message is cut to one byte less.
const errmsgLen = 512

// errmsgf is a message formatted into pmieconf's error buffer.
func errmsgf(format string, args ...any) string {
	return cut(sprintf(format, args...), errmsgLen)
}

// CutPath is the path s as pmieconf keeps it, in a buffer of
// MAXPATHLEN+1 bytes: a rules path of more than 4096 bytes loses the
// rest.
func CutPath(s string) string { return cut(s, 4096+1) }

// cut is s as snprintf(3) leaves it in a buffer of size bytes.
func cut(s string, size int) string {
	if len(s) >= size {
		return s[:size-1]
	}
	return s
}

// Deprecated is a rule named in a generated file that the rules no longer
// have, or have in another version.
type Deprecated struct {
	Name    string
	Version uint32
	Reason  string
}
