#!/usr/bin/env bash
# compare-derive.sh: run real pminfo(1) and ours with the derived metrics
# of testdata/derive/corpus.conf (through PCP_DERIVED_CONFIG) over every
# corpus archive, and count the lines that are the same.
#
# usage: scripts/compare-derive.sh [archive-dir] [-v]
#
# For each archive and case it prints "identical/total" for stdout and for
# stderr: identical is the number of lines the two outputs share in diff's
# alignment, total the larger line count. The cases are
#   dv      pminfo -a X -d -f dv            (our derived metrics only)
#   dv+O    pminfo -a X -d -f -O +10 dv
#   all     pminfo -a X -d -f               (every metric, derived ones too)
#   global  pminfo -a X -d -f without PCP_DERIVED_CONFIG (PCP's own
#           derived metrics, from $PCP_VAR_DIR/config/derived)
# $PMINFO overrides the binary to test (default: built from ./cmd/pminfo,
# which must have the archive reader wired in: sources.Archive).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=corpus.sh
. "$root/scripts/corpus.sh"
corpus=$(corpus_dir "$root")/archives
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
export PCP_DERIVED_CONFIG=$root/testdata/derive/corpus.conf TZ=UTC

# same counts the lines two files share in diff's alignment
same() {
	local a b
	a=$(wc -l <"$1") b=$(wc -l <"$2")
	local differ
	differ=$(diff "$1" "$2" | grep -c '^<')
	echo "$((a - differ)) $(( a > b ? a : b ))"
}

cd "$dir" || exit 1
tot_s=0 all_s=0 tot_e=0 all_e=0
declare -A sum_s sum_t
for meta in *.meta *.meta.xz; do
	[ -e "$meta" ] || continue
	a=${meta%.meta*}
	pmdumplog -L "$a" >/dev/null 2>&1 || continue
	line="$a:"
	for c in dv dv+O all global; do
		envs=()
		case $c in
		dv) args=(-d -f dv) ;;
		dv+O) args=(-d -f -O +10 dv) ;;
		all) args=(-d -f) ;;
		global) args=(-d -f) envs=(-u PCP_DERIVED_CONFIG) ;;
		esac
		timeout 60 env "${envs[@]}" pminfo -a "$a" "${args[@]}" >"$tmp/r.out" 2>"$tmp/r.err"
		timeout 60 env "${envs[@]}" "$ours" -a "$a" "${args[@]}" >"$tmp/o.out" 2>"$tmp/o.err"
		read -r so st < <(same "$tmp/r.out" "$tmp/o.out")
		read -r eo et < <(same "$tmp/r.err" "$tmp/o.err")
		line="$line $c $so/$st stderr $eo/$et;"
		sum_s[$c]=$(( ${sum_s[$c]:-0} + so )) sum_t[$c]=$(( ${sum_t[$c]:-0} + st ))
		tot_e=$((tot_e + eo)) all_e=$((all_e + et))
		if [ $verbose = 1 ] && ! cmp -s "$tmp/r.out" "$tmp/o.out"; then
			echo "== $a $c stdout"; diff "$tmp/r.out" "$tmp/o.out" | head -40
		fi
		if [ $verbose = 1 ] && ! cmp -s "$tmp/r.err" "$tmp/o.err"; then
			echo "== $a $c stderr"; diff "$tmp/r.err" "$tmp/o.err" | head -20
		fi
	done
	echo "$line"
done
for c in dv dv+O all global; do
	echo "total $c: ${sum_s[$c]}/${sum_t[$c]} stdout lines identical"
done
echo "total stderr: $tot_e/$all_e lines identical"
