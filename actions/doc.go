// Package actions implements what fires when a pmie rule is true: print,
// shell, syslog and alarm as pmie has them, plus exec, webhook and
// Alertmanager. Arguments and templates are checked when rules load, with
// positions, not when an action fires.
package actions
