#!/usr/bin/env bash
# Regenerates the goldens of cases.txt from real pmie (PCP 6.0.3) run live
# on the local pmcd (with its default PMDAs: the rule files use metrics
# whose values do not change, such as hinv.ncpu). For each line
# NAME|ENVIRONMENT|ARGUMENTS it runs, at the repository root,
#
#     TZ=UTC ENVIRONMENT pmie ARGUMENTS
#
# and writes NAME.golden: the command, the exit status, then stdout and
# stderr, each as "stdout: N lines" and those lines. ARGUMENTS are read as
# the shell reads them. Dates pmie prints (ctime(3)'s, as print actions
# and -V/-v lines have them) become [DATE], log stamps ([date] pmie(PID))
# [STAMP], this host's name @HOST@, and the line saying the evaluator is
# exiting is left out. cmd/pmie/live_golden_test.go reads them, and skips
# without a pmcd.
#
# $SAMPLE in ARGUMENTS is a pmcd serving PCP's sample PMDA alone, with no
# pmcd PMDA: the private pmcd `/usr/bin/python3 scripts/diff-pmie-live.py
# setup` starts (localhost:44399); it is @SAMPLE@ in the outputs, which
# the test runs against a stand-in serving the same metrics. $LOG is a
# file in a new directory (open to user pcp, as pmie run as root logs as
# pcp); its lines follow as "log: N lines".
#
# during and after change the sample PMDA while a case runs, and restore
# it (the test's stand-in does the same, liveDuring).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../pmie-options/report.sh"
cd "$here/../../.."
rm -f "$here"/*.golden
host=$(hostname)
SAMPLE=localhost:44399
clean() {
	sed -e 's/^\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]*\] pmie([0-9]*) /[STAMP] /' \
		-e 's/[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9][0-9][0-9][0-9]/[DATE]/g' \
		-e 's/^\(Log for pmie on [^ ]* started\|Log finished\) .*/\1 [DATE]/' \
		-e "s/\b$host\b/@HOST@/g" -e "s/$SAMPLE/@SAMPLE@/g" -e 's/^pmie: PID = [0-9]*,/pmie: PID = PID,/' | grep -av '^\[STAMP\] Info: evaluator exiting'
}
during() {
	case $1 in
	typechange) sleep 1.5; pmstore -h $SAMPLE sample.dynamic.meta.pmdesc.type 5 >/dev/null ;;
	esac
}
after() {
	case $1 in
	typechange) pmstore -h $SAMPLE sample.dynamic.meta.pmdesc.type 0 >/dev/null ;;
	esac
}
while IFS='|' read -r name env args; do
	case $name in ''|'#'*) continue ;; esac
	out=$(mktemp) err=$(mktemp) logdir=$(mktemp -d)
	chmod 777 "$logdir"
	LOG=$logdir/pmie.log
	during "$name" &
	eval "TZ=UTC $env pmie $args" >"$out" 2>"$err" </dev/null
	rc=$?
	wait
	after "$name"
	report "$name" "TZ=UTC ${env:+$env }pmie $args" "$rc" "$out" "$err" "$LOG"
	rm -rf "$out" "$err" "$logdir"
done <"$here/cases.txt"
