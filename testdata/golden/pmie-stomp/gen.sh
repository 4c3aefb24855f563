#!/usr/bin/env bash
# Regenerates the goldens of cases.txt from real pmie (PCP 6.0.3), whose
# stomp actions go to the broker stand-in of internal/stomptest (built
# from ./broker). For each line NAME|ENVIRONMENT|BROKER|CONF|ARGUMENTS it
# starts the broker with behaviour BROKER on a free loopback port, writes
# CONF (printf's format, @PORT@ the port, $LONG 4080 x's) to $CONF, and
# runs, at the repository root,
#
#     env ENVIRONMENT TZ=UTC pmie ARGUMENTS
#
# with $CONF, $LOG (a file in a new directory) and $HOST (local:, the
# local pmcd) in ARGUMENTS. It writes NAME.golden: the command, the exit
# status, stdout and stderr (each as "stdout: N lines" and those lines),
# the log's lines when pmie made one, and the broker's record (every
# frame each connection brought, stomptest.Broker.Record). Stamps
# ([date] pmie(PID)) become [STAMP], ctime dates [DATE], the port @PORT@
# and the -j file's name $CONF. cmd/pmie/stomp_test.go reads them.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
rm -f "$here"/*.golden
tmp=$(mktemp -d /tmp/stomp-gen.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/broker" ./testdata/golden/pmie-stomp/broker || exit 1
LONG=$(printf 'x%.0s' $(seq 4080))
HOST=local:
while IFS='|' read -r name envs behaviour conf args; do
	case $name in ''|'#'*) continue ;; esac
	d=$(mktemp -d "$tmp/case.XXXXXX")
	CONF=$d/stomp.conf LOG=$d/pmie.log
	"$tmp/broker" -behaviour "$behaviour" -port "$d/port" -record "$d/record" &
	broker=$!
	while [ ! -s "$d/port" ]; do sleep 0.05; done
	port=$(cat "$d/port")
	if [ -n "$conf" ]; then
		printf "${conf//\$LONG/$LONG}" | sed "s/@PORT@/$port/g" >"$CONF"
	fi
	eval "env $envs TZ=UTC timeout 60 pmie $args" >"$d/out" 2>"$d/err" </dev/null
	rc=$?
	sleep 0.5
	kill "$broker"
	wait "$broker" 2>/dev/null
	clean() {
		sed -e 's/^\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]*\] pmie([0-9]*) /[STAMP] /' \
			-e 's/[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9]\{4\}/[DATE]/g' \
			-e "s/\\b$port\\b/@PORT@/g" -e "s|$CONF|\$CONF|g" -e 's/^\(Log for pmie on \)[^ ]*/\1@HOST@/'
	}
	{
		echo "command: env $envs TZ=UTC pmie $args"
		echo "exit: $rc"
		clean <"$d/out" >"$d/out.c"
		clean <"$d/err" >"$d/err.c"
		echo "stdout: $(wc -l <"$d/out.c") lines"
		cat "$d/out.c"
		echo "stderr: $(wc -l <"$d/err.c") lines"
		cat "$d/err.c"
		if [ -f "$LOG" ]; then
			clean <"$LOG" >"$d/log.c"
			echo "log: $(wc -l <"$d/log.c") lines"
			cat "$d/log.c"
		fi
		echo "record: $(wc -l <"$d/record") lines"
		cat "$d/record"
	} >"$here/$name.golden"
done <"$here/cases.txt"
