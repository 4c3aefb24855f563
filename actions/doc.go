// Package actions runs what fires when a pmie rule is true: print, shell,
// syslog, alarm and stomp as pmie has them (stomp through Runner.Stomp,
// package actions/stomp's client). In archive mode (Runner.Replay)
// actions are reported as pmie reports them, "print Thu Jan  1 00:00:00
// 1970: message", and never run. SyslogArgs checks a syslog action's -p
// and -t options when its rule is built, with pmie's warnings; SystemLog
// sends its messages to the system log as glibc's syslog(3) sends pmie's.
// An empty message is shown as pmie shows its null pointer, "(null)".
//
// ShellQuoter puts the values of %h %i %v and %c into a shell action's
// command so that the shell reads each back as its text, never as syntax
// (see shellquote.go for the rules); an Event whose Err is set is not run.
//
// An Event carries the rule's name, time, expanded message and (on
// demand) its bindings; Runner.Notify, if set, is given every Event after
// its action has run, for structured alerting (package notify).
package actions
