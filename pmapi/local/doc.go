// Package local is the embedded collector: it reads /proc and /sys directly
// and presents the same names, descriptors, instance domains and values as
// PCP 6.0.3's linux PMDA (and the proc PMDA's proc.nprocs), so pmie works
// without PCP installed. Its Context implements pmapi.Context as a host
// context does: each Fetch samples the system now.
//
// The namespace is a static table. meta_gen.go, generated from real pmcd by
// testdata/gen/mkmeta.py, holds each metric's name, PMID, descriptor and
// help text in the PMDA's namespace order; table.go says how each value is
// computed and which files it comes from. A fetch reads each file its
// metrics need once, keeping the files open and reading them into reused
// buffers, so a steady fetch allocates nothing.
//
// Instance numbers are given as the PMDA's instance cache gives them: in
// order of first appearance, never reused, a device that goes away keeping
// its number for when it returns. Which devices count follows the PMDA:
// disks exclude partitions, loop, ram, zram, CD-ROM, device-mapper and MD
// devices; filesystems are the block-device-backed mounts, each device
// once; CPUs are the configured ones that are online.
//
// Known differences from the PMDA: instance numbers start afresh with each
// Context, where pmcd's persist across restarts in its cache files;
// mem.util.available has no value on kernels without MemAvailable (before
// 3.14), where the PMDA estimates it; device names are not mapped to udev
// (/dev/xscsi) names; a mount's device symlink is resolved once per
// Context; and help text and labels from /etc/pcp are not read.
//
// The package owns only collection. It does not format values (pmapi does)
// and knows nothing of pmcd, archives or derived metrics.
package local
