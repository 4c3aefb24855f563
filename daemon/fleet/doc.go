// Package fleet describes a fleet: the many hosts one pmie process
// evaluates, each with the rules of its class, as PCP's pmie "farm" runs
// one pmie process per host. It reads the hosts from lists, hosts files
// and PCP's own control files (pmie_check(1)'s control and control.d,
// pmiectl(1)'s classes), with pmie_check's checks and words, and splits a
// fleet into shards by rendezvous hashing of host names (Owner), so that
// replicas of a shard agree on its hosts without talking to each other
// and a shard added takes hosts only from the others, never moving hosts
// between them.
//
// It is small and links nothing heavy: pmie uses it to pick its shard's
// members, and the daemon configuration's reader (daemon/config, in
// pmie-notify) to read and check the fleet. Evaluating the members
// belongs to pmie (cmd/pmie), alerting to pmie-notify.
package fleet
