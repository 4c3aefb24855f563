package pmieconf

// Type is the type of a rule variable, or TypeRule for a rule itself.
type Type int

// The types of pmieconf(5), in the order pmieconf numbers them.
const (
	TypeString Type = iota
	TypeDouble
	TypeInteger
	TypeUnsigned
	TypePercent
	TypeHostlist
	TypeInstlist
	TypePrint
	TypeShell
	TypeAlarm
	TypeSyslog
	TypeRule
)

var typeNames = [...]string{"string", "double", "integer", "unsigned", "percent",
	"hostlist", "instlist", "print", "shell", "alarm", "syslog", "rule"}

func (t Type) String() string {
	if t >= 0 && int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "unknown"
}

// IsAction reports whether t is one of the action types, whose value is
// whether the action is on.
func (t Type) IsAction() bool {
	return t == TypePrint || t == TypeShell || t == TypeAlarm || t == TypeSyslog
}

func lookupType(s string) (Type, bool) {
	for i, n := range typeNames {
		if n == s {
			return Type(i), true
		}
	}
	return 0, false
}

// attr is an attribute keyword of pmieconf(5).
type attr int

const (
	attrNone attr = iota - 1
	attrHelp
	attrModify
	attrEnabled
	attrDisplay
	attrDefault // also spelt "summary"
	attrVersion
	attrPredicate
	attrEnumerate
)

// lookupAttr gives the attribute a keyword names, or attrNone.
func lookupAttr(s string) attr {
	switch s {
	case "help":
		return attrHelp
	case "modify":
		return attrModify
	case "enabled":
		return attrEnabled
	case "display":
		return attrDisplay
	case "default", "summary":
		return attrDefault
	case "version":
		return attrVersion
	case "predicate":
		return attrPredicate
	case "enumerate":
		return attrEnumerate
	}
	return attrNone
}
