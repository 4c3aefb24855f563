// Package notify sends structured alerts for pmie's actions: each action a
// rule fires (an actions.Event) becomes an Alert, is routed by conditions
// written in expr-lang/expr, and is sent asynchronously to receivers: exec
// (a program run directly, the alert as JSON on its standard input),
// webhook (an HTTP POST of the alert as JSON) and alertmanager (Prometheus
// Alertmanager's /api/v2/alerts).
//
// It runs in the pmie-notify process (cmd/pmie-notify), which pmie feeds
// with alerts in the form of package notify/alert; pmie itself does not
// link this package, so that its dependencies cost pmie nothing.
//
// It owns the alerting configuration (Load, a YAML file read with viper,
// checked in full before use), routing, the per-receiver queues and the
// receivers. It does not run pmie's own actions (package actions does) and
// adds nothing to pmie's rule language: which alerts go where is decided
// by the configuration alone.
//
// pmie says when a rule fires, never when it stops: alerts sent to
// Alertmanager carry endsAt = firing time + resolve_timeout, re-sent while
// the rule keeps firing, so that Alertmanager resolves them by itself once
// the rule stops, as it does for Prometheus.
package notify
