// Package rules runs the rules of an eval.Program: it groups them into
// tasks by sample interval as pmie does, schedules each task on the
// archives' clock (archive mode, as fast as possible) or on a passed-in
// clock (live), fetches every host's metrics for a task (concurrently for
// live hosts, so a slow or dead host leaves only its own values unknown),
// retries metrics that are unavailable with pmie's schedule (5 s, then
// doubling up to the interval), tries lost hosts again in the background
// at every evaluation (without libpcp's 5-80 s reconnection back-off, so
// a host's values come back within two evaluations of its return), reports
// hosts lost, back and never reached in pmie's words (Hosts), prints
// values for -v, -V and -W (and hands each evaluation to an observer,
// Config.Evaluated, for rule unit tests), and adapts actions.Runner to the
// evaluator. CompileText loads a rule file into a program with pmie's
// messages, for pmie and for pmietest alike.
//
// Compiled rules keep their mutable state (sample history, rising and
// falling memory, holdoff times) in their runtime trees; Engine.Reload
// carries a rule's tree over to a reloaded program when the rule's Key
// (its text, name and interval) is unchanged.
//
// Stats counts the engine's work, per rule (evaluations, true, false,
// unknown, actions run) and for the process, as pmie keeps it for pmcd's
// pmcd.pmie metrics; a rule's counts are kept by its Key, so they too
// carry over a reload.
//
// Clock, sleep, fetch (through OpenFunc) and notification are passed in as
// function types.
package rules
