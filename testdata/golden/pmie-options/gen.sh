#!/usr/bin/env bash
# Regenerates the goldens of cases.txt from real pmie (PCP 6.0.3): for each
# line NAME|ENVIRONMENT|ARGUMENTS it runs, at the repository root,
#
#     env ENVIRONMENT TZ=UTC pmie ARGUMENTS
#
# and writes NAME.golden: the command, the exit status, then stdout and
# stderr, each as "stdout: N lines" and those lines. ARGUMENTS are read
# as the shell reads them ('' is an empty argument); $LOG in them is a
# file in a new directory, and when pmie made it, its lines follow as
# "log: N lines". Log lines' stamps
# ([date] pmie(PID)) become [STAMP], a log's dates [DATE], the line
# saying the evaluator is
# exiting is left out, this host's name becomes @HOST@, and a usage
# message ends at its first line (ours lists options of its own).
# cmd/pmie/options_test.go reads them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/report.sh"
cd "$here/../../.."
rm -f "$here"/*.golden
host=$(hostname)
clean() { sed -e 's/^\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]*\] pmie([0-9]*) /[STAMP] /' -e 's/^\(Log for pmie on [^ ]* started\|Log finished\) .*/\1 [DATE]/' -e "s/\b$host\b/@HOST@/g" | grep -av '\[STAMP\] Info: evaluator exiting' | sed '/^Usage: pmie /q'; }
while IFS='|' read -r name envs args; do
	case $name in ''|'#'*) continue ;; esac
	out=$(mktemp) err=$(mktemp) logdir=$(mktemp -d)
	LOG=$logdir/pmie.log
	eval "env $envs TZ=UTC pmie $args" >"$out" 2>"$err" </dev/null
	rc=$?
	report "$name" "env $envs TZ=UTC pmie $args" "$rc" "$out" "$err" "$LOG"
	rm -rf "$out" "$err" "$logdir"
done <"$here/cases.txt"
