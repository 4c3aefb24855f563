#!/bin/sh
# Regenerates the goldens of the damaged-archive corpus (see README.md):
# what real PCP 6.0.3's pmdumplog, pminfo and pmie make of each damaged
# archive that internal/damaged makes from testdata/archives. Needs PCP's
# tools and Go.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go run ./internal/damaged/mkdamaged -src testdata/archives "$tmp") >"$tmp/cases" || exit 1
export PCP_DERIVED_CONFIG= TZ=UTC
cd "$tmp" || exit 1

# Real tools that loop for ever on an archive are stopped after
# $limit seconds (status 124).
limit=20

# dumplog prints how far pmdumplog reads archive $1, in the form
# internal/damaged/dumprecs prints it: "feature: unsupported" if it
# retries without the feature check, "open: MESSAGE" if it cannot open
# the archive, "end: MESSAGE" if it cannot find its end, "records: N" (the
# records it prints) and "fetch: MESSAGE" if reading stops on an error;
# or "crash: STATUS" if pmdumplog dies or is stopped.
dumplog() {
	timeout -s KILL $limit pmdumplog -z "$1" >out 2>err
	status=$?
	if [ $status -ge 124 ]; then
		echo "crash: $status"
		return
	fi
	grep -q "unsupported feature bits" err && echo "feature: unsupported"
	if grep -q "Cannot open archive" err; then
		sed -n 's/.*Cannot open archive "[^"]*": /open: /p' err | head -1
		return
	fi
	sed -n 's/.*Cannot locate end of archive [^:]*: /end: /p' err | head -1
	echo "records: $(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]+ ' out)"
	sed -n 's/.*pmFetch: /fetch: /p' err | head -1
}

# block writes one run's results: the case, the exit status, and stdout
# and stderr (each preceded by its length in bytes).
block() {
	printf 'case: %s\nexit: %s\nstdout: %s bytes\n' "$1" "$2" "$(wc -c <out)"
	cat out
	printf '\nstderr: %s bytes\n' "$(wc -c <err)"
	cat err
	printf '\n'
}

: >"$here/pmdumplog.txt"
: >"$here/pminfo.txt"
: >"$here/pmie.txt"
while IFS='	' read -r name _ _ metrics rules; do
	printf '%s\t%s\n' "$name" "$(dumplog "$name" | paste -sd';' -)" >>"$here/pmdumplog.txt"
	# shellcheck disable=SC2086
	timeout -s KILL $limit pminfo -a "$name" -f $metrics >out 2>err
	block "$name" $? >>"$here/pminfo.txt"
	timeout -s KILL $limit pmie -a "$name" -c "$here/rules/$rules.pmie" >out 2>err.all
	status=$?
	grep -v 'Info: evaluator exiting' err.all >err
	block "$name" $status >>"$here/pmie.txt"
done <"$tmp/cases"
