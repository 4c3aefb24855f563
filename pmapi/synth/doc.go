// Package synth is a synthetic source of metrics: one host's metrics,
// instances and values, given in memory and sampled at regular times,
// read through pmapi.Context (and pmapi.Seeker) as a PCP archive of the
// same samples would be read.
//
// An Archive is built by adding metrics (a name and a descriptor's type,
// semantics and units; PMIDs and instance domains are assigned in order)
// and, for each metric, series of values: one value per sample time,
// start + k*step, NaN where the archive would have no value. Open gives a
// Context over it: the namespace, descriptors, instance domains (every
// instance a metric has, from the start) and Fetch in ModeInterp,
// ModeForw and ModeBack.
//
// Fetch in ModeInterp answers as libpcp's interpolation answers for an
// archive holding exactly those samples, with no <mark> records: at a
// sample time a value is the sample; elsewhere (or where the sample is
// missing) discrete metrics take the prior sample, instantaneous metrics
// the prior sample when there is also a later one, and counters the line
// between the prior and the next sample, rounded as libpcp rounds each
// type. There is no value before a series' first sample, nor (except for
// discrete metrics) after its last one. Records exist only at sample times
// where the host has some value, so the archive's bounds are the first and
// last such times. Counter wrap (PCP_COUNTER_WRAP) is not modelled: a
// counter that goes down is interpolated down.
//
// It is the input of rule unit tests (cmd/pmietest), and the same samples
// written by PCP's pmi module into a real archive replay the same way
// (scripts/pmietest-vs-pmie.sh checks this against real pmie).
//
// synth knows nothing of files, pmie or derived metrics; it holds numbers
// only (no strings, aggregates or events), and no help text or labels.
package synth
