#!/bin/sh
# Records the small test archives of pmapi/archive with real PCP 6.0.3
# (pmcd running, with its linux and proc PMDAs) and writes the synthetic
# ones with PCP's pmi module. See README.md for what each one is.
#
# usage: testdata/archives/make.sh   (run from anywhere; rewrites them all)
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rm -f linux-v2.* linux-v3.* linux-xz.* mark.* procs.* multivol.* synth-v2.* synth-v3.*

cat >"$tmp/linux.cfg" <<'EOF'
log mandatory on every 1 sec {
    kernel.all.load
    kernel.all.cpu.user
    kernel.all.pswitch
    kernel.all.intr
    disk.dev.read
    disk.dev.write_bytes
    network.interface.in.bytes
    network.interface.mtu
    mem.util.free
    hinv.ncpu
    kernel.uname.release
    proc.nprocs
    pmcd.pdu_in.fetch
    pmcd.numagents
}
EOF

# linux-v2, linux-v3: the same metrics, log formats 2 and 3.
pmlogger -c "$tmp/linux.cfg" -s 6 -t 1 -V 2 -l "$tmp/log" linux-v2
pmlogger -c "$tmp/linux.cfg" -s 6 -t 1 -V 3 -l "$tmp/log" linux-v3

# linux-xz: linux-v3 with its data volume and metadata compressed.
for f in 0 index meta; do cp "linux-v3.$f" "linux-xz.$f"; done
xz linux-xz.0 linux-xz.meta

# mark: two runs of pmlogger joined by pmlogextract, which puts a <mark>
# record between them (-m: always, whatever the prologue and epilogue
# records say).
pmlogger -c "$tmp/linux.cfg" -s 4 -t 1 -V 3 -l "$tmp/log" "$tmp/run1"
sleep 3
pmlogger -c "$tmp/linux.cfg" -s 4 -t 1 -V 3 -l "$tmp/log" "$tmp/run2"
pmlogextract -m "$tmp/run1" "$tmp/run2" mark

# multivol: a new data volume every 3 records.
pmlogger -c "$tmp/linux.cfg" -s 8 -t 1 -v 3 -V 2 -l "$tmp/log" multivol

# procs: per-process metrics while processes start and stop, so the
# instance domain changes (v3 writes delta instance domain records).
cat >"$tmp/procs.cfg" <<'EOF'
log mandatory on every 1 sec {
    proc.nprocs
    proc.psinfo.nice
    proc.psinfo.minflt
    proc.psinfo.ppid
}
EOF
pmlogger -c "$tmp/procs.cfg" -s 7 -t 1 -V 3 -l "$tmp/log" procs &
logger=$!
sleep 1.5
sleep 300 & a=$!
sleep 300 & b=$!
sleep 300 & c=$!
sleep 2
kill $a $b
sleep 1.5
sleep 300 & d=$!
wait $logger
kill $c $d

/usr/bin/python3 mksynth.py .
/usr/bin/python3 mksparse.py .
ls -l
