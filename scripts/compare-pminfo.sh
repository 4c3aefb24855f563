#!/usr/bin/env bash
# compare-pminfo.sh: run real pminfo(1) and ours over every corpus archive
# that real pmdumplog can read, with each of the option sets below, and
# count the lines that are the same.
#
# usage: scripts/compare-pminfo.sh [archive-dir] [-v]
#
#   archive-dir  defaults to $PMIE_CORPUS/archives, the shared corpus
#                (by default ../shared/corpus beside the repository:
#                scripts/corpus.sh)
#   -v           show the diff of every case that differs
#
# For each archive and case it prints "identical/total" where identical is
# the number of lines the two outputs share in diff's alignment and total
# the larger of the two line counts (stdout and stderr together, stderr
# after stdout). Real pminfo also lists libpcp's anonymous derived metrics
# event.flags and event.missed; those come from the derived-metric layer,
# so a second figure leaves their blocks out of both outputs.
#
# $PMINFO overrides the binary to test (default: built from ./cmd/pminfo).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=corpus.sh
. "$root/scripts/corpus.sh"
corpus=$(corpus_dir "$root")/archives
dir=${1:-$corpus}
verbose=0
[ "${2:-}" = -v ] && verbose=1
[ "${1:-}" = -v ] && { verbose=1; dir=$corpus; }

# shellcheck source=compare-lib.sh
. "$root/scripts/compare-lib.sh"
setup

cases=("-d" "-f" "-f -O +1" "-f -O +5" "-f -O +60" "-f -O +3600" "-m" "-T" "-l")

declare -A case_same case_total case_same2 case_total2
all_same=0 all_total=0 all_same2=0 all_total2=0
narch=0

for meta in "$dir"/*.meta "$dir"/*.meta.xz; do
	[ -e "$meta" ] || continue
	base=${meta%.xz}
	base=${base%.meta}
	name=$(basename "$base")
	if ! pmdumplog -z -L "$base" >/dev/null 2>&1; then
		echo "skip $name: pmdumplog cannot read it"
		continue
	fi
	narch=$((narch + 1))
	line="$name:"
	for c in "${cases[@]}"; do
		# shellcheck disable=SC2086
		read -r s t s2 t2 < <(cd "$dir" && compare_run -a "$name" $c)
		case_same[$c]=$((${case_same[$c]:-0} + s))
		case_total[$c]=$((${case_total[$c]:-0} + t))
		case_same2[$c]=$((${case_same2[$c]:-0} + s2))
		case_total2[$c]=$((${case_total2[$c]:-0} + t2))
		all_same=$((all_same + s)) all_total=$((all_total + t))
		all_same2=$((all_same2 + s2)) all_total2=$((all_total2 + t2))
		line="$line [$c] $s/$t ($s2/$t2)"
		if [ $verbose = 1 ] && [ "$s2" != "$t2" ]; then
			echo "=== $name $c"
			diff "$tmp/ours2" "$tmp/real2" | head -40
		fi
	done
	echo "$line"
done

echo
echo "per case over $narch archives: identical/total lines (without event.* entries)"
for c in "${cases[@]}"; do
	printf '  %-14s %8s/%-8s (%s/%s)\n' "$c" "${case_same[$c]:-0}" "${case_total[$c]:-0}" \
		"${case_same2[$c]:-0}" "${case_total2[$c]:-0}"
done
printf '  %-14s %8s/%-8s (%s/%s)\n' "all" "$all_same" "$all_total" "$all_same2" "$all_total2"
