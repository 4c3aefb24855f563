#!/usr/bin/env bash
# pmietest-vs-pmie.sh: check rule unit tests against real pmie.
#
# usage: scripts/pmietest-vs-pmie.sh [-k] [TESTFILE...]
#
#   -k         keep the work directory (archives, pmie's output) and say
#              where it is
#   TESTFILE   test files (default: examples/tests/*.yaml)
#
# For each test, pmietest --export writes its synthetic input and the
# pmie command that replays it; scripts/pmietest-archive.py writes the
# input as real archives with PCP's pmi module (one per host); real pmie
# replays them with -a ... -v (never -z: the time zone is the test's,
# through $TZ); and pmietest --check-pmie compares what real pmie printed
# at each expected time with the test's expectations (values and truths,
# within the precision pmie prints; the actions it reports, by action and
# message) and with what pmietest's engine prints. It prints every
# disagreement, then the counts, and exits with status 1 if any test
# disagrees.
#
# $PMIETEST overrides the binary (default: built from ./cmd/pmietest).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
keep=0
if [ "${1:-}" = -k ]; then keep=1; shift; fi
if [ $# -eq 0 ]; then set -- "$root"/examples/tests/*.yaml; fi

work=$(mktemp -d /tmp/pmietest-vs-pmie.XXXXXX)
if [ $keep = 1 ]; then
	echo "work directory: $work" >&2
else
	trap 'rm -rf "$work"' EXIT
fi
if [ -n "${PMIETEST:-}" ]; then
	bin=$PMIETEST
else
	(cd "$root" && go build -o "$work/pmietest" ./cmd/pmietest) || exit 1
	bin=$work/pmietest
fi
pmie=$(command -v pmie) || { echo "real pmie not found" >&2; exit 1; }

"$bin" --export "$work/tests" "$@" || exit 1
for dir in "$work"/tests/*/; do
	(cd "$dir" && /usr/bin/python3 "$root/scripts/pmietest-archive.py" input.json) || exit 1
	mapfile -t args <"$dir/pmie.args"
	mapfile -t env <"$dir/pmie.env"
	(cd "$dir" && env "${env[@]}" "$pmie" "${args[@]}" >pmie.out 2>pmie.err)
done
"$bin" --check-pmie "$work/tests"
