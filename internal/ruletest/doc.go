// Package ruletest runs unit tests of pmie rule files (cmd/pmietest), as
// promtool's "test rules" does for Prometheus: YAML test files give the
// rule files, input series (or archives) and what the rules must give at
// chosen evaluation times. The format is described in the README
// ("Testing rules").
//
// A test file is read in two steps (yaml.go, read*.go): goccy/go-yaml
// parses the YAML, with line and column for syntax errors, and its tree
// is checked into a File, every problem a lang.Diagnostic at its line and
// column, rendered with the line and a caret. Series values are written
// in promtool's expanding notation (series.go).
//
// A test runs (world.go, run.go) on the engine pmie runs over archives:
// each host's input becomes a synthetic archive (pmapi/synth) read through
// pmapi.Context, derived metrics are layered over it (derive), the rule
// files are compiled with pmie's loader and messages (rules.CompileText),
// and rules.Engine evaluates them in archive mode from the first sample
// to the last, on the input's clock, with actions reported and never run
// (actions.Runner in replay mode). The engine hands each evaluation to an
// observer (rules.Config.Evaluated), which keeps the rules' values
// (eval.Node.Members) at the times the test asks about; the actions fired
// then are kept with the alert routing would send for them
// (notify/alert). check.go compares them with the expectations; report.go
// prints failures and writes JUnit XML.
//
// export.go and pmie.go check tests against real pmie: Export writes each
// test's input (for PCP's pmi module to write as archives) and the pmie
// command that replays it, and CheckPmie compares real pmie's -v output
// with the expectations and with what this engine prints
// (scripts/pmietest-vs-pmie.sh).
//
// ruletest does not evaluate anything itself, nor run actions; a rule
// file pmie would complain about (syntax errors, unknown metrics or
// instances, warnings) fails the test with pmie's messages.
package ruletest
