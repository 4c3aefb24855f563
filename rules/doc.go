// Package rules runs the rules of an eval.Program: it groups them into
// tasks by sample interval as pmie does, schedules each task on the
// archives' clock (archive mode, as fast as possible) or on a passed-in
// clock (live), fetches every host's metrics for a task (concurrently for
// live hosts, each in a worker of its own started once for the host's
// connection, so a slow or dead host leaves only its own values unknown
// and the steady state starts no goroutine),
// retries metrics that are unavailable with pmie's schedule (5 s, then
// doubling up to the interval), tries lost hosts again in the background
// at every evaluation (without libpcp's 5-80 s reconnection back-off, so
// a host's values come back within two evaluations of its return), reports
// hosts lost, back and never reached in pmie's words (Hosts), prints
// values for -v, -V and -W (and hands each evaluation to an observer,
// Config.Evaluated, for rule unit tests), and adapts actions.Runner to the
// evaluator. CompileText loads a rule file into a program with pmie's
// messages, for pmie and for pmietest alike (or hands each diagnostic,
// lang's and eval's alike, to Loading.Diag).
//
// Reloads are transactions (Reloader): a LoadFunc reads and checks every
// file of the configuration (rule files with CheckText, which collects
// every problem as file:line:col with a caret; derived metric files; the
// daemon's file) without changing anything; on any error the whole
// running configuration stays in force and the error is logged and
// counted; only a configuration checked in full (a Candidate) replaces
// it, in one step between two evaluations (Engine.Reload wakes the
// engine from its wait, so a long interval does not delay it). Reloads
// come from a Watcher (fsnotify on the files' directories, so that
// editors' rename-over saves are seen, debounced), SIGUSR1 and the HTTP
// endpoint's POST /-/reload, one at a time; a file change after which no
// file's contents differ does nothing.
//
// Compiled rules keep their mutable state (sample history, rising and
// falling memory, holdoff times) in their runtime trees (package eval
// builds them so); a reload carries a rule's tree over to the new program
// when the rule's Key (its text, name and interval) is unchanged, in place
// of the tree compiled for it, as Prometheus's CopyState carries a rule's
// state into its reloaded group; the new rule's task keeps the old task's
// schedule, so a reload causes no extra evaluation, and rules gone are
// reported (Config.Removed) so that their alerts resolve.
//
// Connections to hosts still fetched from at the same interval are kept.
// A reload that redefines derived metrics keeps them too when its
// Candidate can rewrap them (pmie's does: the same pmcd connection seen
// through the new definitions), so the rules carried over lose no
// sample; rules reading derived metrics carry their definitions in their
// Key (pmie's derive.Registry.Identity), so those whose definitions
// changed start afresh.
//
// A task's rules are an eval.Group: their common sub-expressions (a
// metric several rules read, a comparison repeated) are computed once a
// step for all (eval.Regroup), and a metric they share is delivered to
// once. The state of a shared sub-expression is carried over a reload
// with the trees of the unchanged rules that share it; rules new at a
// reload share among themselves, and a node that unchanged rules now in
// different tasks shared is copied, with its state, for each.
//
// One process or two. pmie runs alerting and the HTTP endpoint in a
// second process, pmie-notify, which it starts and supervises
// (cmd/pmie/helper.go). One process would be simpler (no messages between
// processes, no restarts); two keep the network-facing code (an HTTP
// server, webhook and Alertmanager clients, their slow or failing peers,
// the alerts queued for them) out of the process that evaluates the
// rules, so that a receiver that hangs or a crash in sending stops
// neither evaluation nor pmie's own metrics, and they keep pmie within
// its memory budget, peak RSS of archive replay on the benchmark
// (../shared/tools/bench-vs-pmie.sh) within 2.5x real pmie's. Measured
// (2026-11, real pmie 6.9 MB): pmie alone 12.8 MB (1.85x); with alerting
// (expr, viper, robfig/cron, net/http client) and the HTTP endpoint
// (net/http server, html/template, prometheus/client_golang for /metrics)
// linked in, 17.7 MB (2.57x), and 3% more CPU and 7% more wall time,
// whether they are used or not: Go runs every linked package's
// initialisation, and the kernel maps the binary's pages around every
// page touched, so resident size follows the binary's size (19.5 MB
// against 9.8 MB). So pmie links neither net/http, viper, expr, cron nor
// client_golang (cmd/pmie's TestAlertingStaysOutside keeps it so);
// pmie-notify reads the daemon configuration (pmie asks it to check the
// file and gets the settings it needs), routes and sends alerts, runs
// the schedules, and serves the HTTP endpoint from snapshots pmie
// gives it on request. pmie tells it every evaluation of a rule with
// actions, so alerts follow the rules (firing while true whatever the
// holdoff, resolved when false); if it dies or stops answering pings pmie
// starts it again and tells it the configuration and the rules firing,
// so alerting never stops for good.
//
// Stats counts the engine's work, per rule (evaluations, true, false,
// unknown, actions run) and for the process, as pmie keeps it for pmcd's
// pmcd.pmie metrics; a rule's counts are kept by its Key, so they too
// carry over a reload.
//
// Clock, sleep, fetch (through OpenFunc) and notification are passed in as
// function types.
package rules
