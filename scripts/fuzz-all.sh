#!/usr/bin/env bash
# fuzz-all.sh: run every fuzz target of the module, one after another,
# for the same time each, and print how many inputs each ran and whether
# it failed.
#
# usage: scripts/fuzz-all.sh [TIME] [PATTERN] [go test flags...]
#
#   TIME     -fuzztime of each target (default 60s)
#   PATTERN  run only the targets whose "package FuzzName" matches this
#            extended regular expression (default: all)
#   flags    passed on to go test (default: -fuzzminimizetime 10s), e.g.
#            -parallel 1
#
# When an input widens coverage, Go first shrinks it, running it again
# and again, for up to -fuzzminimizetime (Go's default is 60s): with
# inputs of a few kilobytes that can take all of a short run, so this
# script gives it 10s unless told otherwise.
# Go fuzzes one target per run, using every processor (-parallel), so the
# targets run one at a time. A failing input is written to the package's
# testdata directory (fuzz/FuzzName), where plain go test runs it from then
# on: keep it, with the fix, as a regression case. The log of each run is
# left in $FUZZ_LOGS (default: a new directory under /tmp, printed at the
# end).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
time=${1:-60s}
pattern=${2:-.}
shift $(($# < 2 ? $# : 2))
[ $# -eq 0 ] && set -- -fuzzminimizetime 10s
logs=${FUZZ_LOGS:-$(mktemp -d /tmp/fuzz-all.XXXXXX)}
mkdir -p "$logs" || exit 1
cd "$root" || exit 1
status=0
while read -r pkg fn; do
	grep -Eq -- "$pattern" <<<"$pkg $fn" || continue
	log="$logs/$(tr / _ <<<"$pkg")-$fn.log"
	go test -run '^$' -fuzz "^$fn\$" -fuzztime "$time" "$@" "./$pkg" >"$log" 2>&1
	rc=$?
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	result=ok
	if [ $rc -ne 0 ] && ! grep -q 'Failing input written' "$log" &&
		grep -q '^    context deadline exceeded$' "$log"; then
		# Go 1.26's fuzzing coordinator can fail a run whose -fuzztime
		# ends while a worker is busy, with no failing input
		# (go.dev/issue/75804, fixed in Go 1.27)
		result="ok (stopped by go.dev/issue/75804)"
	elif [ $rc -ne 0 ]; then
		result="FAILED (see $log)"
		status=1
	fi
	printf '%-24s %-22s %10s inputs  %s\n' "$pkg" "$fn" "${execs:-0}" "$result"
done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' . |
	sed -E 's#^\./(.*)/[^/]*:[0-9]+:func (Fuzz[A-Za-z0-9_]*)\(.*#\1 \2#' | sort)
echo "logs: $logs"
exit $status
