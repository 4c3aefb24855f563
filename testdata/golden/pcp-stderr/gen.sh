#!/usr/bin/env bash
# Regenerates the goldens of cases.txt from real PCP 6.0.3 (pminfo, pmie,
# pmieconf): for each line NAME|TOOL|MODE|ARGUMENTS it makes a fresh
# directory DIR holding
#
#     f          "earlier\n" (the file $PCP_STDERR names in mode file)
#     confirm    a program that appends its arguments, one "<ARG>" a line,
#                to confirm.log (the dialog program of mode dialog)
#     noexec     a file that is not executable
#     bad.derived  "foo = bar +\n" (a bad derived metric, a bad namespace)
#     bad.pmie   "x = ;\n"
#     small.pmie "l = kernel.all.load;\n"
#
# and runs there, with stdin empty, the environment of MODE (see
# cases.txt) and TZ=UTC,
#
#     TOOL ARGUMENTS          ($T replaced by the repository's testdata)
#
# then writes NAME.golden: the command, the exit status, then stdout,
# stderr, DIR/f, DIR/g and DIR/confirm.log, each as "LABEL: N bytes"
# followed by exactly those bytes and a newline ("LABEL: none" for a file
# not there). DIR is written as DIR and log stamps ("[Sun Nov 29
# 04:48:02] pmie(6371)") as [STAMP]. The tests of cmd/pminfo, cmd/pmie
# and cmd/pmieconf read them through internal/pmprintf/pmprintftest.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
T=$(cd "$here/../.." && pwd)
rm -f "$here"/*.golden
norm() { sed -e "s#$1#DIR#g" -e 's/\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]*\] \([a-z]*\)([0-9]*)/[STAMP] \1/g'; }
block() { # label file dir
	if [ -f "$2" ]; then
		norm "$3" <"$2" >"$2.n"
		echo "$1: $(wc -c <"$2.n") bytes"
		cat "$2.n"
		echo
	else
		echo "$1: none"
	fi
}
while IFS='|' read -r name tool mode args; do
	case $name in ''|'#'*) continue ;; esac
	d=$(mktemp -d /tmp/pcp-stderr-gold.XXXXXX)
	printf 'earlier\n' >"$d/f"
	printf '#!/bin/sh\nfor a; do printf "<%%s>\\n" "$a"; done >>confirm.log\necho out; echo err >&2\n' >"$d/confirm"
	chmod +x "$d/confirm"
	printf '#!/bin/sh\n' >"$d/noexec"
	printf 'foo = bar +\n' >"$d/bad.derived"
	printf 'x = ;\n' >"$d/bad.pmie"
	printf 'l = kernel.all.load;\n' >"$d/small.pmie"
	: >"$d/stdin"
	envs=()
	case $mode in
	unset) ;;
	file) envs=(PCP_STDERR="$d/f") ;;
	new) envs=(PCP_STDERR="$d/g") ;;
	missingdir) envs=(PCP_STDERR="$d/nodir/f") ;;
	dir) envs=(PCP_STDERR="$d") ;;
	empty) envs=(PCP_STDERR=) ;;
	dialog) envs=(PCP_STDERR=DISPLAY PCP_XCONFIRM_PROG="$d/confirm") ;;
	dialog-lc) envs=(PCP_STDERR=display PCP_XCONFIRM_PROG="$d/confirm") ;;
	noprog) envs=(PCP_STDERR=DISPLAY PCP_XCONFIRM_PROG="$d/missing") ;;
	noexec) envs=(PCP_STDERR=DISPLAY PCP_XCONFIRM_PROG="$d/noexec") ;;
	emptyprog) envs=(PCP_STDERR=DISPLAY PCP_XCONFIRM_PROG=) ;;
	noconf) envs=(PCP_STDERR=DISPLAY PCP_CONF="$d/none") ;;
	*) echo "unknown mode $mode" >&2; exit 1 ;;
	esac
	# pmieconf without -f (as in --fo, its --force) edits the pmie file
	# of $PCP_SYSCONF_DIR, run as root the system's: point it and $HOME
	# here, as cmd/pmieconf's test does
	if [ "$tool" = pmieconf ]; then envs+=(PCP_SYSCONF_DIR="$d/sysconf" HOME="$d"); fi
	(cd "$d" && env -u PCP_STDERR -u PCP_XCONFIRM_PROG "${envs[@]}" TZ=UTC $tool ${args//\$T/$T} <stdin >out 2>err; echo $? >rc)
	{
		echo "command: $tool $args"
		echo "mode: $mode"
		echo "exit: $(cat "$d/rc")"
		block stdout "$d/out" "$d"
		block stderr "$d/err" "$d"
		block f "$d/f" "$d"
		block g "$d/g" "$d"
		block dialog "$d/confirm.log" "$d"
	} >"$here/$name.golden"
	rm -rf "$d"
done <"$here/cases.txt"
ls "$here"/*.golden | wc -l
