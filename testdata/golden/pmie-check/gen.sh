#!/bin/sh
# Regenerates the goldens of pmie -C: for each case, real pmie (PCP 6.0.3)
# checks it against the test archive alpha, as
#   pmie -C -a ../../archives/pmie/alpha ARGS > CASE.out 2>&1; echo $? > CASE.status
# where ARGS is the case's file, or for the *.args cases the words in it
# (several files, or -c FILE, or "<" for standard input).
# directory.pmie is a directory: pmie reads it as an empty file.
set -u
cd "$(dirname "$0")"
A=../../archives/pmie/alpha
for f in *.pmie; do
	c=${f%.pmie}
	pmie -C -a $A "$f" >"$c.out" 2>&1
	echo $? >"$c.status"
done
for f in *.args; do
	c=${f%.args}
	args=$(cat "$f")
	case "$args" in
	"<"*) pmie -C -a $A <"${args#< }" >"$c.out" 2>&1 ;;
	*) pmie -C -a $A $args >"$c.out" 2>&1 ;;
	esac
	echo $? >"$c.status"
done
