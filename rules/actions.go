package rules

import (
	"github.com/gopcp/pmie/actions"
	"github.com/gopcp/pmie/eval"
)

// kinds maps the evaluator's action operators to action kinds.
var kinds = [...]actions.Kind{
	eval.OpShell: actions.Shell, eval.OpAlarm: actions.Alarm, eval.OpSyslog: actions.Syslog,
	eval.OpPrint: actions.Print, eval.OpStomp: actions.Stomp,
}

// Actor adapts an action runner to the evaluator. It reuses one Event for
// every action (the evaluator reuses its Firing likewise), so that running
// an action allocates nothing; the actor is for one evaluator at a time.
func Actor(r *actions.Runner) eval.Actor {
	var cur *eval.Firing
	bindings := func() []actions.Binding {
		var out []actions.Binding
		for _, b := range cur.Bindings() {
			out = append(out, actions.Binding{Host: b.Host, Conn: b.Conn, Inst: b.Inst, Value: b.Value})
		}
		return out
	}
	ev := &actions.Event{}
	return func(f *eval.Firing) eval.Truth {
		cur = f
		*ev = actions.Event{Kind: kinds[f.Kind], Rule: f.Rule, Time: f.Time, Text: f.Text,
			Priority: f.Priority, Tag: f.Tag, Err: f.Err, Bindings: bindings, Key: f.Action}
		ok := r.Run(ev)
		f.Skipped = ev.Skipped
		cur = nil
		if ok {
			return eval.True
		}
		return eval.False
	}
}

// Prepare checks an action's arguments when its rule is built: syslog's -p
// and -t options are taken out of them, with pmie's warnings, and a shell
// action's values are to be quoted (actions.ShellQuoter), so that no
// value can change the command that runs.
func Prepare(op eval.Op, args []string) eval.Prepared {
	p := PrepareRawShell(op, args)
	if op == eval.OpShell {
		p.Quoter = &actions.ShellQuoter{}
	}
	return p
}

// PrepareRawShell is Prepare with pmie's unsafe shell actions: their values
// go into the command as they are, so a crafted instance name can run
// commands (pmie --raw-shell-values).
func PrepareRawShell(op eval.Op, args []string) eval.Prepared {
	p := eval.Prepared{Args: args}
	if op == eval.OpSyslog {
		p.Args, p.Priority, p.Tag, p.Warnings = actions.SyslogArgs(args)
	}
	return p
}
