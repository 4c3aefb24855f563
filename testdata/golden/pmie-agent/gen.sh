#!/usr/bin/env bash
# Regenerates the goldens of cases.txt from real pmie (PCP 6.0.3): for each
# line NAME|ENVIRONMENT|ARGUMENTS it runs, at the repository root,
#
#     env PCP_DERIVED_CONFIG= PMNS_DEFAULT=testdata/golden/pmie-agent/pmns \
#         TZ=UTC ENVIRONMENT pmie ARGUMENTS </dev/null
#
# ($D in ARGUMENTS is testdata/golden/pmie-agent, $A testdata/archives)
# and writes NAME.out, pmie's standard output byte for byte (the PDUs of
# -x, the lines of -X), and NAME.golden: the command, the exit status and
# the standard error as "stderr: N lines" and those lines, with log
# stamps ([date] pmie(PID)) made [STAMP], the line saying the evaluator
# is exiting left out and a usage message cut after its first line (ours
# lists options of its own). It runs each case twice and fails if the two
# runs differ. cmd/pmie/agent_test.go reads them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
D=testdata/golden/pmie-agent
A=testdata/archives
rm -f "$here"/*.golden "$here"/*.out
clean() { sed -e 's/^\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]*\] pmie([0-9]*) /[STAMP] /' | grep -av '\[STAMP\] Info: evaluator exiting' | sed '/^Usage: pmie /q'; }
status=0
while IFS='|' read -r name envs args; do
	case $name in ''|'#'*) continue ;; esac
	cmd="env PCP_DERIVED_CONFIG= PMNS_DEFAULT=$D/pmns TZ=UTC $envs pmie $args"
	for run in 1 2; do
		eval "$cmd" >"$here/$name.out.$run" 2>"$here/$name.err.$run" </dev/null
		echo $? >"$here/$name.rc.$run"
	done
	if ! cmp -s "$here/$name.out.1" "$here/$name.out.2" || ! cmp -s "$here/$name.rc.1" "$here/$name.rc.2" ||
		! cmp -s <(clean <"$here/$name.err.1") <(clean <"$here/$name.err.2"); then
		echo "$name: real pmie's two runs differ" >&2
		status=1
	fi
	mv "$here/$name.out.1" "$here/$name.out"
	{
		echo "command: $cmd"
		echo "exit: $(cat "$here/$name.rc.1")"
		clean <"$here/$name.err.1" >"$here/$name.err.c"
		echo "stderr: $(wc -l <"$here/$name.err.c") lines"
		cat "$here/$name.err.c"
	} >"$here/$name.golden"
	rm -f "$here/$name".out.2 "$here/$name".err.* "$here/$name".rc.*
done <"$here/cases.txt"
exit $status
