// Package daemon is what pmie runs beside its rules when it is given a
// daemon configuration (pmie --config-file FILE): the file itself
// (Load: rule files, derived metric files, sources, labels, receivers,
// routes, time windows, heartbeats, the HTTP endpoint and the MMV file,
// read with viper, with PMIE_* environment overrides), alerting (package
// notify) fed from the engine's evaluations, the HTTP endpoint (/metrics,
// health, reload, Prometheus's rules and alerts API, a status page) and
// pmie's own metrics as an MMV file for pmcd's mmv PMDA.
//
// It does not load or compile rules, nor decide when to reload: a reload
// is a transaction of package rules (rules.Reloader), whose load function
// (in cmd/pmie) reads every file, checks it, and gets this package's
// part ready (Prepare) before anything changes; Apply puts it in force
// as the rules switch.
//
// With no daemon configuration pmie makes no Daemon: nothing here runs,
// and pmie behaves as PCP's does.
package daemon
