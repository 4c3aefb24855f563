#!/usr/bin/env bash
# Records the small archives pminfo's golden tests read (pminfo-*), with
# real PCP 6.0.3: pmlogger against the local pmcd (linux PMDA metrics),
# and PCP's pmi module for the deterministic synthetic ones. The pmlogger
# archives differ on every run; rerun testdata/golden/pminfo/gen.sh after
# remaking them.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/config" <<'CFG'
log mandatory on 1 sec {
	kernel.all.load
	kernel.uname.release
	kernel.uname.sysname
	hinv.ncpu
	hinv.physmem
	kernel.all.cpu.user
	kernel.percpu.cpu.user
	kernel.percpu.cpu.sys
	mem.util.free
	disk.dev.read
	disk.dev.read_bytes
	network.interface.in.bytes
	network.interface.out.bytes
	filesys.used
}
CFG

rm -f pminfo-v3.* pminfo-v2xz.*
# v3, five samples a second apart
pmlogger -V 3 -c "$tmp/config" -s 5 -t 1sec -l "$tmp/log" pminfo-v3

# v2, two runs joined: pmlogextract puts a <mark> between them; then the
# volume and metadata are xz-compressed (PCP reads them as they are)
pmlogger -V 2 -c "$tmp/config" -s 3 -t 1sec -l "$tmp/log" "$tmp/a"
sleep 2
pmlogger -V 2 -c "$tmp/config" -s 3 -t 1sec -l "$tmp/log" "$tmp/b"
pmlogextract -m "$tmp/a" "$tmp/b" pminfo-v2xz
xz -9 pminfo-v2xz.0 pminfo-v2xz.meta

rm -f pminfo-synth2.* pminfo-synth3.*
/usr/bin/python3 mk-pminfo-synth.py pminfo-synth2 2
/usr/bin/python3 mk-pminfo-synth.py pminfo-synth3 3
ls -l pminfo-*
