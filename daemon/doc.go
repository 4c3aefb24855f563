// Package daemon is pmie's side of running as a daemon (pmie
// --yaml-config FILE, or --web.listen-address): it feeds pmie-notify (an
// Alerter, the process that sends alerts and serves the HTTP endpoint)
// from the engine's evaluations, keeps the state of the rules the HTTP
// endpoint shows and hands it over in snapshots (Snapshot), answers the
// endpoint's reloads, and keeps pmie's own metrics in an MMV file for
// pmcd's mmv PMDA.
//
// It links nothing heavy (no HTTP, no YAML reader, no routing): its
// subpackages do the rest in pmie-notify (config: the daemon
// configuration, read with viper; web: the HTTP endpoint; selfmetrics:
// the metrics, shared with the MMV file; wire: what the two processes say
// to each other). See rules/doc.go for why there are two processes.
//
// It does not load or compile rules, nor decide when to reload: a reload
// is a transaction of package rules (rules.Reloader), whose load function
// (in cmd/pmie) reads every file, checks it (the daemon's file through
// pmie-notify), and gets this package's part ready (Prepare) before
// anything changes; Apply puts it in force as the rules switch.
//
// With no daemon configuration and no HTTP endpoint pmie makes no Daemon:
// nothing here runs, and pmie behaves as PCP's does.
package daemon
