#!/usr/bin/env bash
# conform-corpus.sh: run the shared tools' conform-pmie.sh over every rule
# file of the shared corpus (rules/NAME.pmie) on its archive
# (archives/NAME), with -v, -V and -W, and print, for each, how many of
# real pmie's stable lines ours reproduces in order, and the totals.
#
# usage: scripts/conform-corpus.sh
#
# $PMIE overrides the pmie to test (default: built from ./cmd/pmie). The
# corpus is found as scripts/corpus.sh says.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/corpus.sh"
corpus=$(corpus_dir "$root")
tools=${PMIE_TOOLS:-$(cd "$corpus/../tools" && pwd)}
work=$(mktemp -d /tmp/conform-corpus.XXXXXX)
trap 'rm -rf "$work"' EXIT
. "$root/scripts/pmie-lib.sh"
ours=$(our_pmie "$root" "$work") || exit 1
same_all=0 total_all=0
for rules in "$corpus"/rules/*.pmie; do
	name=$(basename "$rules" .pmie)
	for flags in -v -V -W; do
		read -r same total dir < <("$tools/conform-pmie.sh" "$ours" "$corpus/archives/$name" "$rules" "$flags")
		printf '%-16s %s  %6s/%-6s\n' "$name" "$flags" "$same" "$total"
		same_all=$((same_all + same)) total_all=$((total_all + total))
		rm -rf "$dir"
	done
done
printf 'all lines: %s/%s identical\n' "$same_all" "$total_all"
