package eval

// Mode says what statements may be, as pmie's command line restricts
// them: its secret applet mode (-X), in which it prints each evaluation's
// values on one line for a thin client, and its secret agent mode (-x),
// in which it sends them to the summary PMDA as the values of metrics
// named after the statements.
type Mode uint8

const (
	// ModeNormal puts no restriction on statements.
	ModeNormal Mode = iota
	// ModeApplet refuses a named statement that is a rule with actions,
	// or an action (a ruleset is let through, as pmie lets it).
	ModeApplet
	// ModeAgent refuses the same; so does the parser any statement
	// without a name (lang.PmieOptions).
	ModeAgent
)

// restricted reports whether op may not be a named statement's operator
// in applet and agent modes: rules with actions, and actions.
func restricted(op Op) bool {
	switch op {
	case OpRule, OpActSeq, OpActAlt, OpShell, OpAlarm, OpSyslog, OpPrint, OpStomp:
		return true
	}
	return false
}

// restrict applies c.Mode to a statement that pmie's parser has just
// completed and registered: named (or not), whose expression built is x
// (nil if it failed); kept says that registering it kept x (it had no
// error and its name was free), and r is the rule made, if any. It
// reports whether the statement stands. Like pmie, it refuses a statement
// only once registered: the name of a refused rule stays taken. pmie
// looks at the operator of an expression it did not keep after freeing it
// (which in practice reads no rule), so only one kept is refused for it.
func (c *Compiler) restrict(named bool, x *Node, kept bool, r *Rule) bool {
	switch {
	case c.Mode == ModeNormal:
		return true
	case named && kept && x != nil && restricted(x.Op):
		c.B.notAllowed(x.Op)
	case !named && c.Mode == ModeAgent:
		// the parser has said so (lang.PmieOptions.Agent)
	default:
		return true
	}
	if r != nil {
		c.Prog.refuse(r)
	}
	return false
}
