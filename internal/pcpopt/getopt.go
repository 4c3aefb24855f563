// Package pcpopt parses command lines as PCP tools do: GNU getopt_long
// with options and operands in any order (pmgetopt_r), the standard PCP
// options of pmGetOptions(3) (sources, time window, timezone) with their
// environment defaults and messages, and pmUsageMessage's usage text.
//
// It knows nothing of any one tool: each command passes its option table
// and handles its own options.
package pcpopt

import (
	"os"
	"strings"
)

// Option is one entry of a tool's option table (pmLongOptions).
type Option struct {
	Long    string // long name without "--"; "" if the option has none
	HasArg  bool
	Short   byte   // short letter; 0 for a long-only option
	ArgName string // shown in usage for an option's argument
	Help    string // the usage line; "" leaves the option out of usage
	Header  bool   // a section header in usage: Help is its title
	// Extra marks an option of ours that the PCP tool does not have: a
	// prefix that also begins one of the tool's own options means that
	// one, so that the tool's abbreviations keep their meaning.
	Extra bool
}

// Header is a usage section title (PMAPI_OPTIONS_HEADER).
func Header(title string) Option { return Option{Header: true, Help: title} }

// Event is one thing found on a command line, in order: an option with its
// argument, or (Err set) a message about a bad option.
type Event struct {
	Short byte   // the option's short letter, or 0 for a long-only one
	Long  string // the option's long name, if it has one
	Arg   string
	Err   string // a getopt error message, without the program name
}

// Parse reads args (without the program name) as GNU getopt_long does in
// its default (permuting) mode: options may come before, between or after
// operands; "--" ends the options; "-" is an operand. shorts lists the
// short letters that take arguments with ':' after them, as getopt's
// optstring does; table gives the long names. With $POSIXLY_CORRECT set,
// as getopt then does, the options end at the first operand.
func Parse(args []string, shorts string, table []Option) (events []Event, operands []string) {
	_, posix := os.LookupEnv("POSIXLY_CORRECT")
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return events, append(operands, args[i+1:]...)
		case strings.HasPrefix(a, "--"):
			ev, used := parseLong(a[2:], args[i+1:], table)
			events = append(events, ev)
			i += used
		case len(a) > 1 && a[0] == '-':
			evs, used := parseShorts(a[1:], args[i+1:], shorts)
			events = append(events, evs...)
			i += used
		case posix:
			return events, append(operands, args[i:]...)
		default:
			operands = append(operands, a)
		}
	}
	return events, operands
}

// shortSpec reports whether c is a short option in shorts and whether it
// takes an argument.
func shortSpec(c byte, shorts string) (known, hasArg bool) {
	if c == ':' {
		return false, false
	}
	i := strings.IndexByte(shorts, c)
	if i < 0 {
		return false, false
	}
	return true, i+1 < len(shorts) && shorts[i+1] == ':'
}

// parseShorts reads a cluster of short options ("-dfm", "-afile"),
// taking an argument from rest when the last one needs it. It returns the
// events and how many of rest it used.
func parseShorts(cluster string, rest []string, shorts string) ([]Event, int) {
	var evs []Event
	for j := 0; j < len(cluster); j++ {
		c := cluster[j]
		known, hasArg := shortSpec(c, shorts)
		switch {
		case !known:
			evs = append(evs, Event{Short: '?', Err: "invalid option -- '" + string(c) + "'"})
		case !hasArg:
			evs = append(evs, Event{Short: c})
		case j+1 < len(cluster):
			return append(evs, Event{Short: c, Arg: cluster[j+1:]}), 0
		case len(rest) > 0:
			return append(evs, Event{Short: c, Arg: rest[0]}), 1
		default:
			return append(evs, Event{Short: '?', Err: "option requires an argument -- '" + string(c) + "'"}), 0
		}
	}
	return evs, 0
}

// parseLong reads "--name[=value]", matching name exactly or as an
// unambiguous prefix of a long option in table (of the tool's own
// options first, then of the Extra ones).
func parseLong(text string, rest []string, table []Option) (Event, int) {
	name, value, hasValue := strings.Cut(text, "=")
	found, others := matchLong(name, table, false)
	if found == nil {
		found, others = matchLong(name, table, true)
	}
	switch {
	case found == nil:
		return Event{Short: '?', Err: "unrecognized option '--" + text + "'"}, 0
	case len(others) > 0:
		msg := "option '--" + text + "' is ambiguous; possibilities: '--" + found.Long + "'"
		for _, o := range others {
			msg += " '--" + o.Long + "'"
		}
		return Event{Short: '?', Err: msg}, 0
	case !found.HasArg && hasValue:
		return Event{Short: '?', Err: "option '--" + found.Long + "' doesn't allow an argument"}, 0
	case found.HasArg && hasValue:
		return Event{Short: found.Short, Long: found.Long, Arg: value}, 0
	case found.HasArg && len(rest) > 0:
		return Event{Short: found.Short, Long: found.Long, Arg: rest[0]}, 1
	case found.HasArg:
		return Event{Short: '?', Err: "option '--" + found.Long + "' requires an argument"}, 0
	}
	return Event{Short: found.Short, Long: found.Long}, 0
}

// matchLong finds the long option name is, or begins, among the options
// of table that are Extra or not as extra says (any option named exactly
// counts); others are the further options it begins that differ from the
// first found, as getopt_long lists them when it is ambiguous.
func matchLong(name string, table []Option, extra bool) (found *Option, others []*Option) {
	for k := range table {
		o := &table[k]
		if o.Header || o.Long == "" || !strings.HasPrefix(o.Long, name) {
			continue
		}
		if o.Long == name {
			return o, nil
		}
		if o.Extra != extra {
			continue
		}
		if found == nil {
			found = o
		} else if found.HasArg != o.HasArg || found.Short != o.Short {
			others = append([]*Option{o}, others...)
		}
	}
	return found, others
}
