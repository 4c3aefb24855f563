#!/bin/sh
# Records what real pmie 6.0.3 prints on stderr when pmcd goes away and
# comes back. Needs root (it stops and starts the shared pmcd) and leaves
# pmcd running. Usage: sh run.sh [-h host]   (no -h: pmie's default, local:)
#   lost-then-back: pmcd stopped 3 s into the run, started again 12 s later
#   down-at-start:  pmcd down when pmie starts, started 8 s later
#   long-outage:    (no -h) pmcd down for 40 s
set -e
cd "$(dirname "$0")"
out=${OUT:-.}
pmie "$@" -c rules -t 1 >"$out/lost-then-back.stdout" 2>"$out/lost-then-back.stderr" &
pid=$!
sleep 3; /etc/init.d/pmcd stop >/dev/null 2>&1
sleep 12; /etc/init.d/pmcd start >/dev/null 2>&1
sleep 25; kill $pid
/etc/init.d/pmcd stop >/dev/null 2>&1
pmie "$@" -c rules -t 1 >"$out/down-at-start.stdout" 2>"$out/down-at-start.stderr" &
pid=$!
sleep 8; /etc/init.d/pmcd start >/dev/null 2>&1
sleep 25; kill $pid
