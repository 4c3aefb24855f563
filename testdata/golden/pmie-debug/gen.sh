#!/usr/bin/env bash
# Regenerates the goldens of cases.txt from real pmie (PCP 6.0.3): for each
# line NAME|INPUT|ARGUMENTS it runs, at the repository root,
#
#     printf 'INPUT' | TZ=UTC pmie ARGUMENTS
#
# and writes NAME.golden: the command, the exit status, then stdout and
# stderr, each as "stdout: N bytes" and those bytes (exactly, as the last
# prompt has no newline). Log lines' stamps ([date] pmie(PID)) become
# [STAMP]. cmd/pmie/debug_test.go reads them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
rm -f "$here"/*.golden
clean() { sed -e 's/^\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]*\] pmie([0-9]*) /[STAMP] /'; }
while IFS='|' read -r name input args; do
	case $name in ''|'#'*) continue ;; esac
	out=$(mktemp) err=$(mktemp)
	# shellcheck disable=SC2059
	printf -- "$input" | eval "TZ=UTC pmie $args" >"$out" 2>"$err"
	rc=$?
	{
		echo "command: printf '$input' | TZ=UTC pmie $args"
		echo "exit: $rc"
		echo "stdout: $(wc -c <"$out") bytes"
		cat "$out"
		echo
		clean <"$err" >"$err.c"
		echo "stderr: $(wc -c <"$err.c") bytes"
		cat "$err.c"
		echo
	} >"$here/$name.golden"
	rm -f "$out" "$err" "$err.c"
done <"$here/cases.txt"
