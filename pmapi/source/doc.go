// Package source opens the sources of metrics that commands are told to
// read, as pmNewContext(3) does for PCP's tools: archives (pmapi/archive),
// pmcd by host specification (pmapi/pmcd, whose Spec is libpcp's syntax),
// and the embedded /proc collector (pmapi/local). It is the one place
// where what a user names becomes a pmapi.Context: pmie, pminfo and
// examples/vmstat open through an Opener, and so should new commands and
// new sources (pmproxy's REST API, a fleet of thousands of pmcd hosts in
// one process): a new kind of source is a case of Opener.Open, and what an
// Opener shares between the contexts it opens (timeouts, and later dial
// limits or connection pools) is its fields.
//
// It does not layer anything over what it opens: derived metrics
// (package derive) and -n namespaces (pmapi.WithNamespace) are the
// commands' choice, as their rules for them differ.
//
// Packages below the commands (eval, rules, derive) import none of this:
// they are given contexts, or functions that open them.
package source
