#!/bin/sh
# Regenerates the goldens of pmapi/archive from real PCP 6.0.3 (needs the
# PCP development files: libpcp and its headers, and pmval).
#
#   fetchdump/NAME  is the output of  oracle/fetchdump ARGS (for ARGS
#                   "ARCHIVE script FILE", of oracle/fetchdump ARCHIVE
#                   script <scripts/FILE)
#   pmval/NAME      is the output of  pmval ARGS
#
# for each line "NAME ARGS" of fetchdump.cmds and pmval.cmds, run in
# testdata/archives with PCP_DERIVED_CONFIG set empty, so that only what
# is in the archives is seen.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
archives=$here/../../archives
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O1 -Wall -o "$tmp/fetchdump" "$here/oracle/fetchdump.c" -lpcp
export PCP_DERIVED_CONFIG=
rm -rf "$here/fetchdump" "$here/pmval"
mkdir -p "$here/fetchdump" "$here/pmval"
cd "$archives"
while read -r name args; do
    case $args in
    *" script "*)
        # the steps of a script are read from scripts/FILE
        arch=${args%% script *}
        "$tmp/fetchdump" "$arch" script <"$here/scripts/${args##* script }" >"$here/fetchdump/$name"
        ;;
    *)
        # shellcheck disable=SC2086
        "$tmp/fetchdump" $args >"$here/fetchdump/$name"
        ;;
    esac
done <"$here/fetchdump.cmds"
while read -r name args; do
    # shellcheck disable=SC2086
    pmval $args >"$here/pmval/$name" 2>&1 || true
done <"$here/pmval.cmds"
