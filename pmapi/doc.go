// Package pmapi is the PCP data model: metric types and semantics, units with
// their dimension and scale, PMIDs and instance domain identifiers, metric
// descriptors, values of every type, fetch results, instance domains, labels,
// help text and PCP's error codes.
//
// It also defines Context, the one interface through which every source of
// metrics (archives, pmcd, the embedded collector, and derived metrics layered
// over any of them) is read; pmapi/source opens them from what a user names.
//
// pmapi imports nothing else from this module. It does not know about
// archives, the wire protocol, derived metrics or pmie; those live in
// pmapi/archive, pmapi/pmcd, pmapi/local, derive and eval.
package pmapi
