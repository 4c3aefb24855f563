// Package rules runs the rules of an eval.Program: it groups them into
// tasks by sample interval as pmie does, schedules each task on the
// archives' clock (archive mode, as fast as possible) or on a passed-in
// clock (live), fetches every host's metrics for a task (concurrently for
// live hosts, so a slow or dead host leaves only its own values unknown),
// retries hosts and metrics that are unavailable with pmie's backoff,
// prints values for -v, -V and -W, and adapts actions.Runner to the
// evaluator.
//
// Compiled rules keep their mutable state (sample history, rising and
// falling memory, holdoff times) in their runtime trees; Engine.Reload
// carries a rule's tree over to a reloaded program when the rule's Key
// (its text, name and interval) is unchanged.
//
// Clock, sleep, fetch (through OpenFunc) and notification are passed in as
// function types.
package rules
