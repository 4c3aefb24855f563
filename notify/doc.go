// Package notify sends structured alerts for pmie's actions: each action a
// rule fires becomes an Alert, is routed by conditions written in
// expr-lang/expr, and is sent asynchronously to receivers: exec (a program
// run directly, in a process group of its own, the alert as JSON on its
// standard input), webhook (an HTTP POST of the alert as JSON) and
// alertmanager (Prometheus Alertmanager's /api/v2/alerts, to one or
// several Alertmanagers).
//
// It runs in the pmie-notify process (cmd/pmie-notify), which pmie feeds
// with its evaluations (package daemon/wire); pmie itself does not link
// this package, so that its dependencies cost pmie nothing (rules/doc.go
// says why and how much).
//
// It owns the alerting part of the daemon configuration (Decode, Parse:
// every value checked against its bounds, with file:line:col, before use),
// routing, time windows that mute routes and heartbeats (robfig/cron, in
// the configuration's time zone), the per-receiver queues and the
// receivers, and the life of Alertmanager alerts (lifecycle.go): they
// follow their rule's truth at each evaluation, whatever the action's
// holdoff, and endsAt is worked out when an alert is sent, never before;
// exec and webhook receivers with send_resolved (the default) are told,
// as alerts of status resolved, when the bindings an action fired for
// stop making its rule true (resolved.go).
// A configuration can be replaced while it runs (Apply): receivers whose
// settings are unchanged keep their queues, counts and alerts.
//
// It does not run pmie's own actions (package actions does) and adds
// nothing to pmie's rule language: which alerts go where is decided by the
// configuration alone.
package notify
