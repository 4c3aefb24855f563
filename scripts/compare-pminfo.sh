#!/usr/bin/env bash
# compare-pminfo.sh: run real pminfo(1) and ours over every corpus archive
# that real pmdumplog can read, with each of the option sets below, and
# count the lines that are the same.
#
# usage: scripts/compare-pminfo.sh [archive-dir] [-v]
#
#   archive-dir  defaults to ../shared/corpus/archives beside the repo root
#                (or /work/shared/corpus/archives)
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
corpus=$root/../shared/corpus/archives
[ -d "$corpus" ] || corpus=/work/shared/corpus/archives
dir=${1:-$corpus}
verbose=0
[ "${2:-}" = -v ] && verbose=1
[ "${1:-}" = -v ] && { verbose=1; dir=$corpus; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ours=${PMINFO:-}
if [ -z "$ours" ]; then
	ours=$tmp/pminfo
	(cd "$root" && go build -o "$ours" ./cmd/pminfo) || exit 1
fi
export PCP_DERIVED_CONFIG=

cases=("-d" "-f" "-f -O +1" "-f -O +5" "-f -O +60" "-f -O +3600" "-m" "-T" "-l")

# drop_events removes the event.flags and event.missed entries: in output
# made of blank-line-separated blocks (-d, -f, -T, -l) their blocks with
# the blank line before, otherwise their lines and the indented lines
# under them; and their one-line errors.
drop_events() {
	awk '
	{ lines[NR] = $0; if ($0 == "") blocks = 1 }
	END {
		for (i = 1; i <= NR; i++) {
			l = lines[i]
			if (l !~ /^event\.(flags|missed)([ :]|$)/) {
				if (held) print ""
				held = 0
				if (l == "" && blocks) { held = 1; continue }
				print l
				continue
			}
			if (l ~ /^event\.(flags|missed): /) continue
			held = 0
			while (i < NR && lines[i + 1] != "" && (blocks || lines[i + 1] ~ /^ /)) i++
		}
		if (held) print ""
	}'
}

# score prints "identical total" for two files.
score() {
	local a=$1 b=$2 na nb changed
	na=$(wc -l <"$a")
	nb=$(wc -l <"$b")
	# lines only in b, per diff's alignment
	changed=$(diff "$a" "$b" | grep -c '^>')
	local same=$((nb - changed))
	local total=$((na > nb ? na : nb))
	echo "$same $total"
}

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
		(cd "$dir" && pminfo -a "$name" $c >"$tmp/real" 2>"$tmp/real.err")
		# shellcheck disable=SC2086
		(cd "$dir" && "$ours" -a "$name" $c >"$tmp/ours" 2>"$tmp/ours.err")
		cat "$tmp/real.err" >>"$tmp/real"
		cat "$tmp/ours.err" >>"$tmp/ours"
		read -r s t < <(score "$tmp/ours" "$tmp/real")
		drop_events <"$tmp/real" >"$tmp/real2"
		drop_events <"$tmp/ours" >"$tmp/ours2"
		read -r s2 t2 < <(score "$tmp/ours2" "$tmp/real2")
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
