// Package eval compiles pmie expressions to programs over hosts x instances
// x samples and runs them: three-valued truth, quantifiers, aggregates,
// automatic rate conversion of counters, sample windows, and the bindings
// that actions print.
//
// eval uses lang, derive and pmapi. Scheduling, holdoff and action dispatch
// belong to rules.
package eval
