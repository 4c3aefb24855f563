#!/usr/bin/env bash
# Regenerates merged.golden: what real pminfo (PCP 6.0.3) writes to one
# file given as both its standard output and its standard error (block
# size 4096): its output is buffered in blocks, its messages are not, so
# each message lands at the start of the block of output being filled.
# Run in testdata/archives; cmd/pminfo's TestMergedOutput reads it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../archives"
args=$(cat "$here/args.txt")
PCP_DERIVED_CONFIG= TZ=UTC pminfo $args >"$here/merged.golden" 2>&1
echo "exit $?"
