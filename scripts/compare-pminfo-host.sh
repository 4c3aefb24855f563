#!/usr/bin/env bash
# compare-pminfo-host.sh: run real pminfo(1) and ours against a live pmcd
# with each of the option sets below, and count the lines that are the
# same.
#
# usage: scripts/compare-pminfo-host.sh [host] [-v]
#
#   host  the pmcd to ask (default localhost)
#   -v    show the diff of every case that differs
#
# For each case it prints "identical/total" as compare-pminfo.sh does:
# identical is the number of lines the outputs share in diff's alignment,
# total the larger line count (stdout, then stderr). Both run with
# PCP_DERIVED_CONFIG= so real pminfo adds no derived metrics from
# /etc/pcp/derived; the figure in parentheses also leaves out libpcp's
# anonymous event.flags and event.missed, which belong to the derived
# metric layer, not the pmcd client.
#
# Values change between two runs, so -f is asked only of metrics whose
# values do not: hinv and kernel.uname. -l leaves out the metrics whose
# instances differ from one client or moment to the next (pmcd.client,
# pmcd.pmlogger, proc, hotproc) and event.*.
#
# $PMINFO overrides the binary to test (default: built from ./cmd/pminfo).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
host=localhost
verbose=0
for a in "$@"; do
	case $a in
	-v) verbose=1 ;;
	*) host=$a ;;
	esac
done

# shellcheck source=compare-lib.sh
. "$root/scripts/compare-lib.sh"
setup

stable=$(pminfo -h "$host" | grep -Ev '^(pmcd\.client|pmcd\.pmlogger|proc|hotproc|event)\.' | tr '\n' ' ')
cases=("-d -m" "-m" "-T" "-t" "-f hinv kernel.uname" "-l $stable")
labels=("-d -m" "-m" "-T" "-t" "-f hinv kernel.uname" "-l (stable metrics)")

for i in "${!cases[@]}"; do
	c=${cases[$i]}
	# shellcheck disable=SC2086
	read -r s t s2 t2 < <(compare_run -h "$host" $c)
	printf '  %-24s %8s/%-8s (%s/%s)\n' "${labels[$i]}" "$s" "$t" "$s2" "$t2"
	if [ $verbose = 1 ] && [ "$s2" != "$t2" ]; then
		diff "$tmp/ours2" "$tmp/real2" | head -40
	fi
done
