#!/bin/sh
# Regenerates cases.golden: glibc's regcomp and regexec (oracle.c, built
# with the system's C compiler) on the patterns and subjects of gen.py.
# Run in this directory; the tests need neither a compiler nor glibc.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O -o "$tmp/oracle" oracle.c
/usr/bin/python3 gen.py >"$tmp/cases.in"
LC_ALL=C "$tmp/oracle" <"$tmp/cases.in" | gzip -n -9 >cases.golden.gz
echo "$(gzip -dc cases.golden.gz | grep -c '^p') patterns, $(gzip -dc cases.golden.gz | grep -c '^s') subjects"
