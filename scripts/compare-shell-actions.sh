#!/usr/bin/env bash
# compare-shell-actions.sh: run real pmie and ours in archive mode (where
# pmie reports each action it would run, with its expanded text) on the
# pmie file made from PCP's installed pmieconf templates with every rule
# and every shell action enabled, and on testdata/golden/shell-actions/
# actions.pmie, over the archives in testdata/archives/shell; count the
# reports that are the same.
#
# usage: scripts/compare-shell-actions.sh [-v]
#
#   -v  show the reports that differ
#
# The files are made afresh by testdata/golden/shell-actions/gen.sh (real
# pmieconf and ours must agree). For each archive and rule file it prints
# "identical/total" for shell actions and for the other actions. Over the
# benign archive (names as real systems have) all must be identical; over
# the crafted one ours quotes the values in shell actions, so those
# differ, and only those.
#
# $PMIE overrides the pmie to test (default: built from ./cmd/pmie).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
verbose=0
if [ "${1:-}" = -v ]; then verbose=1; fi
work=$(mktemp -d /tmp/compare-shell-actions.XXXXXX)
trap 'rm -rf "$work"' EXIT
. "$root/scripts/pmie-lib.sh"
ours=$(our_pmie "$root" "$work") || exit 1
"$root/testdata/golden/shell-actions/gen.sh" "$work/gen" || exit 1

# reports: pmie's archive-mode output, one action report a line (a value's
# newlines written \n)
reports() {
	awk '/^(print|shell|alarm|syslog|stomp) [A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9]+: / {
		if (NR > 1) print r
		r = $0
		next
	}
	{ r = (NR > 1 ? r "\\n" : "") $0 }
	END { print r }'
}

status=0
cd "$root"
for a in benign crafted; do
	for r in rules actions; do
		zcat "$work/gen/$a-$r.out.gz" | reports >"$work/real"
		TZ=UTC "$ours" -z -a "testdata/archives/shell/$a" -c "$work/gen/$r.pmie" 2>/dev/null |
			reports >"$work/ours"
		counts=$(awk 'NR == FNR { real[FNR] = $0; next }
			real[FNR] ~ /^shell / { st++; if (real[FNR] == $0) ss++; next }
			real[FNR] ~ /^(print|alarm|syslog|stomp) / { ot++; if (real[FNR] == $0) os++ }
			END { printf "%d %d %d %d", ss, st, os, ot }' "$work/real" "$work/ours")
		read -r ss st os ot <<<"$counts"
		lr=$(wc -l <"$work/real")
		lo=$(wc -l <"$work/ours")
		printf '%-16s shell %4d/%-4d  other %4d/%-4d  reports %d (real %d)\n' "$a-$r" "$ss" "$st" "$os" "$ot" "$lo" "$lr"
		if [ "$lr" != "$lo" ] || [ "$os" != "$ot" ] || { [ $a = benign ] && [ "$ss" != "$st" ]; }; then
			status=1
		fi
		if [ $verbose = 1 ]; then
			diff "$work/real" "$work/ours"
		fi
	done
done
exit $status
