#!/usr/bin/env bash
# Regenerates the pminfo goldens from real pminfo (PCP 6.0.3): for each
# line "name|arguments" of cases.txt it runs, in testdata/archives,
#
#     PCP_DERIVED_CONFIG= TZ=UTC pminfo ARGUMENTS
#
# (cases named live-* ask the pmcd on localhost, and their test skips
# without one) and writes NAME.golden: the command, the exit status, then stdout and
# stderr, each as "stdout: N bytes" followed by exactly those bytes and a
# newline. cmd/pminfo/golden_test.go reads them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../archives"
rm -f "$here"/*.golden
while IFS='|' read -r name args; do
	case $name in ''|'#'*) continue ;; esac
	out=$(mktemp) err=$(mktemp)
	eval "PCP_DERIVED_CONFIG= TZ=UTC pminfo $args" >"$out" 2>"$err"
	rc=$?
	{
		echo "command: PCP_DERIVED_CONFIG= TZ=UTC pminfo $args"
		echo "exit: $rc"
		echo "stdout: $(wc -c <"$out") bytes"
		cat "$out"
		echo
		echo "stderr: $(wc -c <"$err") bytes"
		cat "$err"
		echo
	} >"$here/$name.golden"
	rm -f "$out" "$err"
done <"$here/cases.txt"
ls "$here"/*.golden | wc -l
